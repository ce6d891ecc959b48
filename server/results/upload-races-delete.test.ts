import { createHash, randomUUID } from "node:crypto";
import { count, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAthlete } from "../athletes/athletes";
import { deleteAthlete } from "../athletes/delete-athlete";
import type { Db, DbHandle } from "../db/client";
import { athletes, blobs, devices, resultCrew, results, resultStrokes, tracks } from "../db/schema";
import { openTestDb } from "../../test/support/test-db";
import { rowsOf } from "../sessions/session-log";
import { encodeSvc } from "../svc/container";
import { loadKeyring } from "../svc/keyring";
import { simulateSession } from "../svc/simulator/simulate";
import { deleteTrack } from "../tracks/delete-track";
import { createTrack } from "../tracks/tracks";
import { createUser, type SessionUser } from "../users/users";
import { correctResult } from "./correct-result";
import { uploadResult } from "./upload-result";

/**
 * An upload (or correction) racing the owner's delete of its track or an
 * athlete of its crew (docs/web-app.md "Deleting"): whichever commits first
 * wins, and the other gets the domain's answer, never a foreign-key 500.
 */
const keyring = loadKeyring({});
/** Two connections can hold locks against each other only on a real Postgres; PGlite runs one transaction at a time. */
const onPostgres = Boolean(process.env.DATABASE_URL);
let handle: DbHandle;

beforeAll(async () => {
  handle = await openTestDb();
});
afterAll(async () => {
  await handle.close();
});

/** A fresh owner with a track and one athlete, and a K1 file of their own (the same bytes twice would be a repeated upload). */
async function world(seed: number) {
  const owner = await createUser(handle.db, {
    name: "Owner",
    email: `race-${randomUUID()}@test.example`,
    password: "long enough password",
  });
  const track = await createTrack(handle.db, owner.id, { name: "Race basin" });
  const athlete = await createAthlete(handle.db, owner.id, { name: "Rosa", surname: "Díaz", subscriptionActiveUntil: "2099-01-01" });
  const bytes = Buffer.from(encodeSvc(simulateSession({ vessel: "K1", distanceM: 200, seed }).content, keyring));
  const metadata = JSON.stringify({ distance: 200, vessel_id: 1, track_id: track.id, category_id: 1, pace_id: 1, athletes: [athlete.id] });
  const upload = (db: Db = handle.db, deps: Parameters<typeof uploadResult>[2] = {}) =>
    uploadResult(
      db,
      { user: owner, createdVia: "api", keyPairId: null, file: { filename: "race.svc", bytes }, metadata },
      { keyring, ...deps },
    );
  return { owner, track, athlete, bytes, upload };
}

/**
 * The database, except that `between` runs once just before the caller's
 * first transaction: after an upload's or correction's checks and processing,
 * before it stores anything — the window a concurrent delete can fall into.
 */
function withDeleteBeforeStore(db: Db, between: () => Promise<unknown>): Db {
  let pending = true;
  return new Proxy(db, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (property !== "transaction") return typeof value === "function" ? value.bind(target) : value;
      return async (...args: Parameters<Db["transaction"]>) => {
        if (pending) {
          pending = false;
          await between();
        }
        return target.transaction(...args);
      };
    },
  });
}

async function backendPid(db: Db): Promise<number> {
  return Number(rowsOf<{ pid: number }>(await db.execute(sql`select pg_backend_pid() as pid`))[0].pid);
}

