import { createHash } from "node:crypto";
import { stageBlob, type StagedContent } from "../blobs/blob-store";
import type { Db } from "../db/client";
import { requestFingerprint, withIdempotencyKey, type StoredOutcome } from "./idempotency";

/**
 * An upload guarded by an Idempotency-Key (docs/results-api.md "Retrying an
 * upload"): the results API's POST /results and the web upload page's two
 * endpoints. The same key in the same scope with the same file bytes, file
 * name and metadata answers the first upload's 201 body again; with anything
 * else it is IdempotencyKeyReusedError. `create` runs inside the key's
 * transaction, so a failed upload keeps no key. Without a key it simply runs
 * in a transaction. The file's bytes are staged before that transaction and
 * handed to `create` (docs/blobs.md "Consistency": bytes first, then the row).
 */
export async function uploadOnce<T>(
  db: Db,
  guard: { scope: string; path: string; key: string | null },
  form: { file: { filename: string | null; bytes: Buffer } | null; metadata: string | undefined },
  create: (tx: Db, stagedOriginal: StagedContent | undefined) => Promise<T>,
): Promise<{ data: T; replayed: boolean }> {
  const claim = guard.key
    ? {
        scope: guard.scope,
        key: guard.key,
        fingerprint: requestFingerprint({
          method: "POST",
          path: guard.path,
          body: {
            file_sha256: form.file ? createHash("sha256").update(form.file.bytes).digest("hex") : null,
            filename: form.file?.filename ?? null,
            metadata: form.metadata,
          },
        }),
      }
    : null;
  const staged = form.file?.bytes.length ? await stageBlob(db, form.file.bytes) : undefined;
  const { outcome, replayed } = await withIdempotencyKey<Extract<StoredOutcome, { kind: "response" }>>(db, claim, async (tx) => ({
    kind: "response",
    status: 201,
    body: await create(tx as unknown as Db, staged),
  }));
  return { data: outcome.body as T, replayed };
}
