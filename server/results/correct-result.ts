import { emitSessionEvent } from "../webhooks/emit-event";
import { eq } from "drizzle-orm";
import { z } from "zod";
import { getBlob } from "../blobs/blob-store";
import { refreshResultLoads } from "../load/store-load";
import type { Db } from "../db/client";
import { resultCrew, results, vessels } from "../db/schema";
import { AppError, notFound } from "../errors";
import { InvalidSvcError } from "../svc/errors";
import { getKeyring } from "../config/keyring";
import { ProcessingError } from "../svc/process/errors";
import { processSvc } from "../svc/process/process";
import type { ProcessedSession } from "../svc/process/types";
import type { Keyring, VesselType } from "../svc/types";
import type { SessionUser } from "../users/users";
import { resultBlobPrefix } from "./delete-result";
import { checkUploadAgainstDatabase, lockUploadReferences, parseUploadMetadata } from "./upload-metadata";
import { replaceResultFigures } from "./result-figures";

/**
 * What the owner may correct after an upload (docs/web-app.md
 * "Corrections"): the fields the upload form asked for, except the file and
 * its target. A crew seat is an athlete id or an external paddler typed by hand.
 */
export const ZCorrection = z.object({
  vesselId: z.number().int().positive(),
  trackId: z.number().int().positive(),
  categoryId: z.number().int().positive(),
  paceId: z.number().int().positive(),
  crew: z
    .array(
      z.union([
        z.object({ athleteId: z.number().int().positive() }),
        z.object({
          name: z.string().trim().min(1).max(128),
          surname: z.string().trim().max(128).default(""),
          weightKg: z.number().min(0).max(150).nullable().default(null),
        }),
      ]),
    )
    .min(1)
    .max(4),
  competition: z.string().max(64).default(""),
  description: z.string().max(64).default(""),
  important: z.boolean().default(false),
});
export type Correction = z.input<typeof ZCorrection>;

/** Records, the log and the APIs read results directly, so they follow a correction at once; only the stored derivations are rebuilt here. */
export async function correctResult(
  db: Db,
  user: SessionUser,
  resultId: number,
  input: Correction,
  deps: { keyring?: Keyring; now?: Date } = {},
): Promise<{ reprocessed: boolean }> {
  const correction = ZCorrection.parse(input);
  const [current] = await db
    .select({
      ownerUserId: results.ownerUserId,
      vesselType: vessels.type,
      hull: vessels.hull,
      targetDistanceM: results.targetDistanceM,
      targetDurationMs: results.targetDurationMs,
    })
    .from(results)
    .innerJoin(vessels, eq(vessels.id, results.vesselId))
    .where(eq(results.id, resultId));
  // Only the owner corrects; to anyone else the session is as absent as one that does not exist.
  if (!current || current.ownerUserId !== user.id) throw notFound("Session");
  // The upload's own rules, with its messages: crew size for the boat class, accessible track and athletes, subscriptions today, externals.
  const meta = parseUploadMetadata(
    JSON.stringify({
      ...(current.targetDistanceM !== null ? { distance: current.targetDistanceM } : { duration_ms: current.targetDurationMs }),
      vessel_id: correction.vesselId,
      track_id: correction.trackId,
      category_id: correction.categoryId,
      pace_id: correction.paceId,
      athletes: correction.crew.map((seat) =>
        "athleteId" in seat ? seat.athleteId : { id: -1, name: seat.name, surname: seat.surname, weight: seat.weightKg },
      ),
      competition: correction.competition,
      description: correction.description,
      important: correction.important,
    }),
  );
  const now = deps.now ?? new Date();
  const resolved = await checkUploadAgainstDatabase(db, user, meta, now.toISOString().slice(0, 10));

  // Processing depends on the boat class (hull, crew size), nothing else here: reprocess only when it changes.
  let processed: ProcessedSession | null = null;
  if (resolved.vessel.type !== current.vesselType) {
    const original = await getBlob(db, `${resultBlobPrefix(resultId)}original.svc`);
    if (!original)
      throw new AppError(
        "unprocessable",
        "The original file of this session is not stored, so it cannot be processed as another boat class",
        { vesselId: ["The original file is not stored; the boat class cannot change"] },
      );
    try {
      processed = processSvc(
        original.bytes,
        {
          vessel: resolved.vessel.type as VesselType,
          ...(meta.distanceM !== null ? { distanceM: meta.distanceM } : { durationMs: meta.durationMs! }),
        },
        deps.keyring ?? getKeyring(),
      );
    } catch (error) {
      if (error instanceof InvalidSvcError || error instanceof ProcessingError) {
        throw new AppError("unprocessable", `The file cannot be processed as a ${resolved.vessel.type}: ${error.message}`, {
          vesselId: [`The file cannot be processed as a ${resolved.vessel.type}`],
        });
      }
      throw error;
    }
  }

  await db.transaction(async (raw) => {
    const tx = raw as unknown as Db;
    // As for an upload: a track or athlete deleted since the check answers 403, not a foreign-key 500.
    await lockUploadReferences(tx, user, meta);
    await tx
      .update(results)
      .set({
        vesselId: resolved.vessel.id,
        trackId: resolved.track.id,
        categoryId: meta.categoryId,
        paceId: meta.paceId,
        competition: meta.competition,
        description: meta.description,
        important: meta.important,
        // The recorded boat was one of the old class: it no longer fits (session-equipment.ts); a paddle fits while the hull stays.
        ...(processed ? { equipmentVesselId: null } : {}),
        ...(processed && resolved.vessel.hull !== current.hull ? { equipmentPaddleId: null } : {}),
      })
      .where(eq(results.id, resultId));
    await tx.delete(resultCrew).where(eq(resultCrew.resultId, resultId));
    await tx
      .insert(resultCrew)
      .values(
        meta.crew.map((seat, index) =>
          seat.kind === "internal"
            ? { resultId, seat: index + 1, athleteId: seat.athleteId }
            : { resultId, seat: index + 1, externalName: seat.name, externalSurname: seat.surname, externalWeightKg: seat.weightKg },
        ),
      );
    // Either way the session an application reads has changed: one session.updated (replaceResultFigures sends it with new figures).
    if (processed) await replaceResultFigures(tx, resultId, processed);
    else {
      // The crew may have changed: each named paddler's load (docs/load.md).
      await refreshResultLoads(tx, resultId);
      await emitSessionEvent(tx, "session.updated", resultId);
    }
  });
  return { reprocessed: processed !== null };
}
