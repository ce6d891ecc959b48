import { gzipSync } from "node:zlib";
import { and, eq, isNull } from "drizzle-orm";
import { commitBlob, getBlob, stageBlob, statBlob } from "../blobs/blob-store";
import type { Db } from "../db/client";
import { resultDerived, results, vessels } from "../db/schema";
import { notFound } from "../errors";
import { resultBlobPrefix } from "../results/delete-result";
import { getKeyring } from "../config/keyring";
import { processSvc } from "../svc/process/process";
import type { VesselType } from "../svc/types";

/** Where a result's replay artifact was stored. */
export interface ReplayArtifactRef {
  /** Blob key, e.g. "results/42/replay-v1.json.gz". */
  blobKey: string;
  /** Artifact schema version; 1 is the first. */
  schemaVersion: 1;
  /** Size of the stored (compressed) artifact in bytes. */
  byteSize: number;
  /** Hex SHA-256 of the stored bytes. */
  sha256: string;
}

export const replayBlobKey = (resultId: number) => `${resultBlobPrefix(resultId)}replay-v1.json.gz`;

/**
 * Builds the replay artifact of a stored result (schema 1: quantized 30 Hz
 * visual transforms only, gzip-compressed JSON, immutable) from its original
 * file and stores it as a blob. Idempotent: an existing artifact is returned
 * as it is. Processing is deterministic, so a rebuild gives the same frames.
 */
export async function buildReplayArtifact(db: Db, resultId: number): Promise<ReplayArtifactRef> {
  const [row] = await db
    .select({ target: results.targetDistanceM, duration: results.targetDurationMs, vessel: vessels.type })
    .from(results)
    .innerJoin(vessels, eq(vessels.id, results.vesselId))
    .where(eq(results.id, resultId));
  if (!row) throw notFound("Result");
  const key = replayBlobKey(resultId);
  const existing = await statBlob(db, key);
  if (existing) return { blobKey: key, schemaVersion: 1, byteSize: existing.byteSize, sha256: existing.sha256 };

  const original = await getBlob(db, `${resultBlobPrefix(resultId)}original.svc`);
  if (!original) throw notFound("Original file");
  const processed = processSvc(
    original.bytes,
    { vessel: row.vessel as VesselType, ...(row.target !== null ? { distanceM: row.target } : { durationMs: row.duration! }) },
    getKeyring(),
  );
  const bytes = gzipSync(Buffer.from(JSON.stringify(processed.replay)));
  const content = await stageBlob(db, bytes);
  const stored = await db.transaction(async (tx) => {
    const blob = await commitBlob(tx as unknown as Db, { key, content, contentType: "application/json" });
    await tx
      .update(resultDerived)
      .set({ replayBlobKey: key })
      .where(and(eq(resultDerived.resultId, resultId), isNull(resultDerived.replayBlobKey)));
    return blob;
  });
  return { blobKey: key, schemaVersion: 1, byteSize: stored.byteSize, sha256: stored.sha256 };
}
