import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAthlete } from "../athletes/athletes";
import type { DbHandle } from "../db/client";
import { trainings } from "../db/schema";
import { openTestDb } from "../../test/support/test-db";
import { vesselIdOf } from "../../test/support/trainings";
import { createTrainingFromUpload } from "../trainings/create-training";
import { createUser, type SessionUser } from "../users/users";
import { readWaiting, waitingCount } from "./waiting";

let handle: DbHandle;
let coach: SessionUser;
let paddler: SessionUser;
let stranger: SessionUser;
const ids = { coachQueued: 0, paddlerQueued: 0, flagged: 0 };

beforeAll(async () => {
  handle = await openTestDb();
  const account = (label: string) =>
    createUser(handle.db, { name: label, email: `${label}-${randomUUID()}@test.example`, password: "long enough password" });
  [coach, paddler, stranger] = await Promise.all([account("coach"), account("paddler"), account("stranger")]);
  const athleteId = (await createAthlete(handle.db, coach.id, { name: "Ana", subscriptionActiveUntil: "2099-01-01" })).id;
  const k1 = await vesselIdOf(handle.db, "K1");
  const upload = (user: SessionUser, title: string, athlete?: number) =>
    createTrainingFromUpload(handle.db, {
      user,
      createdVia: "web",
      vesselId: k1,
      title,
      athleteId: athlete,
      file: { filename: `${title}.svc`, bytes: Buffer.from(`${title} ${randomUUID()}`) },
    }).then((t) => t.id);
  ids.coachQueued = await upload(coach, "coach queued", athleteId);
  ids.flagged = await upload(coach, "flagged", athleteId);
  await handle.db.update(trainings).set({ status: "ready", needsReview: true }).where(eq(trainings.id, ids.flagged));
  ids.paddlerQueued = await upload(paddler, "paddler queued");
});
afterAll(async () => {
  await handle.close();
});

describe("readWaiting", () => {
  it("lists uploads still processing and trainings flagged for a look, each the person's to see", async () => {
    const waiting = await readWaiting(handle.db, coach.id);
    expect(waiting.processing.map((p) => [p.kind, p.id, p.label])).toEqual([["training", ids.coachQueued, "coach queued"]]);
    expect(waiting.flaggedTrainings.map((t) => t.id)).toEqual([ids.flagged]);
    expect(waitingCount(waiting)).toBe(2);
    const own = await readWaiting(handle.db, paddler.id);
    expect(own.processing.map((p) => p.id)).toEqual([ids.paddlerQueued]);
    expect(own.flaggedTrainings).toEqual([]);
    expect(waitingCount(await readWaiting(handle.db, stranger.id))).toBe(0);
  });
});
