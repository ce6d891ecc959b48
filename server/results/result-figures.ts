import { emitSessionEvent } from "../webhooks/emit-event";
import { and, eq, like, ne } from "drizzle-orm";
import type { Db } from "../db/client";
import { refreshResultLoads } from "../load/store-load";
import { blobs, resultDerived, results, resultStrokes } from "../db/schema";
import { sendEvent } from "../events/send-event";
import type { ProcessedSession } from "../svc/process/types";
import { PROCESSING_CORE_VERSION } from "../svc/process/version";
import { resultBlobPrefix } from "./delete-result";
import { insertStrokeRows } from "./stroke-rows";

/** The result_derived row of a processing, stamped with the core that made it. */
export function derivedRow(processed: ProcessedSession, coreVersion: number = PROCESSING_CORE_VERSION) {
  return {
    effortStartS: processed.effort.start_s,
    effortEndS: processed.effort.end_s,
    summary: processed.summary,
    dataQuality: processed.data_quality,
    track: processed.track,
    heartRate: processed.heart_rate,
    processingCoreVersion: coreVersion,
  };
}

/** The result's own columns that processing decides (the effort's facts). */
export function effortColumns(processed: ProcessedSession) {
  return {
    date: processed.date,
    timeOfDay: processed.time_of_day,
    startAt: new Date(processed.start_unix_ms),
    utcOffsetMin: processed.utc_offset_min,
    distanceM: processed.effort.dist,
    durationMs: processed.effort.duration_ms,
    // Provenance, decided by the file like the figures: a reprocessing run records it for results stored before 0034.
    svcKeyId: processed.device.key_id,
  };
}

/**
 * Replaces everything a processing produced for a stored result, inside the
 * caller's transaction (a correction to another boat class, a reprocessing
 * run): the effort's facts on the result, its strokes, its derived row with
 * the core version, and every artifact built from the old figures (replay,
 * exports, reports) — the replay is queued again. Records, the log and the
 * APIs read the result's columns directly, so they follow at commit; until
 * then every reader sees the previous figures whole.
 */
export async function replaceResultFigures(
  tx: Db,
  resultId: number,
  processed: ProcessedSession,
  coreVersion: number = PROCESSING_CORE_VERSION,
): Promise<void> {
  await tx.update(results).set(effortColumns(processed)).where(eq(results.id, resultId));
  await tx.delete(resultStrokes).where(eq(resultStrokes.resultId, resultId));
  await insertStrokeRows(tx, resultId, processed.strokes);
  const derived = { ...derivedRow(processed, coreVersion), replayBlobKey: null };
  await tx
    .insert(resultDerived)
    .values({ resultId, ...derived })
    .onConflictDoUpdate({ target: resultDerived.resultId, set: derived });
  const prefix = resultBlobPrefix(resultId);
  await tx.delete(blobs).where(and(like(blobs.key, `${prefix}%`), ne(blobs.key, `${prefix}original.svc`)));
  await refreshResultLoads(tx, resultId);
  await sendEvent(tx, { name: "result/stored", data: { resultId } });
  await emitSessionEvent(tx, "session.updated", resultId);
}