/** Waits until some other connection is blocked by `pid`'s locks (Postgres only). */
async function untilBlockedBy(pid: number): Promise<void> {
  for (const started = Date.now(); Date.now() - started < 10_000;) {
    const [{ n }] = rowsOf<{ n: number }>(
      await handle.db.execute(sql`select count(*)::int as n from pg_stat_activity where ${pid} = any(pg_blocking_pids(pid))`),
    );
    if (Number(n) > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`nothing waited for backend ${pid}`);
}

/** Nothing of the owner's upload is left: no result, crew seat, stroke, device, or blob row naming the file. */
async function expectNothingStored(owner: SessionUser, bytes: Buffer) {
  const ownResults = handle.db.select({ id: results.id }).from(results).where(eq(results.ownerUserId, owner.id));
  expect(await ownResults).toEqual([]);
  expect(await handle.db.select({ n: count() }).from(resultCrew).where(inArray(resultCrew.resultId, ownResults))).toEqual([{ n: 0 }]);
  expect(await handle.db.select({ n: count() }).from(resultStrokes).where(inArray(resultStrokes.resultId, ownResults))).toEqual([{ n: 0 }]);
  expect(await handle.db.select({ id: devices.id }).from(devices).where(eq(devices.ownerUserId, owner.id))).toEqual([]);
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  expect(await handle.db.select({ key: blobs.key }).from(blobs).where(eq(blobs.sha256, sha256))).toEqual([]);
}

describe("an upload racing a delete of what it names", () => {
  it("answers 403 as for an unknown track when the track is deleted after its checks, and stores nothing", async () => {
    const w = await world(7101);
    const raced = await w
      .upload(withDeleteBeforeStore(handle.db, () => deleteTrack(handle.db, w.owner.id, w.track.id)))
      .catch((e: unknown) => e);
    expect(raced).toMatchObject({ name: "AppError", code: "forbidden", message: `track_id ${w.track.id} is unknown or not accessible` });
    // The very answer of an upload that names the track now that it is gone.
    const later = await w.upload().catch((e: unknown) => e);
    expect(later).toMatchObject({ code: "forbidden", message: (raced as Error).message });
    await expectNothingStored(w.owner, w.bytes);
  });

  it("answers 403 as for an unknown athlete when a crew member is deleted after its checks, and stores nothing", async () => {
    const w = await world(7102);
    const raced = await w
      .upload(withDeleteBeforeStore(handle.db, () => deleteAthlete(handle.db, w.owner.id, w.athlete.id)))
      .catch((e: unknown) => e);
    expect(raced).toMatchObject({ name: "AppError", code: "forbidden", message: `athlete ${w.athlete.id} not found or not accessible` });
    await expectNothingStored(w.owner, w.bytes);
  });

  it.runIf(onPostgres)("waits for a track delete holding its lock, then answers 403 and stores nothing", async () => {
    const w = await world(7103);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let pidKnown!: (pid: number) => void;
    const deleterPid = new Promise<number>((resolve) => (pidKnown = resolve));
    // The delete is done but not committed: its transaction holds the track's row lock until released.
    const deleting = handle.db.transaction(async (tx) => {
      await deleteTrack(tx as unknown as Db, w.owner.id, w.track.id);
      pidKnown(await backendPid(tx as unknown as Db));
      await released;
    });
    const pid = await deleterPid;
    // The upload's checks still see the track (the delete has not committed); its store then waits on the lock.
    const uploading = w.upload().catch((e: unknown) => e);
    await untilBlockedBy(pid);
    release();
    await deleting;
    expect(await uploading).toMatchObject({
      name: "AppError",
      code: "forbidden",
      message: `track_id ${w.track.id} is unknown or not accessible`,
    });
    await expectNothingStored(w.owner, w.bytes);
  });

  it("refuses the track delete with 409 when the upload's result commits first", async () => {
    const w = await world(7104);
    let deleting: Promise<unknown> = Promise.resolve();
    const uploaded = await w.upload(handle.db, {
      // Every row is written, not yet committed: the owner deletes the track now.
      afterWrites: async (tx) => {
        deleting = deleteTrack(handle.db, w.owner.id, w.track.id).then(
          () => "deleted",
          (e: unknown) => e,
        );
        if (onPostgres) await untilBlockedBy(await backendPid(tx));
      },
    });
    expect(await deleting).toMatchObject({
      name: "AppError",
      code: "conflict",
      message: expect.stringContaining("is the track of 1 session"),
    });
    expect(await handle.db.select({ id: tracks.id }).from(tracks).where(eq(tracks.id, w.track.id))).toEqual([{ id: w.track.id }]);
    expect(await handle.db.select({ trackId: results.trackId }).from(results).where(eq(results.id, uploaded.id))).toEqual([
      { trackId: w.track.id },
    ]);
  });

  it("deletes the athlete when the upload's result commits first, their new seat keeping the name as an external paddler", async () => {
    const w = await world(7105);
    let deleting: Promise<unknown> = Promise.resolve();
    const uploaded = await w.upload(handle.db, {
      afterWrites: async (tx) => {
        deleting = deleteAthlete(handle.db, w.owner.id, w.athlete.id).catch((e: unknown) => e);
        if (onPostgres) await untilBlockedBy(await backendPid(tx));
      },
    });
    expect(await deleting).toEqual({ sessions: 1 });
    expect(await handle.db.select({ id: athletes.id }).from(athletes).where(eq(athletes.id, w.athlete.id))).toEqual([]);
    expect(
      await handle.db
        .select({ athleteId: resultCrew.athleteId, name: resultCrew.externalName, surname: resultCrew.externalSurname })
        .from(resultCrew)
        .where(eq(resultCrew.resultId, uploaded.id)),
    ).toEqual([{ athleteId: null, name: "Rosa", surname: "Díaz" }]);
  });

  it("answers a correction 403 when its new track is deleted after its checks, and leaves the session as it was", async () => {
    const w = await world(7106);
    const { id } = await w.upload();
    const other = await createTrack(handle.db, w.owner.id, { name: "Other basin" });
    const correction = { vesselId: 1, trackId: other.id, categoryId: 1, paceId: 1, crew: [{ athleteId: w.athlete.id }] };
    const raced = await correctResult(
      withDeleteBeforeStore(handle.db, () => deleteTrack(handle.db, w.owner.id, other.id)),
      w.owner,
      id,
      correction,
      { keyring },
    ).catch((e: unknown) => e);
    expect(raced).toMatchObject({ name: "AppError", code: "forbidden", message: `track_id ${other.id} is unknown or not accessible` });
    expect(await handle.db.select({ trackId: results.trackId }).from(results).where(eq(results.id, id))).toEqual([{ trackId: w.track.id }]);
  });
});
