import { randomUUID } from "node:crypto";
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dataQuality } from "../analytics/data-quality";
import { loadAnalysisInputFor } from "../analytics/load-input";
import { createAthlete, getAccessibleAthlete, listAccessibleAthletes } from "../athletes/athletes";
import type { DbHandle } from "../db/client";
import { athletes, teamMemberships, teams, trainingSets } from "../db/schema";
import { openTestDb } from "../../test/support/test-db";
import { getStoredAnalysis } from "../results/result-analysis";
import { uploadResult } from "../results/upload-result";
import { encodeSvc } from "../svc/container";
import { loadKeyring } from "../svc/keyring";
import type { SessionSummary } from "../svc/process/types";
import { simulateSession } from "../svc/simulator/simulate";
import { createTrack } from "../tracks/tracks";
import { createProcessedTraining } from "../../test/support/trainings";
import { loadTrainingView } from "../trainings/training-view";
import { createUser, type SessionUser } from "../users/users";

/**
 * Health data in every view (docs/access.md): the training page's set
 * compare, the analysis page's heart-rate coverage and the athlete record's
 * weight, each for the person it belongs to and nobody else.
 */
const keyring = loadKeyring({});
let handle: DbHandle;
let coach: SessionUser;
let coCoach: SessionUser;
let ada: SessionUser;
let eli: SessionUser;
let adaAthlete: number;
let benAthlete: number;
let adaTraining: number;
let benTraining: number;
let coachPractice: number;
let k2: number;

/** Finds a substring around any mention of heart rate, so a failure shows where it is (and not a megabyte of JSON). */
const heartMention = (value: unknown) => JSON.stringify(value).match(/.{0,40}heart.{0,40}/i)?.[0];

beforeAll(async () => {
  handle = await openTestDb();
  const db = handle.db;
  const user = (label: string) =>
    createUser(db, { name: label, email: `hp-${label}-${randomUUID()}@test.example`, password: "long enough password" });
  [coach, coCoach, ada, eli] = await Promise.all([user("coach"), user("cocoach"), user("ada"), user("eli")]);
  adaAthlete = (await createAthlete(db, coach.id, { name: "Ada", weightKg: 57.9361, subscriptionActiveUntil: "2099-01-01" })).id;
  const eliAthlete = (await createAthlete(db, coach.id, { name: "Eli", subscriptionActiveUntil: "2099-01-01" })).id;
  benAthlete = (await createAthlete(db, coach.id, { name: "Ben", weightKg: 64.8253, subscriptionActiveUntil: "2099-01-01" })).id;
  await db.update(athletes).set({ userId: ada.id }).where(eq(athletes.id, adaAthlete));
  await db.update(athletes).set({ userId: eli.id }).where(eq(athletes.id, eliAthlete));
  // A second coach of the club's team sees every athlete, manages none.
  const [team] = await db.insert(teams).values({ name: "Health club", ownerUserId: coach.id }).returning({ id: teams.id });
  await db
    .insert(teamMemberships)
    .values([
      { teamId: team.id, role: "coach", userId: coach.id },
      { teamId: team.id, role: "coach", userId: coCoach.id },
      ...[adaAthlete, eliAthlete, benAthlete].map((athleteId) => ({ teamId: team.id, role: "athlete" as const, athleteId })),
    ]);
  adaTraining = (
    await createProcessedTraining(db, coach, { spec: "3x200m/45s", seed: 31, athleteId: adaAthlete, title: "Ada's threes", keyring })
  ).id;
  benTraining = (
    await createProcessedTraining(db, coach, { spec: "3x200m/45s", seed: 32, athleteId: benAthlete, title: "Ben's threes", keyring })
  ).id;
  coachPractice = (await createProcessedTraining(db, coach, { spec: "3x200m/45s", seed: 33, title: "Coach's own threes", keyring })).id;
  const trackId = (await createTrack(db, coach.id, { name: "Projection basin" })).id;
  const bytes = Buffer.from(encodeSvc(simulateSession({ vessel: "K2", distanceM: 200, seed: 4343 }).content, keyring));
  const metadata = JSON.stringify({
    distance: 200,
    vessel_id: 2,
    track_id: trackId,
    category_id: 1,
    pace_id: 1,
    athletes: [adaAthlete, eliAthlete],
  });
  k2 = (
    await uploadResult(db, { user: coach, createdVia: "web", keyPairId: null, file: { filename: "k2.svc", bytes }, metadata }, { keyring })
  ).id;
});
afterAll(async () => {
  await handle.close();
});

