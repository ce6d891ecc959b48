import { randomBytes, createHash } from "node:crypto";
import { HeadObjectCommand, type S3Client } from "@aws-sdk/client-s3";
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db, DbHandle } from "../db/client";
import { blobContents, blobs } from "../db/schema";
import { openTestDb } from "../../test/support/test-db";
import { createBlobStore, POSTGRES_READ_CHUNK_BYTES, type BlobStore } from "./blob-store";
import { startLocalS3 } from "./local-s3";
import { objectKey, s3Client } from "./s3-objects";

/**
 * One contract, two backends: the Postgres store (the embedded default) and
 * the S3 store against a local S3 server (s3rver) started here on a random
 * port. Both keep their rows in the same test database.
 */
let handle: DbHandle;
let db: Db;
let localS3: Awaited<ReturnType<typeof startLocalS3>>;
let client: S3Client;
const stores: Record<"postgres" | "s3", BlobStore> = {} as never;

beforeAll(async () => {
  handle = await openTestDb();
  db = handle.db;
  localS3 = await startLocalS3();
  client = s3Client(localS3.settings);
  stores.postgres = createBlobStore(null);
  stores.s3 = createBlobStore(localS3.settings);
});
afterAll(async () => {
  client?.destroy();
  await localS3?.stop();
  await handle?.close();
});

const sha = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
const newKey = (prefix: string) => `test/${prefix}/${randomBytes(6).toString("hex")}`;
/** An age far beyond any real grace period, so a sweep with `graceMs: TEN_YEARS` takes only the content a test aged itself. */
const TEN_YEARS = 10 * 365 * 24 * 3600_000;
const age = (sha256s: string[]) =>
  db
    .update(blobContents)
    .set({ touchedAt: new Date("2001-01-01T00:00:00Z") })
    .where(inArray(blobContents.sha256, sha256s));
const contentRow = async (sha256: string) =>
  (
    await db
      .select({ sha256: blobContents.sha256, inline: blobContents.byteSize })
      .from(blobContents)
      .where(eq(blobContents.sha256, sha256))
  )[0] ?? null;
async function objectExists(sha256: string): Promise<boolean> {
  try {
    await client.send(new HeadObjectCommand({ Bucket: localS3.settings.bucket, Key: objectKey(sha256) }));
    return true;
  } catch {
    return false;
  }
}
async function readStream(stream: ReadableStream<Uint8Array>): Promise<{ bytes: Buffer; chunks: number }> {
  const parts: Buffer[] = [];
  for await (const part of stream as unknown as AsyncIterable<Uint8Array>) parts.push(Buffer.from(part));
  return { bytes: Buffer.concat(parts), chunks: parts.length };
}

