import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { athleteDeletion, deleteAthlete } from "../athletes/delete-athlete";
import { putBlob } from "../blobs/blob-store";
import { createAthlete, getAccessibleAthlete } from "../athletes/athletes";
import { issueAccessToken, makeOwnerAndApp } from "../../test/support/oauth-fixtures";
import { verifyAccessToken } from "../auth/oauth/verify-access-token";
import { recordSignInFailure, signInLock, throttleKeyForEmail } from "../auth/sign-in-throttle";
import type { DbHandle } from "../db/client";
import { athletes, devices, operatorActions, resultCrew, results, sessionAccess, teamMemberships, tracks, users } from "../db/schema";
import { openTestDb } from "../../test/support/test-db";
import { deleteDevice, deviceDeletion } from "../devices/delete-device";
import { addLactateForAthlete, addWeightForAthlete, deleteWeight, listEnteredForAthlete, listLactate, listWeights } from "../health/health";
import { createKeyPair, deleteKeyPair, keyPairDeletion, verifyKeyPair } from "../keys/key-pairs";
import { changeRole, disableAccount, enableAccount, unlockAccount } from "../operator/account-actions";
import { listAccounts } from "../operator/list-accounts";
import { deleteTeam, teamDeletion } from "../teams/delete-team";
import { addAthlete, addCoach, createTeam, getAccessibleTeam, removeMember } from "../teams/teams";
import { deleteTrack, trackDeletion } from "../tracks/delete-track";
import { createTrack } from "../tracks/tracks";
import { authenticate, createUser, getSessionUser } from "../users/users";

/** Housekeeping and safety (issue 11): deletes and their consequences, the last coach, operator decisions, coach-entered health. */
let handle: DbHandle;
beforeAll(async () => {
  handle = await openTestDb();
});
afterAll(async () => {
  await handle.close();
});

const PASSWORD = "correct horse battery";
const newUser = (name = "Paddler") => createUser(handle.db, { name, email: `hk-${randomUUID()}@test.example`, password: PASSWORD });

async function newSession(ownerId: number, trackId: number, crew: number[] = [], extra: Partial<typeof results.$inferInsert> = {}) {
  const db = handle.db;
  const [row] = await db
    .insert(results)
    .values({
      ownerUserId: ownerId,
      trackId,
      vesselId: crew.length > 1 ? 2 : 1,
      categoryId: 1,
      paceId: 1,
      createdVia: "web",
      date: "2026-03-01",
      timeOfDay: "09:00:00+01:00",
      startAt: new Date("2026-03-01T08:00:00Z"),
      utcOffsetMin: 60,
      distanceM: 500,
      durationMs: 110_000,
      targetDistanceM: 500,
      ...extra,
    })
    .returning({ id: results.id });
  if (crew.length) await db.insert(resultCrew).values(crew.map((athleteId, i) => ({ resultId: row.id, seat: i + 1, athleteId })));
  return row.id;
}

const accessOf = async (resultId: number) =>
  (await handle.db.select({ userId: sessionAccess.userId }).from(sessionAccess).where(eq(sessionAccess.resultId, resultId)))
    .map((r) => r.userId)
    .sort();

