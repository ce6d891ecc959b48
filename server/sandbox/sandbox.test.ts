import { randomUUID } from "node:crypto";
import { asc, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApplication, deleteApplication } from "../applications/applications";
import type { DbHandle } from "../db/client";
import { openTestDb, usePrivateDatabase } from "../../test/support/test-db";
import {
  blobs,
  devices,
  equipmentPaddles,
  equipmentVessels,
  resultDerived,
  results,
  trainingDerived,
  trainings,
  users,
  vessels,
  workoutTemplates,
} from "../db/schema";
import { AppError } from "../errors";
import { listRecordHistory } from "../records/performance-records";
import { sessionOfSubject } from "../access/access";
import { createUser } from "../users/users";
import { createSandbox, deleteSandbox, getSandbox, getSandboxPerson, resetSandbox } from "./sandbox";
import { uploadSimulatedSession, deleteNewestSession } from "./sandbox-actions";
import { generateSeason, planSeason } from "./season";

let handle: DbHandle;
// A database of its own: its work spans the whole database (test/support/test-db.ts usePrivateDatabase).
let dropPrivateDatabase: () => Promise<void> = async () => {};
beforeAll(async () => {
  dropPrivateDatabase = await usePrivateDatabase();
  handle = await openTestDb();
});
afterAll(async () => {
  await handle.close();
  await dropPrivateDatabase();
});

const newUser = () => createUser(handle.db, { name: "Dev", email: `dev-${randomUUID()}@test.example`, password: "correct horse battery" });
const newApp = async (ownerId: number) =>
  (
    await createApplication(handle.db, ownerId, {
      name: "Sandbox client",
      surface: "data",
      clientType: "confidential",
      redirectUris: ["https://client.example/cb"],
      embedOrigins: [],
      scopes: ["openid", "profile", "sessions:read", "trainings:read"],
    })
  ).application;

/**
 * Everything a person's season shows, without database ids: the sessions'
 * figures, the trainings' sets, the records, devices, equipment and
 * templates. Two seasons with the same inputs must give the same value.
 */
async function figuresOf(userId: number) {
  const db = handle.db;
  const sessions = await db
    .select({
      startAt: results.startAt,
      date: results.date,
      vessel: vessels.type,
      target: results.targetDistanceM,
      targetMs: results.targetDurationMs,
      distanceM: results.distanceM,
      durationMs: results.durationMs,
      derived: resultDerived,
      serial: devices.serial,
      withBoat: sql<boolean>`${results.equipmentVesselId} is not null`,
      withPaddle: sql<boolean>`${results.equipmentPaddleId} is not null`,
      description: results.description,
    })
    .from(results)
    .innerJoin(vessels, eq(vessels.id, results.vesselId))
    .innerJoin(resultDerived, eq(resultDerived.resultId, results.id))
    .innerJoin(devices, eq(devices.id, results.deviceId))
    .where(eq(results.ownerUserId, userId))
    .orderBy(asc(results.startAt));
  const trainingRows = await db
    .select({ title: trainings.title, status: trainings.status, derived: trainingDerived })
    .from(trainings)
    .leftJoin(trainingDerived, eq(trainingDerived.trainingId, trainings.id))
    .where(eq(trainings.ownerUserId, userId))
    .orderBy(asc(trainings.originalFilename));
  const records = (await listRecordHistory(db, sessionOfSubject(userId))).map(({ vesselType, distanceM, durationMs, date, current }) => ({
    vesselType,
    distanceM,
    durationMs,
    date,
    current,
  }));
  const units = await db
    .select({ serial: devices.serial, model: devices.hardwareModel })
    .from(devices)
    .where(eq(devices.ownerUserId, userId))
    .orderBy(asc(devices.serial));
  const boats = await db.select({ name: equipmentVessels.name }).from(equipmentVessels).where(eq(equipmentVessels.ownerUserId, userId));
  const paddles = await db
    .select({ name: equipmentPaddles.name })
    .from(equipmentPaddles)
    .where(eq(equipmentPaddles.ownerUserId, userId))
    .orderBy(asc(equipmentPaddles.name));
  const templates = await db
    .select({ name: workoutTemplates.name, template: workoutTemplates.template })
    .from(workoutTemplates)
    .where(eq(workoutTemplates.ownerUserId, userId))
    .orderBy(asc(workoutTemplates.name));
  const strip = <T extends Record<string, unknown>>(row: T | null) =>
    row
      ? Object.fromEntries(
          Object.entries(row).filter(([k]) => !/^(id|resultId|trainingId|createdAt|updatedAt|computedAt|processedAt)$/.test(k)),
        )
      : null;
  return {
    sessions: sessions.map((s) => ({ ...s, derived: strip(s.derived as unknown as Record<string, unknown>) })),
    trainings: trainingRows.map((t) => ({ ...t, derived: strip(t.derived as unknown as Record<string, unknown> | null) })),
    records,
    units,
    boats,
    paddles,
    templates,
  };
}

