import { gunzipSync } from "node:zlib";
import { z } from "zod";
import { blobExists, getBlob, openBlob } from "../blobs/blob-store";
import type { Db } from "../db/client";
import { replayBlobKey } from "./build-replay-artifact";

/**
 * The replay artifact, schema 1, exactly (data-api.md "Replay artifact"):
 * five members and frames of seven numbers `[x, 0, 0, roll, pitch, yaw,
 * paddle_phase]`. Strict: a member outside this list would be data the
 * privacy projection never allowed, so such an artifact is invalid.
 */
export const REPLAY_MODEL_CLASSES = ["K1", "K2", "K4", "C1", "C2", "C4"] as const;
export type ReplayModelClass = (typeof REPLAY_MODEL_CLASSES)[number];

export const ZReplayFrame = z.tuple([
  z.number().int(),
  z.literal(0),
  z.literal(0),
  z.number().int(),
  z.number().int(),
  z.number().int(),
  z.number().min(0).max(2),
]);
export const ZReplayArtifact = z
  .object({
    schema: z.literal(1),
    frame_count: z.number().int().min(1),
    model_class: z.enum(REPLAY_MODEL_CLASSES),
    quantization: z.object({ position_m: z.number().positive(), orientation_deg: z.number().positive() }).strict(),
    frames: z.array(ZReplayFrame).min(1),
  })
  .strict()
  .refine((a) => a.frames.length === a.frame_count, "frame_count must equal the number of frames");
export type ValidReplayArtifact = z.infer<typeof ZReplayArtifact>;

export type ReplayArtifactRead =
  { ok: true; gzipBytes: Buffer; artifact: ValidReplayArtifact } | { ok: false; reason: "missing" | "invalid" };

/** Decodes and checks gzip bytes as a schema-1 artifact. */
export function decodeReplayArtifact(gzipBytes: Uint8Array): ValidReplayArtifact | null {
  try {
    const parsed = ZReplayArtifact.safeParse(JSON.parse(gunzipSync(gzipBytes).toString("utf8")));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** A result's stored artifact, decoded and checked: missing (not built yet, or processing failed) or invalid. */
export async function readReplayArtifact(db: Db, resultId: number): Promise<ReplayArtifactRead> {
  const blob = await getBlob(db, replayBlobKey(resultId));
  if (!blob) return { ok: false, reason: "missing" };
  const artifact = decodeReplayArtifact(blob.bytes);
  return artifact ? { ok: true, gzipBytes: blob.bytes, artifact } : { ok: false, reason: "invalid" };
}

/** The stored gzip bytes as a stream, unchecked (they were checked when the embed was created), or null. */
export async function openReplayArtifact(
  db: Db,
  resultId: number,
): Promise<{ stream: ReadableStream<Uint8Array>; byteSize: number } | null> {
  return openBlob(db, replayBlobKey(resultId));
}

/** Whether the result's artifact has been built (without reading its bytes). */
export async function replayArtifactExists(db: Db, resultId: number): Promise<boolean> {
  return blobExists(db, replayBlobKey(resultId));
}
