import { createHash } from "node:crypto";
import { eq, inArray } from "drizzle-orm";
import type { Db } from "../db/client";
import { blobs } from "../db/schema";

/**
 * The blob store: original .svc files, exports, replay artifacts. The
 * embedded default keeps bytes in the `blobs` table, which lets an upload
 * write its file in the same transaction as its result. Object storage would
 * implement the same three functions.
 */
export interface StoredBlob {
  id: number;
  key: string;
  contentType: string;
  byteSize: number;
  /** Hex SHA-256 of the bytes. */
  sha256: string;
}

export async function putBlob(db: Db, input: { key: string; bytes: Uint8Array; contentType: string }): Promise<StoredBlob> {
  const data = Buffer.from(input.bytes.buffer, input.bytes.byteOffset, input.bytes.byteLength);
  const sha256 = createHash("sha256").update(data).digest("hex");
  const [row] = await db
    .insert(blobs)
    .values({ key: input.key, contentType: input.contentType, byteSize: data.byteLength, sha256, data })
    .returning({ id: blobs.id, key: blobs.key, contentType: blobs.contentType, byteSize: blobs.byteSize, sha256: blobs.sha256 });
  return row;
}

export async function getBlob(db: Db, key: string): Promise<(StoredBlob & { bytes: Buffer }) | null> {
  const [row] = await db
    .select({ id: blobs.id, key: blobs.key, contentType: blobs.contentType, byteSize: blobs.byteSize, sha256: blobs.sha256, data: blobs.data })
    .from(blobs)
    .where(eq(blobs.key, key));
  if (!row) return null;
  const { data, ...meta } = row;
  return { ...meta, bytes: Buffer.from(data) };
}

export async function deleteBlobs(db: Db, keys: string[]): Promise<void> {
  if (keys.length) await db.delete(blobs).where(inArray(blobs.key, keys));
}