describe("a team always keeps at least one coach", () => {
  it("refuses removing the last coach and removes any other member", async () => {
    const db = handle.db;
    const owner = await newUser("Head");
    const assistant = await newUser("Assistant");
    const team = await createTeam(db, owner.id, { name: "Juniors" });
    const rosa = await createAthlete(db, owner.id, { name: "Rosa" });
    await addAthlete(db, owner.id, { teamId: team.id, athleteId: rosa.id });
    await addCoach(db, owner.id, { teamId: team.id, email: assistant.email });
    const members = (await getAccessibleTeam(db, owner.id, team.id)).members;
    const ownerCoach = members.find((m) => m.role === "coach" && m.displayName === "Head")!;
    const assistantCoach = members.find((m) => m.displayName === "Assistant")!;
    const athlete = members.find((m) => m.role === "athlete")!;

    await removeMember(db, owner.id, team.id, athlete.membershipId);
    await removeMember(db, owner.id, team.id, ownerCoach.membershipId);
    await expect(removeMember(db, owner.id, team.id, assistantCoach.membershipId)).rejects.toMatchObject({
      code: "conflict",
      message: "A team always keeps at least one coach: add another coach before removing this one.",
    });
    expect((await getAccessibleTeam(db, owner.id, team.id)).members.map((m) => m.displayName)).toEqual(["Assistant"]);
    // A membership of another team, or none, is the 404 of a missing one.
    await expect(removeMember(db, owner.id, team.id, 2_000_000_000)).rejects.toMatchObject({ code: "not_found" });
  });

  it("two removals at once of a two-coach team: exactly one succeeds", async () => {
    const db = handle.db;
    for (let round = 0; round < 5; round++) {
      const owner = await newUser("Head");
      const assistant = await newUser("Assistant");
      const team = await createTeam(db, owner.id, { name: `Race ${round}` });
      await addCoach(db, owner.id, { teamId: team.id, email: assistant.email });
      const [a, b] = (await getAccessibleTeam(db, owner.id, team.id)).members.map((m) => m.membershipId);
      // Separate pool connections: the two transactions really run side by side.
      const outcomes = await Promise.allSettled([removeMember(db, owner.id, team.id, a), removeMember(db, owner.id, team.id, b)]);
      expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
      expect(outcomes.find((o) => o.status === "rejected")).toMatchObject({ reason: { code: "conflict" } });
      const coaches = await db
        .select()
        .from(teamMemberships)
        .where(and(eq(teamMemberships.teamId, team.id), eq(teamMemberships.role, "coach")));
      expect(coaches).toHaveLength(1);
    }
  });
});