const storedWorkSummaries = async (trainingId: number) =>
  (
    await handle.db
      .select({ kind: trainingSets.kind, summary: trainingSets.summary })
      .from(trainingSets)
      .where(eq(trainingSets.trainingId, trainingId))
      .orderBy(asc(trainingSets.position))
  )
    .filter((s) => s.kind === "work")
    .map((s) => s.summary as SessionSummary);

describe("a training's heart rate on the training page (sets table and set compare)", () => {
  it("a coach who uploaded the training for an athlete with an account receives none of it", async () => {
    const stored = await storedWorkSummaries(adaTraining);
    expect(stored.every((s) => typeof s.avg_heart_rate === "number")).toBe(true);
    for (const viewer of [coach, coCoach]) {
      const view = await loadTrainingView(handle.db, viewer.id, adaTraining);
      expect(view.sets.filter((s) => s.kind === "work")).toHaveLength(3);
      expect(heartMention(view)).toBeUndefined();
    }
  });

  it("the athlete receives their own, set by set and for the whole training", async () => {
    const stored = await storedWorkSummaries(adaTraining);
    const view = await loadTrainingView(handle.db, ada.id, adaTraining);
    const work = view.sets.filter((s) => s.kind === "work");
    expect(work.map((s) => s.ownHeartRate?.avgBpm)).toEqual(stored.map((s) => s.avg_heart_rate));
    expect(work.map((s) => s.ownHeartRate?.maxBpm)).toEqual(stored.map((s) => s.max_heart_rate));
    expect(view.ownHeartRate?.avgBpm).toEqual(expect.any(Number));
    // Even for the owner, the figures every viewer shares carry no health field.
    expect(heartMention(work.map((s) => s.summary))).toBeUndefined();
  });

  it("a practice with no athlete named is the uploader's own; an athlete without an account's is nobody's", async () => {
    const own = await loadTrainingView(handle.db, coach.id, coachPractice);
    expect(own.sets.filter((s) => s.kind === "work").every((s) => typeof s.ownHeartRate?.avgBpm === "number")).toBe(true);
    expect(heartMention(await loadTrainingView(handle.db, coCoach.id, coachPractice).catch(() => null))).toBeUndefined();
    expect(heartMention(await loadTrainingView(handle.db, coach.id, benTraining))).toBeUndefined();
  });
});

describe("the analysis page's heart-rate coverage", () => {
  it("is the seat-1 paddler's only: the uploading coach and the seat-2 crew mate get null and no reading", async () => {
    const stored = (await getStoredAnalysis(handle.db, k2))!;
    expect(stored.dataQuality.heart_rate_coverage).toBeGreaterThan(0);
    for (const viewer of [coach, eli]) {
      const input = await loadAnalysisInputFor(handle.db, viewer.id, k2, stored);
      const outcome = dataQuality(input);
      expect(outcome.status === "ok" && outcome.result.heart_rate_coverage).toBeNull();
      expect(input.track.heart_rate.every((bpm) => bpm === null)).toBe(true);
    }
    const own = dataQuality(await loadAnalysisInputFor(handle.db, ada.id, k2, stored));
    expect(own.status === "ok" && own.result.heart_rate_coverage).toBe(stored.dataQuality.heart_rate_coverage);
  });
});

describe("an athlete record's typed weight", () => {
  it("reaches the managing account and the athlete's own account, never another coach of the team", async () => {
    const weightOf = async (viewer: SessionUser, athleteId: number) =>
      (await listAccessibleAthletes(handle.db, viewer.id)).find((a) => a.id === athleteId)?.weightKg;
    expect(await weightOf(coach, adaAthlete)).toBe(57.9361);
    expect(await weightOf(ada, adaAthlete)).toBe(57.9361);
    expect(await weightOf(coCoach, adaAthlete)).toBeNull();
    expect(await weightOf(coCoach, benAthlete)).toBeNull();
    expect((await getAccessibleAthlete(handle.db, coCoach.id, benAthlete)).weightKg).toBeNull();
    expect((await getAccessibleAthlete(handle.db, coach.id, benAthlete)).weightKg).toBe(64.8253);
  });
});
