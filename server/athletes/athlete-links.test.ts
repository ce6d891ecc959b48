import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sessionOfSubject } from "../access/access";
import type { DbHandle } from "../db/client";
import { athleteInvitations, athletes, resultCrew, results } from "../db/schema";
import { openTestDb } from "../../test/support/test-db";
import { createTrack } from "../tracks/tracks";
import { createUser } from "../users/users";
import {
  acceptInvitation,
  athleteLinkStatus,
  createOwnAthleteProfile,
  findInvitation,
  getLinkedAthleteProfile,
  INVITATION_TTL_DAYS,
  inviteAthlete,
  unlinkAthlete,
  withdrawInvitations,
} from "./athlete-links";
import { createAthlete } from "./athletes";

let handle: DbHandle;
beforeAll(async () => {
  handle = await openTestDb();
});
afterAll(async () => {
  await handle.close();
});

const password = "long enough password";
const newUser = (label: string) =>
  createUser(handle.db, { name: `${label} Person`, email: `${label}-${randomUUID()}@test.example`, password });
const tokenOf = (path: string) => path.replace("/invitations/", "");
const DAY = 24 * 60 * 60 * 1000;

async function coachWithAthlete() {
  const coach = await newUser("coach");
  const athlete = await createAthlete(handle.db, coach.id, { name: "Ines", surname: "Invited", subscriptionActiveUntil: "2099-12-31" });
  return { coach, athlete };
}