describe("deletes say what happens to linked sessions", () => {
  it("an athlete: seats become external paddlers with the name, the sessions stay, access through the record ends", async () => {
    const db = handle.db;
    const coach = await newUser("Coach");
    const paddler = await newUser("Paddler");
    const stranger = await newUser("Stranger");
    const track = await createTrack(db, coach.id, { name: "Basin" });
    const rosa = await createAthlete(db, coach.id, { name: "Rosa", surname: "Díaz", weightKg: "58" });
    const pau = await createAthlete(db, coach.id, { name: "Pau", surname: "Gil" });
    await db.update(athletes).set({ userId: paddler.id }).where(eq(athletes.id, rosa.id));
    const team = await createTeam(db, coach.id, { name: "Seniors" });
    await addAthlete(db, coach.id, { teamId: team.id, athleteId: rosa.id });
    const k1 = await newSession(coach.id, track.id, [rosa.id]);
    const k2 = await newSession(coach.id, track.id, [pau.id, rosa.id], { startAt: new Date("2026-03-02T08:00:00Z") });
    expect(await accessOf(k1)).toEqual([coach.id, paddler.id].sort());

    const impact = await athleteDeletion(db, coach.id, rosa.id);
    expect(impact).toMatchObject({ name: "Rosa Díaz", sessions: 2, teams: 1, linkedAccount: true });
    expect(impact.statement).toBe(
      "2 sessions keep their data; Rosa Díaz's seat in them keeps the name as an external paddler, no longer linked to this record (no athlete page, personal bests or access through it). Rosa Díaz leaves 1 team. The linked account stays; only the link to this record ends.",
    );
    // Not the manager (even the linked person), or no such record: the same 404.
    await expect(deleteAthlete(db, paddler.id, rosa.id)).rejects.toMatchObject({ code: "not_found" });
    await expect(deleteAthlete(db, stranger.id, rosa.id)).rejects.toMatchObject({ code: "not_found" });
    await expect(athleteDeletion(db, stranger.id, rosa.id)).rejects.toMatchObject({ code: "not_found" });

    expect(await deleteAthlete(db, coach.id, rosa.id)).toEqual({ sessions: 2 });
    await expect(getAccessibleAthlete(db, coach.id, rosa.id)).rejects.toMatchObject({ code: "not_found" });
    const seats = await db.select().from(resultCrew).where(eq(resultCrew.resultId, k2)).orderBy(resultCrew.seat);
    expect(seats.map((s) => [s.athleteId, s.externalName, s.externalSurname, s.externalWeightKg])).toEqual([
      [pau.id, null, null, null],
      [null, "Rosa", "Díaz", 58],
    ]);
    expect(await db.select({ id: results.id }).from(results).where(eq(results.id, k1))).toHaveLength(1);
    // The linked account no longer reaches the sessions through the record.
    expect(await accessOf(k1)).toEqual([coach.id]);
    expect(await db.select().from(teamMemberships).where(eq(teamMemberships.teamId, team.id))).toHaveLength(1);
    expect((await athleteDeletion(db, coach.id, pau.id)).statement).toMatch(
      /^1 session keeps its data; Pau Gil's seat in it keeps the name/,
    );
  });

  it("a track a session uses is refused with the count; an unused one goes", async () => {
    const db = handle.db;
    const owner = await newUser();
    const other = await newUser();
    const used = await createTrack(db, owner.id, { name: "Regatta course", isPublic: true });
    const spare = await createTrack(db, owner.id, { name: "Spare" });
    await newSession(owner.id, used.id);
    await newSession(other.id, used.id);
    const impact = await trackDeletion(db, owner.id, used.id);
    expect(impact).toMatchObject({ sessions: 2 });
    expect(impact.refusal).toBe(
      "“Regatta course” is the track of 2 sessions. A session always has a track: change theirs first (session page, Actions, “Correct this session”), then delete this one.",
    );
    await expect(deleteTrack(db, owner.id, used.id)).rejects.toMatchObject({ code: "conflict", message: impact.refusal });
    // Public, so visible to `other`, but not theirs.
    await expect(deleteTrack(db, other.id, used.id)).rejects.toMatchObject({ code: "not_found" });
    expect(await trackDeletion(db, owner.id, spare.id)).toMatchObject({ refusal: null, statement: "No session uses this track." });
    await deleteTrack(db, owner.id, spare.id);
    expect(await db.select().from(tracks).where(eq(tracks.id, spare.id))).toEqual([]);
    await expect(deleteTrack(db, owner.id, spare.id)).rejects.toMatchObject({ code: "not_found" });
  });

  it("a team: memberships go, sessions and records stay, the team's coaches lose access through it", async () => {
    const db = handle.db;
    const owner = await newUser("Owner");
    const assistant = await newUser("Assistant");
    const track = await createTrack(db, owner.id, { name: "Basin" });
    const rosa = await createAthlete(db, owner.id, { name: "Rosa" });
    const team = await createTeam(db, owner.id, { name: "Seniors" });
    await addAthlete(db, owner.id, { teamId: team.id, athleteId: rosa.id });
    await addCoach(db, owner.id, { teamId: team.id, email: assistant.email });
    const session = await newSession(owner.id, track.id, [rosa.id]);
    expect(await accessOf(session)).toContain(assistant.id);
    const impact = await teamDeletion(db, owner.id, team.id);
    expect(impact).toMatchObject({ coaches: 2, athletes: 1, sessions: 1 });
    expect(impact.statement).toBe(
      "2 coaches and 1 athlete leave the team; no account or athlete record is deleted. 1 session of the team's athletes keeps its data; coaches who see it only through this team no longer do.",
    );
    await expect(deleteTeam(db, assistant.id, team.id)).rejects.toMatchObject({ code: "not_found" });
    await deleteTeam(db, owner.id, team.id);
    expect(await accessOf(session)).toEqual([owner.id]);
    expect(await getAccessibleAthlete(db, owner.id, rosa.id)).toMatchObject({ name: "Rosa" });
  });

  it("a device: refused while it holds files, deleted when it holds none; its sessions stay without a unit", async () => {
    const db = handle.db;
    const owner = await newUser();
    const other = await newUser();
    const track = await createTrack(db, owner.id, { name: "Basin" });
    const [unit] = await db
      .insert(devices)
      .values({ ownerUserId: owner.id, hardwareModel: 2, serial: randomUUID(), label: "Club K2 unit" })
      .returning({ id: devices.id });
    const blob = await putBlob(db, { key: randomUUID(), bytes: Buffer.from("svc"), contentType: "application/octet-stream" });
    const withFile = await newSession(owner.id, track.id, [], { deviceId: unit.id, originalBlobId: blob.id });
    const impact = await deviceDeletion(db, owner.id, unit.id);
    expect(impact).toMatchObject({
      files: 1,
      sessions: 1,
      refusal: "Club K2 unit still holds 1 stored original file. Delete its files first (“Delete files”), then the unit.",
    });
    await expect(deleteDevice(db, owner.id, unit.id)).rejects.toMatchObject({ code: "conflict", message: impact.refusal });
    await expect(deleteDevice(db, other.id, unit.id)).rejects.toMatchObject({ code: "not_found" });

    // What "Delete files" leaves: the session without its original.
    await db.update(results).set({ originalBlobId: null }).where(eq(results.id, withFile));
    expect(await deviceDeletion(db, owner.id, unit.id)).toMatchObject({
      files: 0,
      refusal: null,
      statement: "1 session recorded with it keeps its data and no longer names a unit.",
    });
    await deleteDevice(db, owner.id, unit.id);
    const [session] = await db
      .select({ deviceId: results.deviceId, distanceM: results.distanceM })
      .from(results)
      .where(eq(results.id, withFile));
    expect(session).toEqual({ deviceId: null, distanceM: 500 });
  });

  it("a key pair: its sessions stay, the key stops working, others' keys are a 404", async () => {
    const db = handle.db;
    const owner = await newUser();
    const other = await newUser();
    const track = await createTrack(db, owner.id, { name: "Basin" });
    const { keyPair, secretKey } = await createKeyPair(db, owner.id, { name: "Club laptop" });
    const session = await newSession(owner.id, track.id, [], { createdVia: "api", keyPairId: keyPair.id });
    expect(await keyPairDeletion(db, owner.id, keyPair.id)).toMatchObject({
      sessions: 1,
      statement: "Requests with it fail from now on. 1 session uploaded with it keeps its data.",
    });
    await expect(deleteKeyPair(db, other.id, keyPair.id)).rejects.toMatchObject({ code: "not_found" });
    await deleteKeyPair(db, owner.id, keyPair.id);
    expect(await verifyKeyPair(db, { publicKey: keyPair.publicKey, secretKey }, true)).toEqual({ ok: false, code: "invalid_key" });
    expect(await db.select({ id: results.id }).from(results).where(eq(results.id, session))).toHaveLength(1);
  });
});

