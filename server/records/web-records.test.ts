import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { listPersonalBests } from "../athletes/athlete-bests";
import { createAthlete } from "../athletes/athletes";
import type { DbHandle } from "../db/client";
import { openTestDb } from "../../test/support/test-db";
import { uploadResult } from "../results/upload-result";
import { encodeSvc } from "../svc/container";
import { loadKeyring } from "../svc/keyring";
import { simulateSession } from "../svc/simulator/simulate";
import type { VesselType } from "../svc/types";
import { addAthlete, createTeam } from "../teams/teams";
import { createTrack } from "../tracks/tracks";
import { vesselIdOf } from "../../test/support/trainings";
import { createUser } from "../users/users";
import { loadWebRecords } from "./web-records";

const keyring = loadKeyring({});
let handle: DbHandle;
beforeAll(async () => {
  handle = await openTestDb();
});
afterAll(async () => {
  await handle.close();
});

it("keeps bests per athlete and per crew apart, and ranks a team's boats per boat class and distance", async () => {
  const db = handle.db;
  const coach = await createUser(db, { name: "Coach", email: `wr-${randomUUID()}@test.example`, password: "long enough password" });
  const outsider = await createUser(db, { name: "Other", email: `wr-o-${randomUUID()}@test.example`, password: "long enough password" });
  const track = await createTrack(db, coach.id, { name: "Basin" });
  const [ana, bea, cai, dan] = await Promise.all(
    ["Ana", "Bea", "Cai", "Dan"].map((name) =>
      createAthlete(db, coach.id, { name, surname: "Test", subscriptionActiveUntil: "2099-01-01" }),
    ),
  );
  const team = await createTeam(db, coach.id, { name: `Sprint ${randomUUID().slice(0, 6)}` });
  for (const a of [ana, bea, cai]) await addAthlete(db, coach.id, { teamId: team.id, athleteId: a.id });
  let seed = Math.floor(Math.random() * 1e6);
  const upload = async (vessel: VesselType, crew: number[], pace: "race" | "training") => {
    seed++;
    return uploadResult(
      db,
      {
        user: coach,
        createdVia: "api",
        keyPairId: null,
        file: {
          filename: `s${seed}.svc`,
          bytes: Buffer.from(encodeSvc(simulateSession({ vessel, distanceM: 200, seed, pace }).content, keyring)),
        },
        metadata: JSON.stringify({
          distance: 200,
          vessel_id: await vesselIdOf(db, vessel),
          track_id: track.id,
          category_id: 1,
          pace_id: 1,
          athletes: crew,
        }),
      },
      { keyring },
    );
  };
  const anaK1Slow = await upload("K1", [ana.id], "training");
  const anaK1Fast = await upload("K1", [ana.id], "race");
  const beaK1 = await upload("K1", [bea.id], "training");
  const danK1 = await upload("K1", [dan.id], "race");
  const abK2 = await upload("K2", [ana.id, bea.id], "training");
  // The same two paddlers in the other seats are the same crew.
  const baK2 = await upload("K2", [bea.id, ana.id], "race");
  const acK2 = await upload("K2", [ana.id, cai.id], "training");

  const records = await loadWebRecords(db, coach.id);
  const anaBests = records.athletes.find((a) => a.athleteId === ana.id)!;
  // K1 and K2 are separate bests: the K2 time never becomes Ana's K1 best.
  expect(anaBests.bests.map((b) => [b.boatClass, b.distanceM, b.resultId, b.sessions])).toEqual([
    ["K1", 200, anaK1Fast.duration < anaK1Slow.duration ? anaK1Fast.id : anaK1Slow.id, 2],
    ["K2", 200, [abK2, baK2, acK2].sort((x, y) => x.duration - y.duration)[0].id, 3],
  ]);
  // The athlete page shows the same bests.
  const page = await listPersonalBests(db, ana.id);
  expect(page.map((b) => [b.boatClass, b.distanceM, b.resultId, b.durationMs, b.sessions])).toEqual(
    anaBests.bests.map((b) => [b.boatClass, b.distanceM, b.resultId, b.durationMs, b.sessions]),
  );

  // Crews: Ana+Bea (two sessions, either seat order) and Ana+Cai; singles are not crews.
  const crewOf = (...names: string[]) => records.crews.find((c) => [...c.crew].sort().join() === names.join())!;
  expect(records.crews).toHaveLength(2);
  expect(crewOf("Ana Test", "Bea Test").bests.map((b) => [b.boatClass, b.resultId, b.sessions])).toEqual([
    ["K2", baK2.duration < abK2.duration ? baK2.id : abK2.id, 2],
  ]);
  expect(crewOf("Ana Test", "Cai Test").bests.map((b) => [b.boatClass, b.resultId, b.sessions])).toEqual([["K2", acK2.id, 1]]);

  // The team's leaderboard: Dan is not in the team; entries ranked by time.
  const board = records.leaderboards.find((l) => l.teamId === team.id)!;
  const k1 = board.boards.find((b) => b.boatClass === "K1" && b.distanceM === 200)!;
  expect(k1.entries.map((e) => e.resultId)).not.toContain(danK1.id);
  expect(k1.entries.map((e) => e.crew)).toEqual(
    [
      { crew: ["Ana Test"], duration: Math.min(anaK1Fast.duration, anaK1Slow.duration) },
      { crew: ["Bea Test"], duration: beaK1.duration },
    ]
      .sort((a, b) => a.duration - b.duration)
      .map((e) => e.crew),
  );
  expect(k1.entries.map((e) => e.rank)).toEqual([1, 2]);
  const k2 = board.boards.find((b) => b.boatClass === "K2")!;
  expect(k2.entries).toHaveLength(2);
  expect(k2.entries[0].durationMs).toBeLessThanOrEqual(k2.entries[1].durationMs);

  // Someone who may see none of it gets nothing.
  expect(await loadWebRecords(db, outsider.id)).toEqual({ athletes: [], crews: [], leaderboards: [] });
}, 120_000);
