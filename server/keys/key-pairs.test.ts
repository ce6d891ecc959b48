import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApplication } from "../applications/applications";
import type { DbHandle } from "../db/client";
import { keyPairs } from "../db/schema";
import { openTestDb } from "../../test/support/test-db";
import { createUser } from "../users/users";
import { bindKeyPairToApplication, createKeyPair, listKeyPairs, revokeKeyPair, verifyKeyPair } from "./key-pairs";

let handle: DbHandle;
beforeAll(async () => {
  handle = await openTestDb();
});
afterAll(async () => {
  await handle.close();
});

const newUser = () => createUser(handle.db, { name: "Owner", email: `kp-${randomUUID()}@test.example`, password: "correct horse battery" });
const newApp = async (ownerId: number, surface: "data" | "session" = "session") =>
  (
    await createApplication(handle.db, ownerId, {
      name: `Uploader ${surface}`,
      surface,
      clientType: "confidential",
      redirectUris: ["https://uploader.example/cb"],
      embedOrigins: [],
      scopes: ["openid", "sessions:read"],
    })
  ).application;
const storedApplicationId = async (keyPairId: number) =>
  (await handle.db.select({ applicationId: keyPairs.applicationId }).from(keyPairs).where(eq(keyPairs.id, keyPairId)))[0].applicationId;

describe("binding a key pair to an application", () => {
  it("binds the owner's key to the owner's application, which every later upload through the key then carries, and unbinds it", async () => {
    const owner = await newUser();
    const app = await newApp(owner.id);
    const { keyPair, secretKey } = await createKeyPair(handle.db, owner.id, { name: "Boathouse laptop" });

    expect((await bindKeyPairToApplication(handle.db, owner.id, keyPair.id, app.id)).applicationId).toBe(app.id);
    expect((await listKeyPairs(handle.db, owner.id)).find((k) => k.id === keyPair.id)?.application).toEqual({
      id: app.id,
      name: app.name,
      surface: "session",
    });
    // The upload route takes the creating application from this verification.
    expect(await verifyKeyPair(handle.db, { publicKey: keyPair.publicKey, secretKey }, true)).toMatchObject({
      ok: true,
      applicationId: app.id,
    });

    await bindKeyPairToApplication(handle.db, owner.id, keyPair.id, null);
    expect((await listKeyPairs(handle.db, owner.id)).find((k) => k.id === keyPair.id)?.application).toBeNull();
    expect(await verifyKeyPair(handle.db, { publicKey: keyPair.publicKey, secretKey }, true)).toMatchObject({
      ok: true,
      applicationId: null,
    });
  });

  it("gives the same not-found for another user's key pair as for a missing one, and changes nothing", async () => {
    const owner = await newUser();
    const stranger = await newUser();
    const strangersApp = await newApp(stranger.id);
    const { keyPair } = await createKeyPair(handle.db, owner.id, { name: "Owner's key" });
    const foreign = await bindKeyPairToApplication(handle.db, stranger.id, keyPair.id, strangersApp.id).catch((e: unknown) => e);
    const missing = await bindKeyPairToApplication(handle.db, stranger.id, 2_000_000_000, strangersApp.id).catch((e: unknown) => e);
    expect(foreign).toMatchObject({ code: "not_found", message: "Key pair not found" });
    expect(missing).toMatchObject({ code: "not_found", message: "Key pair not found" });
    expect(await storedApplicationId(keyPair.id)).toBeNull();
  });

  it("refuses another user's application with the same not-found as a missing one, keeping the current binding", async () => {
    const owner = await newUser();
    const stranger = await newUser();
    const ownApp = await newApp(owner.id);
    const strangersApp = await newApp(stranger.id);
    const { keyPair } = await createKeyPair(handle.db, owner.id, { name: "Bound key" });
    await bindKeyPairToApplication(handle.db, owner.id, keyPair.id, ownApp.id);
    const foreign = await bindKeyPairToApplication(handle.db, owner.id, keyPair.id, strangersApp.id).catch((e: unknown) => e);
    const missing = await bindKeyPairToApplication(handle.db, owner.id, keyPair.id, 2_000_000_000).catch((e: unknown) => e);
    expect(foreign).toMatchObject({ code: "not_found", message: "Application not found" });
    expect(missing).toMatchObject({ code: "not_found", message: "Application not found" });
    expect(await storedApplicationId(keyPair.id)).toBe(ownApp.id);
  });

  it("does not rebind or unbind a revoked key pair (conflict)", async () => {
    const owner = await newUser();
    const first = await newApp(owner.id);
    const second = await newApp(owner.id, "data");
    const { keyPair } = await createKeyPair(handle.db, owner.id, { name: "Old key" });
    await bindKeyPairToApplication(handle.db, owner.id, keyPair.id, first.id);
    await revokeKeyPair(handle.db, owner.id, keyPair.id);
    await expect(bindKeyPairToApplication(handle.db, owner.id, keyPair.id, second.id)).rejects.toMatchObject({ code: "conflict" });
    await expect(bindKeyPairToApplication(handle.db, owner.id, keyPair.id, null)).rejects.toMatchObject({ code: "conflict" });
    expect(await storedApplicationId(keyPair.id)).toBe(first.id);
  });
});
