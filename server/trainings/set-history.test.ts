import { randomUUID } from "node:crypto";
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAthlete } from "../athletes/athletes";
import type { DbHandle } from "../db/client";
import { trainingSets } from "../db/schema";
import { openTestDb } from "../../test/support/test-db";
import { loadKeyring } from "../svc/keyring";
import { createUser, type SessionUser } from "../users/users";
import { createTemplate } from "../workouts/templates";
import { createProcessedTraining } from "../../test/support/trainings";
import { listTrainings } from "./training-view";
import { parseSetChoice, readSetChoices, readSetHistory, setChoiceKey } from "./set-history";

const keyring = loadKeyring({});
let handle: DbHandle;
let coach: SessionUser;
let otherCoach: SessionUser;
let templateId: number;
const ids = { ana: 0, bea: 0, cris: 0 };
const trainingIds = { ana1: 0, ana2: 0, bea: 0, untemplated: 0, cris: 0 };

const FOUR_250 = JSON.stringify({
  version: 1,
  name: "4 × 250 m / 60 s",
  boat_class: "K1",
  steps: [
    {
      repeat: 4,
      steps: [
        { kind: "work", distance_m: 250 },
        { kind: "rest", duration_s: 60 },
      ],
    },
  ],
});

beforeAll(async () => {
  handle = await openTestDb();
  const account = (label: string) =>
    createUser(handle.db, { name: label, email: `${label}-${randomUUID()}@test.example`, password: "long enough password" });
  coach = await account("coach");
  otherCoach = await account("other");
  const athlete = async (owner: SessionUser, name: string) =>
    (await createAthlete(handle.db, owner.id, { name, surname: "Test", subscriptionActiveUntil: "2099-01-01" })).id;
  ids.ana = await athlete(coach, "Ana");
  ids.bea = await athlete(coach, "Bea");
  ids.cris = await athlete(otherCoach, "Cris");
  templateId = (await createTemplate(handle.db, coach.id, { name: "4 × 250 m / 60 s", text: FOUR_250 })).id;
  const otherTemplate = (await createTemplate(handle.db, otherCoach.id, { name: "4 × 250 m / 60 s", text: FOUR_250 })).id;
  const train = (user: SessionUser, athleteId: number, seed: number, template: number | null) =>
    createProcessedTraining(handle.db, user, { spec: "4x250m/60s", seed, athleteId, templateId: template, keyring }).then((t) => t.id);
  [trainingIds.ana1, trainingIds.ana2, trainingIds.bea, trainingIds.untemplated, trainingIds.cris] = await Promise.all([
    train(coach, ids.ana, 31, templateId),
    train(coach, ids.ana, 32, templateId),
    train(coach, ids.bea, 33, templateId),
    train(coach, ids.bea, 34, null),
    train(otherCoach, ids.cris, 35, otherTemplate),
  ]);
});
afterAll(async () => {
  await handle.close();
});

async function storedWorkSets(trainingId: number) {
  return handle.db
    .select()
    .from(trainingSets)
    .where(eq(trainingSets.trainingId, trainingId))
    .orderBy(asc(trainingSets.position))
    .then((rows) => rows.filter((r) => r.kind === "work"));
}