describe("operator decisions on accounts", () => {
  it("finds an account by part of its email or name, case-insensitively; LIKE characters and NUL are plain text", async () => {
    const tag = randomUUID().slice(0, 8);
    const user = await createUser(handle.db, { name: `Zoë ${tag}_x`, email: `find-${tag}@test.example`, password: PASSWORD });
    const ids = async (search: string) => (await listAccounts(handle.db, { search })).map((a) => a.id);
    expect(await ids(`FIND-${tag.toUpperCase()}`)).toEqual([user.id]);
    expect(await ids(`zoë ${tag}`)).toEqual([user.id]);
    expect(await ids(`${tag}_x`)).toEqual([user.id]);
    // "_" and "%" match themselves, not any character: the email has no "_" after the tag.
    expect(await ids(`find-${tag}_`)).toEqual([]);
    expect(await ids(`%${tag}%`)).toEqual([]);
    expect(await ids(`find-\u0000${tag}`)).toEqual([user.id]);
    // No search: the newest accounts, at most the page's count.
    expect((await listAccounts(handle.db)).length).toBeLessThanOrEqual(50);
  });

  it("unlocks a throttled account: the lock is gone from Postgres and the right password works", async () => {
    const db = handle.db;
    const operator = await createUser(
      db,
      { name: "Op", email: `op-${randomUUID()}@test.example`, password: PASSWORD },
      { role: "operator" },
    );
    const user = await newUser();
    for (let i = 0; i < 5; i++) await recordSignInFailure(db, throttleKeyForEmail(user.email));
    expect(await authenticate(db, user.email, PASSWORD)).toMatchObject({ ok: false, code: "throttled", scope: "account" });
    expect((await listAccounts(db, { search: user.email })).find((a) => a.id === user.id)?.lockedUntil).toBeInstanceOf(Date);

    await unlockAccount(db, operator.id, { userId: user.id });
    expect(await signInLock(db, { email: user.email })).toBeNull();
    expect((await listAccounts(db, { search: user.email })).find((a) => a.id === user.id)?.lockedUntil).toBeNull();
    expect(await authenticate(db, user.email, PASSWORD)).toMatchObject({ ok: true });
    // Made once: a second unlock is a conflict (the page no longer offers it).
    await expect(unlockAccount(db, operator.id, { userId: user.id })).rejects.toMatchObject({
      code: "conflict",
      message: "This account is not locked.",
    });
    await expect(unlockAccount(db, operator.id, { userId: 2_000_000_000 })).rejects.toMatchObject({ code: "not_found" });
    const log = await db.select().from(operatorActions).where(eq(operatorActions.targetUserId, user.id));
    expect(log.map((l) => [l.action, l.operatorUserId, l.targetEmail])).toEqual([["unlock", operator.id, user.email]]);
  });

  it("changes a role (not their own), recorded from and to", async () => {
    const db = handle.db;
    const operator = await createUser(
      db,
      { name: "Op", email: `op-${randomUUID()}@test.example`, password: PASSWORD },
      { role: "operator" },
    );
    const user = await newUser();
    await changeRole(db, operator.id, { userId: user.id, role: "viewer" });
    expect((await getSessionUser(db, user.id))?.role).toBe("viewer");
    await expect(changeRole(db, operator.id, { userId: user.id, role: "viewer" })).rejects.toMatchObject({ code: "conflict" });
    await expect(changeRole(db, operator.id, { userId: operator.id, role: "coach" })).rejects.toMatchObject({ code: "conflict" });
    await expect(changeRole(db, operator.id, { userId: user.id, role: "root" as never })).rejects.toThrow();
    const log = await db.select().from(operatorActions).where(eq(operatorActions.targetUserId, user.id));
    expect(log.map((l) => [l.action, l.details])).toEqual([["change_role", { from: "coach", to: "viewer" }]]);
  });

  it("a disabled account cannot sign in, its web session, key pairs and access tokens stop; enabling restores sign-in", async () => {
    const db = handle.db;
    const operator = await createUser(
      db,
      { name: "Op", email: `op-${randomUUID()}@test.example`, password: PASSWORD },
      { role: "operator" },
    );
    const { owner: user, application } = await makeOwnerAndApp(db);
    const audience = "https://results.example/api/v1";
    const { token } = await issueAccessToken(db, {
      userId: user.id,
      applicationId: application.id,
      clientId: application.clientId,
      scopes: ["sessions:read"],
      audience,
    });
    const { keyPair, secretKey } = await createKeyPair(db, user.id, { name: "Uploader" });
    const [before] = await db.select({ sv: users.sessionVersion }).from(users).where(eq(users.id, user.id));
    expect(await verifyAccessToken(db, token, new Date(), audience)).toMatchObject({ ok: true });

    await disableAccount(db, operator.id, { userId: user.id });
    expect(await authenticate(db, user.email, PASSWORD)).toEqual({ ok: false, code: "disabled" });
    // A wrong password says nothing about the account's state.
    expect(await authenticate(db, user.email, "wrong password!!")).toEqual({ ok: false, code: "invalid_credentials" });
    expect(await getSessionUser(db, user.id)).toBeNull();
    const [after] = await db.select({ sv: users.sessionVersion }).from(users).where(eq(users.id, user.id));
    expect(after.sv).toBe(before.sv + 1);
    expect(await verifyKeyPair(db, { publicKey: keyPair.publicKey, secretKey }, true)).toEqual({ ok: false, code: "invalid_key" });
    expect(await verifyAccessToken(db, token, new Date(), audience)).toEqual({ ok: false });
    await expect(disableAccount(db, operator.id, { userId: user.id })).rejects.toMatchObject({ code: "conflict" });
    await expect(disableAccount(db, operator.id, { userId: operator.id })).rejects.toMatchObject({ code: "conflict" });
    expect((await listAccounts(db, { search: user.email })).find((a) => a.id === user.id)?.disabledAt).toBeInstanceOf(Date);

    await enableAccount(db, operator.id, { userId: user.id });
    expect(await authenticate(db, user.email, PASSWORD)).toMatchObject({ ok: true });
    expect(await verifyKeyPair(db, { publicKey: keyPair.publicKey, secretKey }, true)).toMatchObject({ ok: true });
    await expect(enableAccount(db, operator.id, { userId: user.id })).rejects.toMatchObject({ code: "conflict" });
    const log = await db.select().from(operatorActions).where(eq(operatorActions.targetUserId, user.id)).orderBy(operatorActions.id);
    expect(log.map((l) => l.action)).toEqual(["disable", "enable"]);
  });
});

