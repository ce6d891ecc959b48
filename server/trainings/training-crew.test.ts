import { randomUUID } from "node:crypto";
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createAthlete } from "../athletes/athletes";
import type { DbHandle } from "../db/client";
import { athletes, trainingCrew, trainings } from "../db/schema";
import { openTestDb } from "../../test/support/test-db";
import { AppError } from "../errors";
import { loadKeyring } from "../svc/keyring";
import { createUser, type SessionUser } from "../users/users";
import { createTrainingFromUpload, parseTrainingUploadMetadata } from "./create-training";
import { createProcessedTraining, simulatedTrainingFile, vesselIdOf } from "../../test/support/trainings";
import { loadTrainingView } from "./training-view";

const keyring = loadKeyring({});
let handle: DbHandle;
let coach: SessionUser;
let anaUser: SessionUser;
let beaUser: SessionUser;
let stranger: SessionUser;
let ana: { id: number };
let bea: { id: number };
let k2: number;

const newUser = (name: string) =>
  createUser(handle.db, { name, email: `tc-${name}-${randomUUID()}@test.example`, password: "long enough password" });

beforeAll(async () => {
  handle = await openTestDb();
  [coach, anaUser, beaUser, stranger] = await Promise.all(["coach", "ana", "bea", "stranger"].map(newUser));
  ana = await createAthlete(handle.db, coach.id, { name: "Ana", surname: "Crew" });
  bea = await createAthlete(handle.db, coach.id, { name: "Bea", surname: "Crew" });
  await handle.db.update(athletes).set({ userId: anaUser.id }).where(eq(athletes.id, ana.id));
  await handle.db.update(athletes).set({ userId: beaUser.id }).where(eq(athletes.id, bea.id));
  k2 = await vesselIdOf(handle.db, "K2");
});
afterAll(async () => {
  await handle.close();
});

const crewOf = (trainingId: number) =>
  handle.db
    .select({ seat: trainingCrew.seat, athleteId: trainingCrew.athleteId })
    .from(trainingCrew)
    .where(eq(trainingCrew.trainingId, trainingId))
    .orderBy(asc(trainingCrew.seat));

it("stores a K2 training's whole crew; each paddler sees it, only the stroke seat's account reads its heart rate", async () => {
  const { id } = await createProcessedTraining(handle.db, coach, { spec: "2x250m/60s", vessel: "K2", keyring, crew: [ana.id, bea.id] });
  expect(await crewOf(id)).toEqual([
    { seat: 1, athleteId: ana.id },
    { seat: 2, athleteId: bea.id },
  ]);
  const [row] = await handle.db.select({ athleteId: trainings.athleteId }).from(trainings).where(eq(trainings.id, id));
  expect(row.athleteId).toBe(ana.id);

  const forBea = await loadTrainingView(handle.db, beaUser.id, id);
  expect(forBea.status).toBe("ready");
  expect(forBea.crew).toEqual([
    { seat: 1, name: "Ana Crew" },
    { seat: 2, name: "Bea Crew" },
  ]);
  // The heart rate is seat 1's: Ana's account reads it, Bea and the coach never get the field.
  expect(JSON.stringify(await loadTrainingView(handle.db, anaUser.id, id))).toContain("ownHeartRate");
  expect(JSON.stringify(forBea)).not.toContain("ownHeartRate");
  expect(JSON.stringify(await loadTrainingView(handle.db, coach.id, id))).not.toContain("ownHeartRate");
  await expect(loadTrainingView(handle.db, stranger.id, id)).rejects.toMatchObject({ code: "not_found" });
}, 60_000);

it("keeps a single's paddler as seat 1 and refuses a crew that does not fit the boat", async () => {
  const k1 = await vesselIdOf(handle.db, "K1");
  let seed = Math.floor(Math.random() * 1e6);
  const upload = (vesselId: number, more: { crew?: (number | null)[]; athleteId?: number }, user = coach) =>
    createTrainingFromUpload(handle.db, {
      user,
      createdVia: "web",
      vesselId,
      file: { filename: "t.svc", bytes: simulatedTrainingFile({ spec: "2x100m/30s", seed: ++seed, keyring }).bytes },
      ...more,
    });
  const single = await upload(k1, { athleteId: bea.id });
  expect(await crewOf(single.id)).toEqual([{ seat: 1, athleteId: bea.id }]);
  // Seat 2 named alone: nobody would know whose heart rate the unit holds.
  const refusal = async (promise: Promise<unknown>) => {
    const error = await promise.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AppError);
    return { code: (error as AppError).code, fields: Object.keys((error as AppError).fieldErrors ?? {}) };
  };
  expect(await refusal(upload(k2, { crew: [null, bea.id] }))).toEqual({ code: "invalid", fields: ["athletes[0]"] });
  expect(await refusal(upload(k2, { crew: [ana.id] }))).toEqual({ code: "invalid", fields: ["athletes"] });
  expect(await refusal(upload(k2, { crew: [ana.id, ana.id] }))).toEqual({ code: "invalid", fields: ["athletes[1]"] });
  expect(await refusal(upload(k2, { crew: [ana.id, bea.id], athleteId: ana.id }))).toEqual({ code: "invalid", fields: ["athlete_id"] });
  // Someone else's athletes answer as unknown ones.
  expect(await refusal(upload(k2, { crew: [ana.id, bea.id] }, stranger))).toEqual({ code: "forbidden", fields: ["athletes[0]"] });
  // A seat may stay unnamed after seat 1.
  const partial = await upload(k2, { crew: [ana.id, null] });
  expect(await crewOf(partial.id)).toEqual([{ seat: 1, athleteId: ana.id }]);

  // The web form's metadata: hostile values are 400s naming the field.
  expect(parseTrainingUploadMetadata(JSON.stringify({ vessel_id: k2, athletes: [ana.id, null] })).crew).toEqual([ana.id, null]);
  for (const athletesValue of ["x", [1.5], [-1], [{}], Array(10).fill(null)]) {
    expect(() => parseTrainingUploadMetadata(JSON.stringify({ vessel_id: k2, athletes: athletesValue }))).toThrow(AppError);
  }
});