describe("readSetHistory", () => {
  it("lists every time each athlete rowed the template, with per-rep pace and rate, the average and the fade", async () => {
    const history = await readSetHistory(handle.db, coach.id, { templateId });
    expect(history.entries.map((e) => e.trainingId).sort()).toEqual([trainingIds.ana1, trainingIds.ana2, trainingIds.bea].sort());
    expect(history.series.map((s) => s.crewName)).toEqual(["Ana Test", "Bea Test"]);
    expect(history.series[0].entries).toHaveLength(2);
    for (const entry of history.entries) {
      const sets = await storedWorkSets(entry.trainingId);
      expect(entry.reps.map((r) => r.workNumber)).toEqual(sets.map((_, k) => k + 1));
      const distance = sets.reduce((a, s) => a + s.distanceM, 0);
      const seconds = sets.reduce((a, s) => a + s.durationMs, 0) / 1000;
      expect(entry.avgSpeedMS).toBeCloseTo(distance / seconds, 9);
      expect(entry.avgPace500S).toBeCloseTo(500 / (distance / seconds), 9);
      const pace = (s: (typeof sets)[number]) => 500 / (s.distanceM / (s.durationMs / 1000));
      expect(entry.reps[0].pace500S).toBeCloseTo(pace(sets[0]), 9);
      expect(entry.fadeS).toBeCloseTo(pace(sets.at(-1)!) - pace(sets[0]), 9);
      expect(entry.fadeRatio).toBeCloseTo((pace(sets.at(-1)!) - pace(sets[0])) / pace(sets[0]), 9);
      const rates = sets.map((s) => [(s.summary as { avg_rate: number }).avg_rate, s.durationMs]);
      expect(entry.reps.map((r) => r.rateSpm)).toEqual(rates.map(([r]) => r));
      expect(entry.avgRateSpm).toBeCloseTo(rates.reduce((a, [r, t]) => a + r * t, 0) / rates.reduce((a, [, t]) => a + t, 0), 9);
    }
  });

  it("follows a rep length across templated and untemplated trainings, and filters by athlete", async () => {
    const byLength = await readSetHistory(handle.db, coach.id, { repM: 250 });
    expect(byLength.entries.map((e) => e.trainingId).sort()).toEqual(
      [trainingIds.ana1, trainingIds.ana2, trainingIds.bea, trainingIds.untemplated].sort(),
    );
    const bea = await readSetHistory(handle.db, coach.id, { repM: 250 }, { athleteId: ids.bea });
    expect(bea.series.map((s) => s.crewName)).toEqual(["Bea Test"]);
    expect(bea.entries).toHaveLength(2);
    expect((await readSetHistory(handle.db, coach.id, { repM: 500 })).entries).toEqual([]);
  });

  it("shows only the trainings of the person's own athletes", async () => {
    const other = await readSetHistory(handle.db, otherCoach.id, { repM: 250 });
    expect(other.entries.map((e) => e.trainingId)).toEqual([trainingIds.cris]);
    // Another coach's template id reads as nothing, not as their trainings.
    expect((await readSetHistory(handle.db, otherCoach.id, { templateId })).entries).toEqual([]);
    const stranger = await createUser(handle.db, { name: "s", email: `s-${randomUUID()}@test.example`, password: "long enough password" });
    expect((await readSetHistory(handle.db, stranger.id, { repM: 250 })).entries).toEqual([]);
    expect(await readSetChoices(handle.db, stranger.id)).toEqual({ templates: [], repLengths: [] });
  });

  it("offers the templates and rep lengths the person's trainings used", async () => {
    const choices = await readSetChoices(handle.db, coach.id);
    expect(choices.templates).toEqual([{ id: templateId, name: "4 × 250 m / 60 s" }]);
    expect(choices.repLengths).toEqual([{ key: "m250", label: "250 m" }]);
  });
});

describe("listTrainings filters", () => {
  it("narrows by athlete, boat class, template and date, names the paddler, and never widens what is visible", async () => {
    const list = (filters: Parameters<typeof listTrainings>[4], user = coach) =>
      listTrainings(handle.db, user.id, undefined, 25, filters).then((r) => r.items);
    expect((await list({})).map((i) => i.id).sort()).toEqual(
      [trainingIds.ana1, trainingIds.ana2, trainingIds.bea, trainingIds.untemplated].sort(),
    );
    const ana = await list({ athleteId: ids.ana });
    expect(ana.map((i) => i.crew)).toEqual([["Ana Test"], ["Ana Test"]]);
    expect((await list({ templateId })).map((i) => i.id).sort()).toEqual([trainingIds.ana1, trainingIds.ana2, trainingIds.bea].sort());
    expect(await list({ boatClass: "C1" })).toEqual([]);
    const day = ana[0].date!;
    expect((await list({ from: day, to: day })).length).toBeGreaterThan(0);
    expect(await list({ from: "2099-01-01" })).toEqual([]);
    // Another coach's athlete id filters to nothing, not to their trainings.
    expect(await list({ athleteId: ids.cris })).toEqual([]);
  });
});

describe("parseSetChoice", () => {
  it("reads a template id or a rep length and nothing else", () => {
    expect(parseSetChoice("t12")).toEqual({ templateId: 12 });
    expect(parseSetChoice("m250")).toEqual({ repM: 250 });
    expect(parseSetChoice("s45")).toEqual({ repS: 45 });
    for (const bad of ["t0", "x250", "m", "", undefined, "m99999", "m250;drop"]) expect(parseSetChoice(bad)).toBeNull();
    for (const key of ["t12", "m250", "s45"]) expect(setChoiceKey(parseSetChoice(key)!)).toBe(key);
  });
});