describe("a coach records health for the athletes they manage", () => {
  it("stores rows on the athlete's account, manual, with the coach as who entered them", async () => {
    const db = handle.db;
    const coach = await newUser("Coach Ana");
    const paddler = await newUser("Paddler");
    const otherCoach = await newUser("Other coach");
    const track = await createTrack(db, coach.id, { name: "Basin" });
    const rosa = await createAthlete(db, coach.id, { name: "Rosa" });
    const unlinked = await createAthlete(db, coach.id, { name: "Pau" });
    await db.update(athletes).set({ userId: paddler.id }).where(eq(athletes.id, rosa.id));
    const hers = await newSession(coach.id, track.id, [rosa.id]);
    const notHers = await newSession(coach.id, track.id, [unlinked.id]);

    const weight = await addWeightForAthlete(db, coach.id, rosa.id, { measuredOn: "2026-03-01", weightKg: "58.5" });
    await addLactateForAthlete(db, coach.id, rosa.id, {
      resultId: hers,
      measuredAt: "2026-03-01T09:10",
      lactateMmolL: "6.2",
      note: "after 3 min",
    });
    await expect(
      addLactateForAthlete(db, coach.id, rosa.id, { resultId: notHers, measuredAt: "2026-03-01T09:10", lactateMmolL: "6.2" }),
    ).rejects.toMatchObject({
      code: "invalid",
      fieldErrors: { resultId: ["Choose one of this athlete's sessions"] },
    });
    await expect(addWeightForAthlete(db, coach.id, unlinked.id, { measuredOn: "2026-03-01", weightKg: "70" })).rejects.toMatchObject({
      code: "unprocessable",
      message: "Pau has no account yet. Health data belongs to the athlete's own account: invite them to link one first.",
    });
    await expect(addWeightForAthlete(db, otherCoach.id, rosa.id, { measuredOn: "2026-03-01", weightKg: "70" })).rejects.toMatchObject({
      code: "not_found",
    });
    await expect(addWeightForAthlete(db, coach.id, rosa.id, { measuredOn: "2026-03-01", weightKg: "900" })).rejects.toThrow();

    // The athlete sees them, with who entered them; the coach's own history is untouched.
    expect(await listWeights(db, paddler.id, { shareableOnly: true })).toEqual([
      expect.objectContaining({ weightKg: 58.5, provenance: "manual", enteredByUserId: coach.id, enteredByName: "Coach Ana" }),
    ]);
    expect(await listLactate(db, paddler.id, { shareableOnly: true })).toEqual([
      expect.objectContaining({ resultId: hers, lactateMmolL: 6.2, provenance: "manual", enteredByName: "Coach Ana" }),
    ]);
    expect(await listWeights(db, coach.id, { shareableOnly: false })).toEqual([]);
    // The coach sees what they entered, not the athlete's own entries.
    await db
      .insert((await import("../db/schema")).healthWeights)
      .values({ userId: paddler.id, measuredOn: "2026-02-01", weightKg: 59, provenance: "manual", enteredByUserId: paddler.id });
    expect((await listEnteredForAthlete(db, coach.id, rosa.id)).weights.map((w) => w.weightKg)).toEqual([58.5]);
    // Either may delete the coach's entry; a stranger gets the 404.
    await expect(deleteWeight(db, otherCoach.id, weight.id)).rejects.toMatchObject({ code: "not_found" });
    await deleteWeight(db, paddler.id, weight.id);
    expect((await listEnteredForAthlete(db, coach.id, rosa.id)).weights).toEqual([]);
  });
});
