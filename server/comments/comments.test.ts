import { randomUUID } from "node:crypto";
import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createProcessedTraining } from "../../test/support/trainings";
import { openTestDb } from "../../test/support/test-db";
import type { DbHandle } from "../db/client";
import { athletes, resultCrew, results, teamMemberships, teams } from "../db/schema";
import { createTrack } from "../tracks/tracks";
import { appRouter } from "../trpc/root";
import { createUser, getSessionUser } from "../users/users";

/**
 * Comments and coaches' private notes through the web app's tRPC router
 * (docs/comments.md): who may write, edit and delete, moments checked against
 * the effort, unread counts per person, and private notes no athlete reaches.
 */
let handle: DbHandle;
beforeAll(async () => {
  handle = await openTestDb();
});
afterAll(async () => {
  await handle.close();
});

async function person(label: string) {
  const user = await createUser(handle.db, {
    name: label,
    email: `cm-${label}-${randomUUID()}@test.example`,
    password: "correct horse battery",
  });
  const session = (await getSessionUser(handle.db, user.id))!;
  return { id: user.id, user: session, api: appRouter.createCaller({ db: handle.db, user: session }) };
}

const codeOf = async (promise: Promise<unknown>) => {
  try {
    await promise;
    return "OK";
  } catch (error) {
    return error instanceof TRPCError ? error.code : String(error);
  }
};

/** Coach Carla manages Ada (linked) and Eli (linked); Dora coaches their team; a stranger sees nothing. A K2 of Ada and Eli, Ada's training. */
async function world() {
  const [carla, dora, ada, eli, stranger] = await Promise.all(["carla", "dora", "ada", "eli", "stranger"].map(person));
  const [adaRec, eliRec] = await handle.db
    .insert(athletes)
    .values([
      { ownerUserId: carla.id, userId: ada.id, name: "Ada", surname: "A" },
      { ownerUserId: carla.id, userId: eli.id, name: "Eli", surname: "E" },
    ])
    .returning({ id: athletes.id });
  const [team] = await handle.db.insert(teams).values({ name: "Talk club", ownerUserId: carla.id }).returning({ id: teams.id });
  await handle.db.insert(teamMemberships).values([
    { teamId: team.id, role: "coach", userId: carla.id },
    { teamId: team.id, role: "coach", userId: dora.id },
    { teamId: team.id, role: "athlete", athleteId: adaRec.id },
    { teamId: team.id, role: "athlete", athleteId: eliRec.id },
  ]);
  const track = await createTrack(handle.db, carla.id, { name: "Talk basin" });
  const [session] = await handle.db
    .insert(results)
    .values({
      ownerUserId: carla.id,
      trackId: track.id,
      vesselId: 2,
      categoryId: 1,
      paceId: 1,
      createdVia: "demo",
      date: "2026-10-01",
      timeOfDay: "10:00:00+00:00",
      startAt: new Date("2026-10-01T10:00:00Z"),
      utcOffsetMin: 0,
      distanceM: 500,
      durationMs: 100_000,
      targetDistanceM: 500,
    })
    .returning({ id: results.id });
  await handle.db.insert(resultCrew).values([
    { resultId: session.id, seat: 1, athleteId: adaRec.id },
    { resultId: session.id, seat: 2, athleteId: eliRec.id },
  ]);
  return { carla, dora, ada, eli, stranger, adaRec: adaRec.id, eliRec: eliRec.id, session: { kind: "session" as const, id: session.id } };
}

