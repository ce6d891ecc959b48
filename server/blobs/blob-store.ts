import { createHash } from "node:crypto";
import { and, eq, inArray, isNotNull, lt, sql } from "drizzle-orm";
import { PgTransaction } from "drizzle-orm/pg-core";
import { getEnv, type S3Settings } from "../config/env";
import type { Db } from "../db/client";
import { blobContents, blobs } from "../db/schema";
import type { ObjectStorage } from "./s3-objects";

/**
 * The blob store (docs/blobs.md): original .svc files, exports, replay
 * artifacts, device-fetch copies. A blob is a row (`blobs`: key, content
 * type, SHA-256) naming its bytes by content (`blob_contents`), which live in
 * Postgres (the embedded default) or, when S3_BUCKET is set, in S3 under
 * `sha256/<hex>`.
 *
 * Writing is two steps so that an object store and a transaction stay
 * consistent: `stage` writes the bytes first (outside any transaction: its
 * content row commits on its own), then `commit` inserts the row inside the
 * caller's transaction. A rolled-back transaction leaves only unreferenced
 * content, which `sweep` removes after a grace period.
 */
export interface StoredBlob {
  id: number;
  key: string;
  contentType: string;
  byteSize: number;
  /** Hex SHA-256 of the bytes. */
  sha256: string;
}

/** Bytes written by `stage`, ready for a row to refer to them. */
export interface StagedContent {
  sha256: string;
  byteSize: number;
}

export interface BlobStream extends StoredBlob {
  /** The bytes, read piece by piece (never the whole file in memory). */
  stream: ReadableStream<Uint8Array>;
}

/** Unreferenced content younger than this is never swept: a writer may be between `stage` and `commit`. */
export const SWEEP_GRACE_MS = 60 * 60 * 1000;
/** Bytes per read when streaming from Postgres (substring on the out-of-line bytea). */
export const POSTGRES_READ_CHUNK_BYTES = 512 * 1024;

export interface BlobStore {
  backend: "postgres" | "s3";
  /** Writes the bytes (deduplicated by SHA-256). Call it outside a transaction, before the one that commits the row. */
  stage(db: Db, bytes: Uint8Array): Promise<StagedContent>;
  /** Inserts the row for staged content (or content another row already has), in the caller's transaction. */
  commit(tx: Db, input: { key: string; content: StagedContent; contentType: string }): Promise<StoredBlob>;
  /** `stage` then `commit`, for a caller with no transaction of its own. */
  put(db: Db, input: { key: string; bytes: Uint8Array; contentType: string }): Promise<StoredBlob>;
  get(db: Db, key: string): Promise<(StoredBlob & { bytes: Buffer }) | null>;
  open(db: Db, key: string): Promise<BlobStream | null>;
  /**
   * Streams content by its hash (a download whose row is already gone, its grace period restarted by
   * `touch`). Looked up with `db` (may be a transaction); Postgres-held bytes are read with `readWith`
   * (default `db`), which must outlive that transaction.
   */
  openContent(db: Db, content: StagedContent, readWith?: Db): Promise<ReadableStream<Uint8Array> | null>;
  exists(db: Db, key: string): Promise<boolean>;
  /** The row without its bytes, or null. */
  stat(db: Db, key: string): Promise<StoredBlob | null>;
  /** Deletes rows; their bytes go with the next sweep once nothing refers to them. */
  delete(db: Db, keys: string[]): Promise<void>;
  /** Restarts a content's grace period (a download still streaming it after its row is gone). */
  touch(db: Db, sha256: string): Promise<void>;
  /** Removes content no row refers to and untouched for `graceMs` (at most `limit`); returns how many. */
  sweep(db: Db, options?: { graceMs?: number; limit?: number; now?: Date }): Promise<number>;
}

const rowColumns = { id: blobs.id, key: blobs.key, contentType: blobs.contentType, byteSize: blobs.byteSize, sha256: blobs.sha256 };

