import type { Db } from "../db/client";

/** Where a result's replay artifact was stored. */
export interface ReplayArtifactRef {
  /** Blob key, e.g. "results/42/replay-v1.bin". */
  blobKey: string;
  /** Artifact schema version; 1 is the first. */
  schemaVersion: 1;
  /** Size of the stored (compressed) artifact in bytes. */
  byteSize: number;
  /** Hex SHA-256 of the stored bytes. */
  sha256: string;
}

/**
 * Builds the replay artifact of a stored result (schema 1, compressed,
 * immutable) and stores it as a blob. Called by the `build-replay-artifact`
 * background function (inngest/functions/build-replay-artifact.ts) after the
 * `result/stored` event.
 *
 * Contract for the implementation: background steps run at least once, so
 * this must be idempotent — when the artifact blob already exists, return
 * its reference instead of building it again. Throw `notFound("Result")`
 * (server/errors.ts) when the result does not exist: the function fails at
 * once on such domain errors instead of retrying.
 *
 * TODO(lead): implement with the .svc processing core after merging the jobs
 * branch; until then every run of the function fails with this error.
 */
export async function buildReplayArtifact(db: Db, resultId: number): Promise<ReplayArtifactRef> {
  void db;
  throw new Error(`buildReplayArtifact(${resultId}): not wired yet (the .svc processing core is pending)`);
}
