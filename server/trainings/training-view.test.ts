import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAthlete } from "../athletes/athletes";
import type { DbHandle } from "../db/client";
import { athletes } from "../db/schema";
import { openTestDb } from "../../test/support/test-db";
import { loadKeyring } from "../svc/keyring";
import { createUser, type SessionUser } from "../users/users";
import { createTrainingFromUpload } from "./create-training";
import { createProcessedTraining, vesselIdOf } from "../../test/support/trainings";
import { listTrainings, loadTrainingView } from "./training-view";

const keyring = loadKeyring({});
let handle: DbHandle;
let coach: SessionUser;
let stranger: SessionUser;
let paddlerUser: SessionUser;
let athleteId: number;
let readyId: number;
const queuedIds: number[] = [];

beforeAll(async () => {
  handle = await openTestDb();
  const account = (label: string) =>
    createUser(handle.db, { name: label, email: `${label}-${randomUUID()}@test.example`, password: "long enough password" });
  coach = await account("coach");
  stranger = await account("stranger");
  paddlerUser = await account("paddler");
  athleteId = (await createAthlete(handle.db, coach.id, { name: "Ana", subscriptionActiveUntil: "2099-01-01" })).id;
  await handle.db.update(athletes).set({ userId: paddlerUser.id }).where(eq(athletes.id, athleteId));
  const k1 = await vesselIdOf(handle.db, "K1");
  readyId = (await createProcessedTraining(handle.db, coach, { spec: "3x200m/45s", seed: 21, athleteId, title: "Ana's threes", keyring }))
    .id;
  for (let k = 0; k < 5; k++) {
    queuedIds.push(
      (
        await createTrainingFromUpload(handle.db, {
          user: coach,
          createdVia: "web",
          vesselId: k1,
          title: `queued ${k}`,
          file: { filename: `q${k}.svc`, bytes: Buffer.from(`queued file ${k} ${randomUUID()}`) },
        })
      ).id,
    );
  }
});
afterAll(async () => {
  await handle.close();
});

describe("listTrainings", () => {
  it("pages newest first with a keyset cursor, never skipping or repeating a training", async () => {
    const seen: number[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 10; page++) {
      const { items, nextCursor } = await listTrainings(handle.db, coach.id, cursor, 2);
      expect(items.length).toBeLessThanOrEqual(2);
      seen.push(...items.map((i) => i.id));
      if (!nextCursor) break;
      cursor = nextCursor;
    }
    // Queued ones sort by upload time (newest first); the processed one by its recording time.
    expect(seen.filter((id) => queuedIds.includes(id))).toEqual([...queuedIds].reverse());
    expect([...seen].sort((a, b) => a - b)).toEqual([readyId, ...queuedIds].sort((a, b) => a - b));
    const first = await listTrainings(handle.db, coach.id);
    expect(first.items.find((i) => i.id === readyId)).toMatchObject({
      status: "ready",
      workSetCount: 3,
      title: "Ana's threes",
      vesselType: "K1",
    });
    expect(first.items.find((i) => i.id === queuedIds[0])).toMatchObject({ status: "queued", workSetCount: null, date: null });
  });

  it("ignores an unreadable cursor and starts at the top", async () => {
    for (const bad of [
      "x",
      "!!!",
      Buffer.from("nope|1").toString("base64url"),
      Buffer.from("1|99999999999").toString("base64url"),
      "a".repeat(500),
    ]) {
      const { items } = await listTrainings(handle.db, coach.id, bad, 2);
      expect(items.length).toBe(2);
    }
  });

  it("shows the named athlete's account their trainings, and a stranger none", async () => {
    expect((await listTrainings(handle.db, paddlerUser.id)).items.map((i) => i.id)).toEqual([readyId]);
    expect((await listTrainings(handle.db, stranger.id)).items).toEqual([]);
  });
});

describe("loadTrainingView", () => {
  it("gives the sets in order with work numbers, summaries and one chart point per stroke", async () => {
    const view = await loadTrainingView(handle.db, coach.id, readyId);
    expect(view).toMatchObject({ status: "ready", workSetCount: 3, athleteName: "Ana", templateName: null });
    expect(view.sets.map((s) => [s.kind, s.workNumber])).toEqual([
      ["work", 1],
      ["rest", null],
      ["work", 2],
      ["rest", null],
      ["work", 3],
    ]);
    for (const s of view.sets.filter((x) => x.kind === "work")) {
      expect(s.points.length).toBe(s.strokeCount);
      expect(s.summary?.avg_speed).toBeGreaterThan(2);
      expect(s.points[0].distance).toBeLessThan(15);
    }
    expect((await loadTrainingView(handle.db, paddlerUser.id, readyId)).id).toBe(readyId);
  });

  it("answers a stranger's and a missing training alike: not_found", async () => {
    await expect(loadTrainingView(handle.db, stranger.id, readyId)).rejects.toMatchObject({ code: "not_found" });
    await expect(loadTrainingView(handle.db, coach.id, 2_147_483_647)).rejects.toMatchObject({ code: "not_found" });
  });

  it("a queued training has no sets yet", async () => {
    const view = await loadTrainingView(handle.db, coach.id, queuedIds[0]);
    expect(view).toMatchObject({ status: "queued", sets: [], summary: null, processingCoreVersion: null });
  });
});