export function createBlobStore(s3: S3Settings | null): BlobStore {
  // The AWS SDK (~25 MB) loads on first use, so a Postgres deployment never carries it.
  let objectStorage: Promise<ObjectStorage> | undefined;
  const useS3 = Boolean(s3);
  const needObjects = (): Promise<ObjectStorage> => {
    if (!s3) throw new Error("This blob's bytes are in object storage, but S3_BUCKET is not set");
    objectStorage ??= import("./s3-objects").then((m) => m.createObjectStorage(s3));
    return objectStorage;
  };

  const locate = async (db: Db, key: string) => {
    const [row] = await db
      .select({ ...rowColumns, inline: sql<boolean>`${blobContents.data} is not null` })
      .from(blobs)
      .innerJoin(blobContents, eq(blobContents.sha256, blobs.sha256))
      .where(eq(blobs.key, key));
    return row ?? null;
  };

  const store: BlobStore = {
    backend: useS3 ? "s3" : "postgres",

    async stage(db, bytes) {
      // Inside a transaction, a rollback would take the content row with it and leave an object the sweeper never finds.
      if (useS3 && db instanceof PgTransaction) throw new Error("Stage blob bytes outside a transaction: S3 objects cannot roll back");
      const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      const sha256 = createHash("sha256").update(data).digest("hex");
      // The content row commits first (touched now, so no sweep takes it during the grace period); a
      // sweep deleting it at this moment holds its row lock, so this waits and then inserts anew.
      const [row] = await db
        .insert(blobContents)
        .values({ sha256, byteSize: data.byteLength, data: useS3 ? null : data })
        .onConflictDoUpdate({
          target: blobContents.sha256,
          // Bytes already in Postgres stay there; an S3 deployment that moved back to Postgres fills them in.
          set: { touchedAt: sql`now()`, data: sql`coalesce(${blobContents.data}, excluded.data)` },
        })
        .returning({ inline: sql<boolean>`${blobContents.data} is not null` });
      // Always written, even when the row existed: an earlier sweep may have deleted the object and then failed to commit.
      if (!row.inline) await (await needObjects()).put(sha256, data);
      return { sha256, byteSize: data.byteLength };
    },

    async commit(tx, input) {
      const [row] = await tx
        .insert(blobs)
        .values({ key: input.key, contentType: input.contentType, byteSize: input.content.byteSize, sha256: input.content.sha256 })
        .returning(rowColumns);
      return row;
    },

    async put(db, input) {
      return store.commit(db, { key: input.key, content: await store.stage(db, input.bytes), contentType: input.contentType });
    },

    async get(db, key) {
      const row = await locate(db, key);
      if (!row) return null;
      const { inline, ...meta } = row;
      let bytes: Buffer | null;
      if (inline) {
        const [content] = await db.select({ data: blobContents.data }).from(blobContents).where(eq(blobContents.sha256, meta.sha256));
        bytes = content?.data ? toBuffer(content.data) : null;
      } else {
        bytes = await (await needObjects()).read(meta.sha256);
      }
      return bytes ? { ...meta, bytes } : null;
    },

    async open(db, key) {
      const row = await locate(db, key);
      if (!row) return null;
      const { inline, ...meta } = row;
      const stream = inline ? postgresStream(db, meta.sha256, meta.byteSize) : await (await needObjects()).stream(meta.sha256);
      return stream ? { ...meta, stream } : null;
    },

    async openContent(db, content, readWith = db) {
      const [row] = await db
        .select({ inline: sql<boolean>`${blobContents.data} is not null` })
        .from(blobContents)
        .where(eq(blobContents.sha256, content.sha256));
      if (!row) return null;
      return row.inline ? postgresStream(readWith, content.sha256, content.byteSize) : (await needObjects()).stream(content.sha256);
    },

    async exists(db, key) {
      return (await locate(db, key)) !== null;
    },

    async stat(db, key) {
      const [row] = await db.select(rowColumns).from(blobs).where(eq(blobs.key, key));
      return row ?? null;
    },

    async delete(db, keys) {
      if (keys.length) await db.delete(blobs).where(inArray(blobs.key, keys));
    },

    async touch(db, sha256) {
      await db
        .update(blobContents)
        .set({ touchedAt: sql`now()` })
        .where(eq(blobContents.sha256, sha256));
    },

    async sweep(db, options = {}) {
      const cutoff = new Date((options.now ?? new Date()).getTime() - (options.graceMs ?? SWEEP_GRACE_MS));
      return db.transaction(async (tx) => {
        // SKIP LOCKED passes over content a writer is staging (row lock) or a row is being committed
        // against (the foreign key's share lock); the deletes to S3 happen before this commits, so a
        // writer staging the same bytes waits for them and then writes the object again.
        const candidates = tx
          .select({ sha256: blobContents.sha256 })
          .from(blobContents)
          .where(
            and(
              lt(blobContents.touchedAt, cutoff),
              sql`not exists (select 1 from ${blobs} where ${blobs.sha256} = ${blobContents.sha256})`,
              // Without S3 settings, objects cannot be deleted: their rows wait for a deployment that has them.
              useS3 ? undefined : isNotNull(blobContents.data),
            ),
          )
          .limit(options.limit ?? 500)
          .for("update", { skipLocked: true });
        const removed = await tx
          .delete(blobContents)
          .where(inArray(blobContents.sha256, candidates))
          .returning({ sha256: blobContents.sha256, inline: sql<boolean>`${blobContents.data} is not null` });
        const external = removed.filter((row) => !row.inline).map((row) => row.sha256);
        if (external.length) await (await needObjects()).delete(external);
        return removed.length;
      });
    },
  };
  return store;
}

