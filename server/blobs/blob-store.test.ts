import { afterAll, beforeAll, expect, it } from "vitest";
import { randomBytes } from "node:crypto";
import type { DbHandle } from "../db/client";
import { openTestDb } from "../db/test-db";
import { deleteBlobs, getBlob, putBlob } from "./blob-store";

let handle: DbHandle;
beforeAll(async () => {
  handle = await openTestDb();
});
afterAll(async () => {
  await handle.close();
});

it("stores bytes unchanged, with their hash, and deletes them", async () => {
  const bytes = randomBytes(70_000);
  const key = `test/${randomBytes(6).toString("hex")}.svc`;
  const stored = await putBlob(handle.db, { key, bytes, contentType: "application/octet-stream" });
  expect(stored.byteSize).toBe(70_000);
  const read = await getBlob(handle.db, key);
  expect(Buffer.compare(read!.bytes, bytes)).toBe(0);
  expect(read!.sha256).toBe(stored.sha256);
  await expect(putBlob(handle.db, { key, bytes, contentType: "x" })).rejects.toThrow();
  await deleteBlobs(handle.db, [key]);
  expect(await getBlob(handle.db, key)).toBeNull();
});