describe.each(["postgres", "s3"] as const)("blob store: %s", (backend) => {
  const store = () => stores[backend];
  /** Where the bytes are, seen from outside the store: the Postgres column, or the S3 object. */
  const bytesStored = async (sha256: string) => {
    const [row] = await db.select({ inline: blobContents.data }).from(blobContents).where(eq(blobContents.sha256, sha256));
    return backend === "postgres" ? Boolean(row?.inline) : (await objectExists(sha256)) && row?.inline === null;
  };

  it("puts, gets, streams, checks and deletes, bytes unchanged", async () => {
    const bytes = randomBytes(POSTGRES_READ_CHUNK_BYTES * 2 + 70_000);
    const key = newKey(backend);
    const stored = await store().put(db, { key, bytes, contentType: "application/octet-stream" });
    expect(stored).toMatchObject({ key, byteSize: bytes.byteLength, sha256: sha(bytes), contentType: "application/octet-stream" });
    expect(await bytesStored(stored.sha256)).toBe(true);
    expect(await store().exists(db, key)).toBe(true);
    expect(await store().stat(db, key)).toEqual(stored);

    const read = await store().get(db, key);
    expect(Buffer.compare(read!.bytes, bytes)).toBe(0);
    const opened = await store().open(db, key);
    expect(opened).toMatchObject({ byteSize: bytes.byteLength, sha256: sha(bytes) });
    const streamed = await readStream(opened!.stream);
    expect(Buffer.compare(streamed.bytes, bytes)).toBe(0);
    // Postgres answers in slices, never the whole bytea at once.
    if (backend === "postgres") expect(streamed.chunks).toBe(3);

    // A key is unique: a second put under it fails.
    await expect(store().put(db, { key, bytes: randomBytes(10), contentType: "x" })).rejects.toThrow();
    await store().delete(db, [key]);
    expect(await store().exists(db, key)).toBe(false);
    expect(await store().get(db, key)).toBeNull();
    expect(await store().open(db, key)).toBeNull();
  });

  it("stores equal bytes once (content-addressed) and keeps them while a row names them", async () => {
    const bytes = randomBytes(5000);
    const [a, b] = [newKey(backend), newKey(backend)];
    await store().put(db, { key: a, bytes, contentType: "application/json" });
    await store().put(db, { key: b, bytes, contentType: "application/gzip" });
    expect(
      await db
        .select()
        .from(blobContents)
        .where(eq(blobContents.sha256, sha(bytes))),
    ).toHaveLength(1);
    expect(
      (
        await db
          .select({ key: blobs.key })
          .from(blobs)
          .where(eq(blobs.sha256, sha(bytes)))
      )
        .map((r) => r.key)
        .sort(),
    ).toEqual([a, b].sort());
    await store().delete(db, [a]);
    await age([sha(bytes)]);
    await store().sweep(db, { graceMs: TEN_YEARS });
    // b still names the content: nothing swept.
    expect(await bytesStored(sha(bytes))).toBe(true);
    expect(Buffer.compare((await store().get(db, b))!.bytes, bytes)).toBe(0);
    await store().delete(db, [b]);
  });

  it("sweeps content no row names once its grace period is over, never referenced or fresh content", async () => {
    const orphan = randomBytes(3000);
    const fresh = randomBytes(3000);
    const kept = randomBytes(3000);
    await store().stage(db, orphan);
    await store().stage(db, fresh);
    const keptKey = newKey(backend);
    await store().put(db, { key: keptKey, bytes: kept, contentType: "text/plain" });
    await age([sha(orphan), sha(kept)]);

    const swept = await store().sweep(db, { graceMs: TEN_YEARS });
    expect(swept).toBeGreaterThanOrEqual(1);
    expect(await contentRow(sha(orphan))).toBeNull();
    if (backend === "s3") expect(await objectExists(sha(orphan))).toBe(false);
    expect(await bytesStored(sha(fresh))).toBe(true);
    expect(await bytesStored(sha(kept))).toBe(true);
    expect(Buffer.compare((await store().get(db, keptKey))!.bytes, kept)).toBe(0);

    // The default grace period (an hour) protects content staged a moment ago.
    await store().sweep(db);
    expect(await bytesStored(sha(fresh))).toBe(true);
    await store().delete(db, [keptKey]);
  });

  it("a failed transaction leaves only unreferenced content, which the sweeper removes", async () => {
    const bytes = randomBytes(4000);
    const key = newKey(backend);
    const content = await store().stage(db, bytes);
    await expect(
      db.transaction(async (tx) => {
        await store().commit(tx as unknown as Db, { key, content, contentType: "application/octet-stream" });
        throw new Error("the rest of the upload failed");
      }),
    ).rejects.toThrow("the rest of the upload failed");
    expect(await store().exists(db, key)).toBe(false);
    expect(await bytesStored(content.sha256)).toBe(true);

    await age([content.sha256]);
    await store().sweep(db, { graceMs: TEN_YEARS });
    expect(await contentRow(content.sha256)).toBeNull();
    expect(await bytesStored(content.sha256)).toBe(false);

    // Staging the same bytes again after the sweep writes them anew.
    const again = await store().put(db, { key, bytes, contentType: "application/octet-stream" });
    expect(Buffer.compare((await store().get(db, again.key))!.bytes, bytes)).toBe(0);
    await store().delete(db, [key]);
  });

  it("a row cannot name content that was swept (the foreign key refuses it)", async () => {
    const bytes = randomBytes(100);
    const content = await store().stage(db, bytes);
    await age([content.sha256]);
    await store().sweep(db, { graceMs: TEN_YEARS });
    await expect(store().commit(db, { key: newKey(backend), content, contentType: "x" })).rejects.toThrow();
  });

  it("restarts a content's grace period on touch (a download streaming it after its row is gone)", async () => {
    const bytes = randomBytes(2000);
    const key = newKey(backend);
    const stored = await store().put(db, { key, bytes, contentType: "x" });
    await age([stored.sha256]);
    const opened = await store().openContent(db, stored);
    await store().touch(db, stored.sha256);
    await store().delete(db, [key]);
    await store().sweep(db, { graceMs: 60_000 });
    expect(Buffer.compare((await readStream(opened!)).bytes, bytes)).toBe(0);
    expect(await bytesStored(stored.sha256)).toBe(true);
  });
});

describe("blob store: a deployment that moved between backends", () => {
  it("reads bytes where they are: Postgres-held content through the S3 store", async () => {
    const bytes = randomBytes(1000);
    const key = newKey("moved");
    await stores.postgres.put(db, { key, bytes, contentType: "x" });
    expect(Buffer.compare((await stores.s3.get(db, key))!.bytes, bytes)).toBe(0);
    expect(await objectExists(sha(bytes))).toBe(false);
    await stores.s3.delete(db, [key]);
  });

  it("the S3 store refuses to stage inside a transaction (a rollback would orphan an object no sweep finds)", async () => {
    await expect(db.transaction(async (tx) => stores.s3.stage(tx as unknown as Db, randomBytes(10)))).rejects.toThrow(
      /outside a transaction/,
    );
  });

  it("S3-held content without S3 settings is a clear error, and the Postgres sweeper leaves it alone", async () => {
    const bytes = randomBytes(1000);
    const key = newKey("moved");
    await stores.s3.put(db, { key, bytes, contentType: "x" });
    await expect(stores.postgres.get(db, key)).rejects.toThrow(/S3_BUCKET is not set/);
    await stores.postgres.delete(db, [key]);
    await age([sha(bytes)]);
    await stores.postgres.sweep(db, { graceMs: TEN_YEARS });
    expect(await contentRow(sha(bytes))).not.toBeNull();
    await stores.s3.sweep(db, { graceMs: TEN_YEARS });
    expect(await contentRow(sha(bytes))).toBeNull();
    expect(await objectExists(sha(bytes))).toBe(false);
  });
});

describe("blob store: the hourly housekeeping", () => {
  it("sweeps the deployment's store: content past its grace period that no row names", async () => {
    const { sweepExpiredState } = await import("../jobs/housekeeping");
    const { stageBlob } = await import("./blob-store");
    const orphan = await stageBlob(db, randomBytes(500));
    const fresh = await stageBlob(db, randomBytes(500));
    await age([orphan.sha256]);
    await sweepExpiredState(db);
    expect(await contentRow(orphan.sha256)).toBeNull();
    expect(await contentRow(fresh.sha256)).not.toBeNull();
  });
});