/** Reads Postgres-held bytes in slices as the consumer pulls them (backpressure: one slice ahead at most). */
function postgresStream(db: Db, sha256: string, byteSize: number): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (offset >= byteSize) return controller.close();
        const [row] = await db
          .select({ chunk: sql<Uint8Array>`substring(${blobContents.data} from ${offset + 1} for ${POSTGRES_READ_CHUNK_BYTES})` })
          .from(blobContents)
          .where(eq(blobContents.sha256, sha256));
        const chunk = row?.chunk ? toBuffer(row.chunk) : null;
        if (!chunk || chunk.byteLength === 0)
          return controller.error(new Error(`Blob content ${sha256} ended at ${offset} of ${byteSize} bytes`));
        offset += chunk.byteLength;
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if (offset >= byteSize) controller.close();
      },
    },
    { highWaterMark: 1 },
  );
}

/** postgres.js gives a Buffer, PGlite a Uint8Array; a bytea in text form ("\x…") is decoded too. */
function toBuffer(value: Uint8Array | string): Buffer {
  if (typeof value === "string") return Buffer.from(value.replace(/^\\x/, ""), "hex");
  return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
}

/** The deployment's store: S3 when S3_BUCKET is set, else Postgres. */
let defaultStore: BlobStore | undefined;
export function blobStore(): BlobStore {
  defaultStore ??= createBlobStore(getEnv().s3);
  return defaultStore;
}

// The functions the rest of the server calls, on the deployment's store.
export const stageBlob = (db: Db, bytes: Uint8Array) => blobStore().stage(db, bytes);
export const commitBlob = (tx: Db, input: { key: string; content: StagedContent; contentType: string }) => blobStore().commit(tx, input);
export const putBlob = (db: Db, input: { key: string; bytes: Uint8Array; contentType: string }) => blobStore().put(db, input);
export const getBlob = (db: Db, key: string) => blobStore().get(db, key);
export const openBlob = (db: Db, key: string) => blobStore().open(db, key);
export const openBlobContent = (db: Db, content: StagedContent, readWith?: Db) => blobStore().openContent(db, content, readWith);
export const statBlob = (db: Db, key: string) => blobStore().stat(db, key);
export const blobExists = (db: Db, key: string) => blobStore().exists(db, key);
export const deleteBlobs = (db: Db, keys: string[]) => blobStore().delete(db, keys);
export const touchBlobContent = (db: Db, sha256: string) => blobStore().touch(db, sha256);
export const sweepBlobContents = (db: Db, options?: { graceMs?: number; limit?: number; now?: Date }) => blobStore().sweep(db, options);