describe("comments", () => {
  it("the coach and the crew write, each edits and deletes only their own; a stranger gets not-found", async () => {
    const w = await world();
    const { id } = await w.carla.api.comments.add({
      thread: w.session,
      body: "Strong start",
      moment: { kind: "split", index: 1, count: 4 },
    });
    await w.ada.api.comments.add({ thread: w.session, body: "Felt heavy after 300" });
    await w.dora.api.comments.add({ thread: w.session, body: "Agreed" });
    const seen = await w.eli.api.comments.list(w.session);
    expect(seen.map((c) => [c.authorName, c.body, c.mine])).toEqual([
      ["carla", "Strong start", false],
      ["ada", "Felt heavy after 300", false],
      ["dora", "Agreed", false],
    ]);
    expect(seen[0].moment).toEqual({ kind: "split", index: 1, count: 4 });

    // Not yours is the same answer as absent.
    expect(await codeOf(w.ada.api.comments.edit({ id, body: "changed" }))).toBe("NOT_FOUND");
    expect(await codeOf(w.ada.api.comments.delete({ id }))).toBe("NOT_FOUND");
    expect(await codeOf(w.ada.api.comments.delete({ id: 2_000_000_000 }))).toBe("NOT_FOUND");
    await w.carla.api.comments.edit({ id, body: "Strong start, good rate", moment: { kind: "time", seconds: 12.34 } });
    const edited = (await w.ada.api.comments.list(w.session))[0];
    expect(edited).toMatchObject({ body: "Strong start, good rate", edited: true, moment: { kind: "time", seconds: 12.3 } });
    await w.carla.api.comments.delete({ id });
    expect((await w.ada.api.comments.list(w.session)).map((c) => c.body)).toEqual(["Felt heavy after 300", "Agreed"]);

    expect(await codeOf(w.stranger.api.comments.list(w.session))).toBe("NOT_FOUND");
    expect(await codeOf(w.stranger.api.comments.add({ thread: w.session, body: "hi" }))).toBe("NOT_FOUND");
    const strangersOwn = await w.ada.api.comments.list(w.session);
    expect(await codeOf(w.stranger.api.comments.delete({ id: strangersOwn[0].id }))).toBe("NOT_FOUND");
    expect(await codeOf(w.ada.api.comments.add({ thread: w.session, body: "   " }))).toBe("BAD_REQUEST");
  });

  it("moments are checked against the effort: splits within their count, times within the session, work sets within the training", async () => {
    const w = await world();
    const add = (moment: unknown) => w.ada.api.comments.add({ thread: w.session, body: "here", moment: moment as never });
    expect(await codeOf(add({ kind: "split", index: 5, count: 4 }))).toBe("BAD_REQUEST");
    expect(await codeOf(add({ kind: "split", index: 1, count: 21 }))).toBe("BAD_REQUEST");
    expect(await codeOf(add({ kind: "time", seconds: 100.1 }))).toBe("BAD_REQUEST");
    expect(await codeOf(add({ kind: "time", seconds: -1 }))).toBe("BAD_REQUEST");
    expect(await codeOf(add({ kind: "set", work: 1 }))).toBe("BAD_REQUEST");
    expect(await codeOf(add({ kind: "time", seconds: 83.4 }))).toBe("OK");

    const training = await createProcessedTraining(handle.db, w.carla.user, {
      spec: "3x150m/30s",
      athleteId: w.adaRec,
      title: "Talk pieces",
    });
    const thread = { kind: "training" as const, id: training.id };
    const addSet = (moment: unknown) => w.ada.api.comments.add({ thread, body: "set", moment: moment as never });
    expect(await codeOf(addSet({ kind: "set", work: 3 }))).toBe("OK");
    expect(await codeOf(addSet({ kind: "set", work: 4 }))).toBe("BAD_REQUEST");
    expect(await codeOf(addSet({ kind: "split", index: 1, count: 4 }))).toBe("BAD_REQUEST");
    // Eli is not in this training: he may not see it, so may not comment on it.
    expect(await codeOf(w.eli.api.comments.add({ thread, body: "hi" }))).toBe("NOT_FOUND");
    expect((await w.dora.api.comments.list(thread)).map((c) => c.moment)).toEqual([{ kind: "set", work: 3 }]);
  });

  it("unread counts are per person: others' comments count until the thread is opened; 'mark all read' clears them", async () => {
    const w = await world();
    await w.carla.api.comments.add({ thread: w.session, body: "One" });
    await w.carla.api.comments.add({ thread: w.session, body: "Two" });
    await w.ada.api.comments.add({ thread: w.session, body: "Three" });
    expect(await w.carla.api.comments.unread()).toMatchObject({ total: 1, threads: [{ kind: "session", id: w.session.id, unread: 1 }] });
    expect(await w.eli.api.comments.unread()).toMatchObject({
      total: 3,
      threads: [{ id: w.session.id, unread: 3, latest: { authorName: "ada", excerpt: "Three" } }],
    });
    expect((await w.stranger.api.comments.unread()).total).toBe(0);
    await w.eli.api.comments.markRead(w.session);
    expect((await w.eli.api.comments.unread()).total).toBe(0);
    expect((await w.dora.api.comments.unread()).total).toBe(3);
    await w.dora.api.comments.markAllRead();
    expect((await w.dora.api.comments.unread()).total).toBe(0);
    expect(await codeOf(w.stranger.api.comments.markRead(w.session))).toBe("NOT_FOUND");
  });
});

