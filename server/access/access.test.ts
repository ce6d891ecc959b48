import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import type { DbHandle } from "../db/client";
import { openTestDb } from "../../test/support/test-db";
import { createUser, type SessionUser } from "../users/users";
import { createAthlete, getAccessibleAthlete, listAccessibleAthletes, updateAthlete } from "../athletes/athletes";
import { createTrack, getAccessibleTrack, listAccessibleTracks, updateTrack } from "../tracks/tracks";
import { addAthlete, addCoach, createTeam, getAccessibleTeam, listAccessibleTeams, removeMember } from "../teams/teams";

let handle: DbHandle;
let owner: SessionUser;
let coach: SessionUser;
let stranger: SessionUser;

const newUser = (name: string) =>
  createUser(handle.db, { name, email: `${name}-${randomUUID()}@test.example`, password: "long enough password" });

beforeAll(async () => {
  handle = await openTestDb();
  owner = await newUser("owner");
  coach = await newUser("coach");
  stranger = await newUser("stranger");
});
afterAll(async () => {
  await handle.close();
});

describe("who may see what", () => {
  it("athletes: the manager and team coaches see them; strangers get not_found", async () => {
    const db = handle.db;
    const athlete = await createAthlete(db, owner.id, { name: "Rosa", surname: "Díaz", weightKg: "58.5", dateOfBirth: "2004-03-01" });
    expect(athlete.weightKg).toBe(58.5);
    await expect(getAccessibleAthlete(db, stranger.id, athlete.id)).rejects.toMatchObject({ code: "not_found" });
    await expect(getAccessibleAthlete(db, coach.id, athlete.id)).rejects.toMatchObject({ code: "not_found" });

    const team = await createTeam(db, owner.id, { name: "Squad" });
    await addAthlete(db, owner.id, { teamId: team.id, athleteId: athlete.id });
    await addCoach(db, owner.id, { teamId: team.id, email: coach.email });
    const seen = await getAccessibleAthlete(db, coach.id, athlete.id);
    expect(seen.editable).toBe(false);
    await expect(updateAthlete(db, coach.id, athlete.id, { name: "Hacked" })).rejects.toMatchObject({ code: "forbidden" });
    expect((await listAccessibleAthletes(db, coach.id)).map((a) => a.id)).toContain(athlete.id);
    expect((await listAccessibleAthletes(db, stranger.id)).map((a) => a.id)).not.toContain(athlete.id);

    // The coach cannot change a team they do not own, and strangers do not see it at all.
    await expect(addCoach(db, coach.id, { teamId: team.id, email: stranger.email })).rejects.toMatchObject({ code: "forbidden" });
    await expect(getAccessibleTeam(db, stranger.id, team.id)).rejects.toMatchObject({ code: "not_found" });

    const detail = await getAccessibleTeam(db, owner.id, team.id);
    const coachMembership = detail.members.find((m) => m.role === "coach" && m.displayName === coach.name)!;
    await removeMember(db, owner.id, team.id, coachMembership.membershipId);
    await expect(getAccessibleAthlete(db, coach.id, athlete.id)).rejects.toMatchObject({ code: "not_found" });
    expect((await listAccessibleTeams(db, coach.id)).map((t) => t.id)).not.toContain(team.id);
  });

  it("athlete input is validated on the server and nothing is saved on failure", async () => {
    const before = (await listAccessibleAthletes(handle.db, owner.id)).length;
    await expect(createAthlete(handle.db, owner.id, { name: " ", weightKg: "900", dateOfBirth: "3000-01-01" })).rejects.toThrow();
    expect((await listAccessibleAthletes(handle.db, owner.id)).length).toBe(before);
  });

  it("tracks: private, public, and shared with a team", async () => {
    const db = handle.db;
    const team = await createTeam(db, owner.id, { name: "Track sharers" });
    const track = await createTrack(db, owner.id, { name: "Basin", location: "Lake" });
    const publicTrack = await createTrack(db, owner.id, { name: "Regatta", isPublic: true });
    await expect(getAccessibleTrack(db, coach.id, track.id)).rejects.toMatchObject({ code: "not_found" });
    expect((await getAccessibleTrack(db, stranger.id, publicTrack.id)).editable).toBe(false);

    await addCoach(db, owner.id, { teamId: team.id, email: coach.email });
    await updateTrack(db, owner.id, track.id, { name: "Basin", sharedTeamIds: [team.id] });
    expect((await getAccessibleTrack(db, coach.id, track.id)).sharedTeamIds).toEqual([]);
    expect((await getAccessibleTrack(db, owner.id, track.id)).sharedTeamIds).toEqual([team.id]);
    expect((await listAccessibleTracks(db, stranger.id)).map((t) => t.id)).not.toContain(track.id);
    await expect(updateTrack(db, coach.id, track.id, { name: "Mine now" })).rejects.toMatchObject({ code: "forbidden" });

    // Sharing with someone else's team is refused and leaves the track as it was.
    const otherTeam = await createTeam(db, stranger.id, { name: "Other" });
    await expect(updateTrack(db, owner.id, track.id, { name: "Renamed", sharedTeamIds: [otherTeam.id] })).rejects.toMatchObject({
      code: "invalid",
    });
    expect((await getAccessibleTrack(db, owner.id, track.id)).name).toBe("Basin");
    await expect(createTrack(db, owner.id, { name: "Half", latitude: "42.1" })).rejects.toThrow();
  });
});
