import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createAthlete } from "../athletes/athletes";
import { listAccessibleAthletesAfter } from "../athletes/paged-athletes";
import type { DbHandle } from "../db/client";
import { athletes } from "../db/schema";
import { openTestDb } from "../../test/support/test-db";
import { createTrack } from "../tracks/tracks";
import { getAccessibleTrackCourse, listAccessibleTrackCourses } from "../tracks/paged-tracks";
import { createUser } from "../users/users";
import { getTeamRoster, listAccessibleTeamsAfter } from "./team-roster";
import { addAthlete, addCoach, createTeam, listAccessibleTeams } from "./teams";

let handle: DbHandle;
beforeAll(async () => {
  handle = await openTestDb();
});
afterAll(async () => {
  await handle.close();
});

const newUser = (name: string) =>
  createUser(handle.db, { name, email: `${name}-${randomUUID()}@test.example`, password: "long enough password" });

it("a team as the Data API shows it: coaches by name, only the athletes the viewer may see, nothing for strangers", async () => {
  const db = handle.db;
  const owner = await newUser("head-coach");
  const assistant = await newUser("assistant");
  const paddler = await newUser("paddler");
  const stranger = await newUser("stranger");
  const team = await createTeam(db, owner.id, { name: "Sprint squad" });
  const rosa = await createAthlete(db, owner.id, { name: "Rosa", surname: "Díaz", weightKg: "58" });
  const own = await createAthlete(db, owner.id, { name: "Pau", surname: "Gil" });
  await db.update(athletes).set({ userId: paddler.id }).where(eq(athletes.id, own.id));
  await addAthlete(db, owner.id, { teamId: team.id, athleteId: rosa.id });
  await addAthlete(db, owner.id, { teamId: team.id, athleteId: own.id });
  await addCoach(db, owner.id, { teamId: team.id, email: assistant.email });

  const seenByCoach = await getTeamRoster(db, assistant.id, team.id);
  expect(seenByCoach).toEqual({
    id: team.id,
    name: "Sprint squad",
    coaches: [{ name: owner.name }, { name: assistant.name }],
    athletes: [
      { id: rosa.id, name: "Rosa", surname: "Díaz" },
      { id: own.id, name: "Pau", surname: "Gil" },
    ],
  });
  // An athlete of the team sees the team and the coaches, but among the athletes only their own record.
  expect((await getTeamRoster(db, paddler.id, team.id)).athletes).toEqual([{ id: own.id, name: "Pau", surname: "Gil" }]);
  await expect(getTeamRoster(db, stranger.id, team.id)).rejects.toMatchObject({ code: "not_found" });
  await expect(getTeamRoster(db, owner.id, 2_000_000_000)).rejects.toMatchObject({ code: "not_found" });
  expect(JSON.stringify(seenByCoach)).not.toContain("@test.example");

  expect((await listAccessibleTeamsAfter(db, paddler.id, { afterId: null, take: 10 })).map((t) => t.id)).toEqual([team.id]);
  expect(await listAccessibleTeamsAfter(db, stranger.id, { afterId: null, take: 10 })).toEqual([]);
  // The web list's member counts are the team's own.
  expect((await listAccessibleTeams(db, owner.id)).find((t) => t.id === team.id)).toMatchObject({ coachCount: 2, athleteCount: 2 });
});

it("athletes and tracks: keyset pages on id cover exactly what the viewer may see", async () => {
  const db = handle.db;
  const coach = await newUser("roster-coach");
  const stranger = await newUser("roster-stranger");
  const made = [];
  for (const name of ["A", "B", "C"])
    made.push((await createAthlete(db, coach.id, { name, weightKg: "70", subscriptionActiveUntil: "2099-01-01" })).id);
  const page1 = await listAccessibleAthletesAfter(db, coach.id, { afterId: null, take: 2 });
  const page2 = await listAccessibleAthletesAfter(db, coach.id, { afterId: page1[1].id, take: 2 });
  expect([...page1, ...page2].map((a) => a.id)).toEqual(made);
  // Health and licence fields are not even selected.
  expect(Object.keys(page1[0]).sort()).toEqual(["dateOfBirth", "id", "modality", "name", "surname"]);
  expect(await listAccessibleAthletesAfter(db, stranger.id, { afterId: null, take: 10 })).toEqual([]);

  const privateTrack = await createTrack(db, coach.id, { name: "Home basin", location: "Lake", latitude: 40.1, longitude: -3.5 });
  const publicTrack = await createTrack(db, coach.id, { name: "Regatta course", isPublic: true });
  const mine = await listAccessibleTrackCourses(db, coach.id, { afterId: privateTrack.id - 1, take: 10 });
  expect(mine.map((t) => t.id)).toEqual([privateTrack.id, publicTrack.id]);
  expect(mine[0]).toEqual({
    id: privateTrack.id,
    name: "Home basin",
    location: "Lake",
    latitude: expect.closeTo(40.1, 4),
    longitude: expect.closeTo(-3.5, 4),
    isPublic: false,
  });
  const strangers = await listAccessibleTrackCourses(db, stranger.id, { afterId: privateTrack.id - 1, take: 10 });
  expect(strangers.map((t) => t.id)).toEqual([publicTrack.id]);
  await expect(getAccessibleTrackCourse(db, stranger.id, privateTrack.id)).rejects.toMatchObject({ code: "not_found" });
});