describe("inviting and accepting", () => {
  it("links the record to the invited person's account, once; the token is stored only hashed", async () => {
    const { coach, athlete } = await coachWithAthlete();
    const person = await newUser("ines");
    const t0 = new Date("2026-05-01T10:00:00Z");
    const invitation = await inviteAthlete(handle.db, coach.id, { athleteId: athlete.id, email: person.email.toUpperCase() }, t0);
    const token = tokenOf(invitation.path);
    expect(token).toMatch(/^svcinv_[A-Za-z0-9_-]{43}$/);
    expect(invitation.expiresAt.getTime() - t0.getTime()).toBe(INVITATION_TTL_DAYS * DAY);
    const [stored] = await handle.db.select().from(athleteInvitations).where(eq(athleteInvitations.id, invitation.id));
    expect(JSON.stringify(stored)).not.toContain(token);
    expect(stored.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(await athleteLinkStatus(handle.db, coach.id, athlete.id, t0)).toEqual({
      linked: false,
      pending: { email: person.email, expiresAt: invitation.expiresAt },
    });

    expect(await findInvitation(handle.db, token, t0)).toMatchObject({
      status: "pending",
      athleteName: "Ines Invited",
      invitedByName: coach.name,
      email: person.email,
    });
    expect(await acceptInvitation(handle.db, person.id, token, new Date(t0.getTime() + DAY))).toEqual({ athleteId: athlete.id });
    expect(await getLinkedAthleteProfile(handle.db, person.id)).toEqual({
      id: athlete.id,
      name: "Ines",
      surname: "Invited",
      modality: "",
      managedBy: { self: false, name: coach.name },
    });
    expect((await athleteLinkStatus(handle.db, coach.id, athlete.id)).linked).toBe(true);

    // Reuse: the link is spent, for the same person and anyone else.
    expect(await findInvitation(handle.db, token)).toMatchObject({ status: "used" });
    await expect(acceptInvitation(handle.db, person.id, token)).rejects.toMatchObject({
      code: "conflict",
      message: "This invitation has already been used.",
    });
  });

  it("refuses an expired link, and a link that is not ours", async () => {
    const { coach, athlete } = await coachWithAthlete();
    const person = await newUser("late");
    const t0 = new Date("2026-05-02T10:00:00Z");
    const token = tokenOf((await inviteAthlete(handle.db, coach.id, { athleteId: athlete.id, email: person.email }, t0)).path);
    const afterExpiry = new Date(t0.getTime() + INVITATION_TTL_DAYS * DAY + 1000);
    expect(await findInvitation(handle.db, token, afterExpiry)).toMatchObject({ status: "expired" });
    await expect(acceptInvitation(handle.db, person.id, token, afterExpiry)).rejects.toMatchObject({
      code: "conflict",
      message: "This invitation has expired. Ask for a new one.",
    });
    expect(await getLinkedAthleteProfile(handle.db, person.id)).toBeNull();
    // Just before expiry it still works.
    expect(await acceptInvitation(handle.db, person.id, token, new Date(t0.getTime() + INVITATION_TTL_DAYS * DAY - 1000))).toEqual({
      athleteId: athlete.id,
    });

    expect(await findInvitation(handle.db, "svcinv_" + "A".repeat(43))).toBeNull();
    expect(await findInvitation(handle.db, "not-a-token\u0000")).toBeNull();
    await expect(acceptInvitation(handle.db, person.id, "svcinv_" + "B".repeat(43))).rejects.toMatchObject({ code: "not_found" });
  });

  it("refuses the wrong account: only the invited email may accept, and the link stays usable for it", async () => {
    const { coach, athlete } = await coachWithAthlete();
    const invited = await newUser("invited");
    const stranger = await newUser("stranger");
    const token = tokenOf((await inviteAthlete(handle.db, coach.id, { athleteId: athlete.id, email: invited.email })).path);
    await expect(acceptInvitation(handle.db, stranger.id, token)).rejects.toMatchObject({ code: "forbidden" });
    await expect(acceptInvitation(handle.db, coach.id, token)).rejects.toMatchObject({ code: "forbidden" });
    expect(await getLinkedAthleteProfile(handle.db, stranger.id)).toBeNull();
    expect(await acceptInvitation(handle.db, invited.id, token)).toEqual({ athleteId: athlete.id });
  });

  it("only the record's manager invites; a newer invitation or a withdrawal ends the older link", async () => {
    const { coach, athlete } = await coachWithAthlete();
    const other = await newUser("other-coach");
    const person = await newUser("person");
    await expect(inviteAthlete(handle.db, other.id, { athleteId: athlete.id, email: person.email })).rejects.toMatchObject({
      code: "not_found",
    });
    await expect(inviteAthlete(handle.db, coach.id, { athleteId: athlete.id, email: "not an email" })).rejects.toMatchObject({
      code: "invalid",
    });
    const first = tokenOf((await inviteAthlete(handle.db, coach.id, { athleteId: athlete.id, email: person.email })).path);
    const second = tokenOf((await inviteAthlete(handle.db, coach.id, { athleteId: athlete.id, email: person.email })).path);
    await expect(acceptInvitation(handle.db, person.id, first)).rejects.toMatchObject({
      code: "conflict",
      message: "This invitation was withdrawn. Ask for a new one.",
    });
    await withdrawInvitations(handle.db, coach.id, athlete.id);
    await expect(acceptInvitation(handle.db, person.id, second)).rejects.toMatchObject({ code: "conflict" });
    expect((await athleteLinkStatus(handle.db, coach.id, athlete.id)).pending).toBeNull();
  });

  it("two accepts of one link at once: exactly one wins", async () => {
    const { coach, athlete } = await coachWithAthlete();
    const person = await newUser("racer");
    const token = tokenOf((await inviteAthlete(handle.db, coach.id, { athleteId: athlete.id, email: person.email })).path);
    const outcomes = await Promise.allSettled([
      acceptInvitation(handle.db, person.id, token),
      acceptInvitation(handle.db, person.id, token),
    ]);
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
  });
});

describe("unlinking and the own profile", () => {
  it("either side unlinks; the sessions the person paddled in are theirs only while linked", async () => {
    const { coach, athlete } = await coachWithAthlete();
    const person = await newUser("paddler");
    const track = await createTrack(handle.db, coach.id, { name: "Link basin" });
    const [session] = await handle.db
      .insert(results)
      .values({
        ownerUserId: coach.id,
        trackId: track.id,
        vesselId: 1,
        categoryId: 1,
        paceId: 1,
        createdVia: "demo",
        date: "2026-05-03",
        timeOfDay: "10:00:00+00:00",
        startAt: new Date("2026-05-03T10:00:00Z"),
        utcOffsetMin: 0,
        distanceM: 200,
        durationMs: 50_000,
        targetDistanceM: 200,
      })
      .returning({ id: results.id });
    await handle.db.insert(resultCrew).values({ resultId: session.id, seat: 1, athleteId: athlete.id });
    const personSessions = async () =>
      (await handle.db.select({ id: results.id }).from(results).where(sessionOfSubject(person.id))).map((r) => r.id);
    expect(await personSessions()).toEqual([]);

    const link = async () =>
      acceptInvitation(
        handle.db,
        person.id,
        tokenOf((await inviteAthlete(handle.db, coach.id, { athleteId: athlete.id, email: person.email })).path),
      );
    await link();
    expect(await personSessions()).toEqual([session.id]);
    await expect(inviteAthlete(handle.db, coach.id, { athleteId: athlete.id, email: person.email })).rejects.toMatchObject({
      code: "conflict",
    });

    // The person unlinks.
    await unlinkAthlete(handle.db, person.id, athlete.id);
    expect(await personSessions()).toEqual([]);
    expect(await getLinkedAthleteProfile(handle.db, person.id)).toBeNull();

    // Linked again, then the coach unlinks; a stranger cannot.
    await link();
    const stranger = await newUser("unlinker");
    await expect(unlinkAthlete(handle.db, stranger.id, athlete.id)).rejects.toMatchObject({ code: "not_found" });
    await unlinkAthlete(handle.db, coach.id, athlete.id);
    const [row] = await handle.db.select({ userId: athletes.userId }).from(athletes).where(eq(athletes.id, athlete.id));
    expect(row.userId).toBeNull();
    expect(await personSessions()).toEqual([]);
    await expect(unlinkAthlete(handle.db, coach.id, athlete.id)).rejects.toMatchObject({ code: "not_found" });
  });

  it("a person creates their own athlete profile, once; an account with a profile cannot accept another record", async () => {
    const person = await newUser("self");
    const own = await createOwnAthleteProfile(handle.db, person.id, { name: "Sam", surname: "Self", modality: "Kayak" });
    expect(await getLinkedAthleteProfile(handle.db, person.id)).toEqual({
      id: own.id,
      name: "Sam",
      surname: "Self",
      modality: "Kayak",
      managedBy: { self: true },
    });
    await expect(createOwnAthleteProfile(handle.db, person.id, { name: "Sam again" })).rejects.toMatchObject({ code: "conflict" });
    const { coach, athlete } = await coachWithAthlete();
    const token = tokenOf((await inviteAthlete(handle.db, coach.id, { athleteId: athlete.id, email: person.email })).path);
    await expect(acceptInvitation(handle.db, person.id, token)).rejects.toMatchObject({ code: "conflict" });
    // The invitation is not spent by the refusal: after unlinking the own profile it can be accepted.
    await unlinkAthlete(handle.db, person.id, own.id);
    expect(await acceptInvitation(handle.db, person.id, token)).toEqual({ athleteId: athlete.id });
  });
});