describe("season generator", () => {
  it("plans sessions across boat classes with one training a week, dated from the start date", () => {
    const plan = planSeason({ seed: 7, weeks: 2, sessionsPerWeek: 4 });
    expect(plan.sessions).toHaveLength(8);
    expect(plan.trainings).toHaveLength(2);
    expect(new Set(plan.sessions.map((s) => s.sim.vessel))).toEqual(new Set(["K1", "K2", "C1", "K4", "C2"]));
    expect(new Date(plan.sessions[0].startUnixMs).toISOString()).toBe("2026-03-02T07:00:00.000Z");
    expect(() => planSeason({ seed: 7, weeks: 0, sessionsPerWeek: 3 })).toThrow(RangeError);
  });

  it("gives identical figures for the same seed, and different ones for another seed", async () => {
    const [a, b, c] = [await newUser(), await newUser(), await newUser()];
    const options = { seed: 11, weeks: 1, sessionsPerWeek: 3 };
    await generateSeason(handle.db, a, options);
    await generateSeason(handle.db, b, options);
    await generateSeason(handle.db, c, { ...options, seed: 12 });
    const [fa, fb, fc] = [await figuresOf(a.id), await figuresOf(b.id), await figuresOf(c.id)];
    expect(fa.sessions).toHaveLength(3);
    expect(fa.trainings).toHaveLength(1);
    expect(fa.trainings[0].status).toBe("ready");
    expect(fa.records.length).toBeGreaterThan(0);
    expect(fa.units.map((u) => u.serial)).toEqual(["SBX11C", "SBX11K"]);
    expect(fa.templates).toHaveLength(2);
    expect(fb).toEqual(fa);
    expect(fc.sessions.map((s) => s.durationMs)).not.toEqual(fa.sessions.map((s) => s.durationMs));
  }, 120_000);
});

describe("sandbox", () => {
  it("makes a sandbox person for the owner's application, once, and refuses anyone else", async () => {
    const owner = await newUser();
    const app = await newApp(owner.id);
    const started = performance.now();
    const sandbox = await createSandbox(handle.db, owner, app.id, { weeks: 1, sessionsPerWeek: 3 });
    console.info(`sandbox of 1 week × 3 sessions + 1 training made in ${Math.round(performance.now() - started)} ms`);
    expect(sandbox.counts).toEqual({ sessions: 3, trainings: 1, devices: 2, templates: 2 });
    const [person] = await handle.db.select({ kind: users.accountKind }).from(users).where(eq(users.id, sandbox.userId));
    expect(person.kind).toBe("sandbox");
    await expect(createSandbox(handle.db, owner, app.id, { weeks: 1 })).rejects.toMatchObject({ code: "conflict" });
    const stranger = await newUser();
    await expect(getSandbox(handle.db, stranger.id, app.id)).rejects.toBeInstanceOf(AppError);
    await expect(resetSandbox(handle.db, stranger.id, app.id)).rejects.toMatchObject({ code: "not_found" });
    // The sandbox person cannot make sandboxes of its own.
    const { person: sandboxPerson } = await getSandboxPerson(handle.db, owner.id, app.id);
    const itsApp = await newApp(sandboxPerson.id);
    await expect(createSandbox(handle.db, sandboxPerson, itsApp.id)).rejects.toMatchObject({ code: "forbidden" });
  }, 120_000);

  it("resets to the initial season after changes, keeping the same person", async () => {
    const owner = await newUser();
    const app = await newApp(owner.id);
    const sandbox = await createSandbox(handle.db, owner, app.id, { weeks: 1, sessionsPerWeek: 2 });
    const initial = await figuresOf(sandbox.userId);
    await uploadSimulatedSession(handle.db, owner.id, app.id);
    await deleteNewestSession(handle.db, owner.id, app.id);
    await deleteNewestSession(handle.db, owner.id, app.id);
    expect(await figuresOf(sandbox.userId)).not.toEqual(initial);
    const blobKeysOf = async (userId: number) =>
      [
        ...(await handle.db
          .select({ key: blobs.key })
          .from(blobs)
          .innerJoin(results, sql`${blobs.key} like 'results/' || ${results.id} || '/%'`)
          .where(eq(results.ownerUserId, userId))),
        ...(await handle.db
          .select({ key: blobs.key })
          .from(blobs)
          .innerJoin(trainings, sql`${blobs.key} like 'trainings/' || ${trainings.id} || '/%'`)
          .where(eq(trainings.ownerUserId, userId))),
      ].map((b) => b.key);
    const keysBefore = await blobKeysOf(sandbox.userId);
    const started = performance.now();
    const reset = await resetSandbox(handle.db, owner.id, app.id);
    console.info(`reset of 1 week × 2 sessions + 1 training in ${Math.round(performance.now() - started)} ms`);
    expect(reset.userId).toBe(sandbox.userId);
    expect(reset.resetAt).not.toBeNull();
    expect(await figuresOf(sandbox.userId)).toEqual(initial);
    // The old files' blob rows went with them; the new season has one original per session and training.
    expect(await handle.db.select().from(blobs).where(inArray(blobs.key, keysBefore))).toEqual([]);
    expect(await blobKeysOf(sandbox.userId)).toHaveLength(3);
  }, 120_000);

  it("goes with its application: the person and its files are deleted", async () => {
    const owner = await newUser();
    const app = await newApp(owner.id);
    const sandbox = await createSandbox(handle.db, owner, app.id, { weeks: 1, sessionsPerWeek: 1 });
    const keys = await handle.db
      .select({ key: blobs.key })
      .from(blobs)
      .innerJoin(results, sql`${blobs.key} like 'results/' || ${results.id} || '/%'`)
      .where(eq(results.ownerUserId, sandbox.userId));
    expect(keys.length).toBe(1);
    await deleteApplication(handle.db, owner.id, app.id);
    expect(await handle.db.select().from(users).where(eq(users.id, sandbox.userId))).toEqual([]);
    expect(await handle.db.select().from(blobs).where(eq(blobs.key, keys[0].key))).toEqual([]);
    const other = await newApp(owner.id);
    await createSandbox(handle.db, owner, other.id, { weeks: 1, sessionsPerWeek: 1 });
    await deleteSandbox(handle.db, owner.id, other.id);
    expect(await getSandbox(handle.db, owner.id, other.id)).toBeNull();
  }, 120_000);
});