describe("private notes", () => {
  it("the athletes' coaches read and write them; the athletes and strangers get not-found, on sessions, trainings and athletes", async () => {
    const w = await world();
    const training = await createProcessedTraining(handle.db, w.carla.user, { spec: "2x150m/30s", athleteId: w.adaRec, title: "Notes" });
    const targets = [w.session, { kind: "training" as const, id: training.id }, { kind: "athlete" as const, id: w.adaRec }];
    for (const target of targets) {
      const { id } = await w.carla.api.comments.addNote({ target, body: `Watch the catch (${target.kind})` });
      expect((await w.dora.api.comments.notes(target)).map((n) => [n.body, n.mine])).toEqual([[`Watch the catch (${target.kind})`, false]]);
      for (const outsider of [w.ada, w.eli, w.stranger]) {
        expect(await codeOf(outsider.api.comments.notes(target))).toBe("NOT_FOUND");
        expect(await codeOf(outsider.api.comments.addNote({ target, body: "mine" }))).toBe("NOT_FOUND");
        expect(await codeOf(outsider.api.comments.editNote({ id, body: "x" }))).toBe("NOT_FOUND");
        expect(await codeOf(outsider.api.comments.deleteNote({ id }))).toBe("NOT_FOUND");
      }
      // Another coach reads, but edits and deletes only their own.
      expect(await codeOf(w.dora.api.comments.editNote({ id, body: "x" }))).toBe("NOT_FOUND");
      await w.carla.api.comments.editNote({ id, body: "Watch the catch, better" });
      expect((await w.carla.api.comments.notes(target))[0]).toMatchObject({ body: "Watch the catch, better", edited: true, mine: true });
      await w.carla.api.comments.deleteNote({ id });
      expect(await w.dora.api.comments.notes(target)).toEqual([]);
    }
  });

  it("a coach who leaves the team loses the notes; an athlete who manages their own record is no coach of theirs", async () => {
    const w = await world();
    const target = { kind: "athlete" as const, id: w.eliRec };
    await w.carla.api.comments.addNote({ target, body: "Eli: taper" });
    expect(await w.dora.api.comments.notes(target)).toHaveLength(1);
    const { eq, and } = await import("drizzle-orm");
    await handle.db.delete(teamMemberships).where(and(eq(teamMemberships.userId, w.dora.id), eq(teamMemberships.role, "coach")));
    expect(await codeOf(w.dora.api.comments.notes(target))).toBe("NOT_FOUND");
    // Own profile: the record's manager is its own linked account.
    const [own] = await handle.db
      .insert(athletes)
      .values({ ownerUserId: w.stranger.id, userId: w.stranger.id, name: "Self", surname: "Made" })
      .returning({ id: athletes.id });
    expect(await codeOf(w.stranger.api.comments.notes({ kind: "athlete", id: own.id }))).toBe("NOT_FOUND");
  });
});
