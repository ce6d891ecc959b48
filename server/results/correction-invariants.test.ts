import { asc, eq } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { countEvents, ownerWithListeningApp } from "../../test/support/event-counter";
import { openTestDb, usePrivateDatabase } from "../../test/support/test-db";
import { vesselIdOf } from "../../test/support/trainings";
import { createAthlete } from "../athletes/athletes";
import { getBlob } from "../blobs/blob-store";
import type { Db, DbHandle } from "../db/client";
import { athleteLoads, resultDerived, results, resultStrokes } from "../db/schema";
import { encodeSvc } from "../svc/container";
import { loadKeyring } from "../svc/keyring";
import { processSvc } from "../svc/process/process";
import { simulateSession } from "../svc/simulator/simulate";
import { createTrack } from "../tracks/tracks";
import type { SessionUser } from "../users/users";
import { correctResult, type Correction } from "./correct-result";
import { resultBlobPrefix } from "./delete-result";
import { replaceResultFigures } from "./result-figures";
import { uploadResult } from "./upload-result";

/**
 * A session's corrections (docs/web-app.md "Corrections": boat class, track,
 * category, pace, crew, competition, description, important) never change
 * a derived figure behind its owner's back: any sequence of them, followed by
 * the correction back to what was uploaded, leaves the derived row, the
 * strokes and the effort's facts identical field for field; a correction
 * that keeps the boat class changes no derived figure at all; processing
 * again with the same core changes nothing; each correction is one
 * session.updated (docs/trainings.md "Corrections are undone exactly").
 */
const keyring = loadKeyring({});
let handle: DbHandle;
let owner: SessionUser;
let applicationId: number;
let dropPrivateDatabase: () => Promise<void> = async () => {};
let sessionId: number;
let original: Correction;
const ids = { k1: 0, k2: 0, tracks: [] as number[], athletes: [] as number[] };

beforeAll(async () => {
  dropPrivateDatabase = await usePrivateDatabase();
  handle = await openTestDb();
  ({ owner, applicationId } = await ownerWithListeningApp(handle.db, ["openid", "sessions:read"], ["session.updated"]));
  ids.k1 = await vesselIdOf(handle.db, "K1");
  ids.k2 = await vesselIdOf(handle.db, "K2");
  for (const name of ["Basin", "River"]) ids.tracks.push((await createTrack(handle.db, owner.id, { name })).id);
  for (const name of ["Ana", "Bea", "Cleo"])
    ids.athletes.push((await createAthlete(handle.db, owner.id, { name, subscriptionActiveUntil: "2099-01-01" })).id);
  // A short K2 recording (200 m), uploaded as a K2 with two named paddlers.
  const bytes = Buffer.from(encodeSvc(simulateSession({ vessel: "K2", distanceM: 200, seed: 9201 }).content, keyring));
  const metadata = {
    distance: 200,
    vessel_id: ids.k2,
    track_id: ids.tracks[0],
    category_id: 1,
    pace_id: 1,
    athletes: ids.athletes.slice(0, 2),
  };
  sessionId = (
    await uploadResult(
      handle.db,
      { user: owner, createdVia: "web", keyPairId: null, file: { filename: "k2.svc", bytes }, metadata: JSON.stringify(metadata) },
      { keyring },
    )
  ).id;
  original = {
    vesselId: ids.k2,
    trackId: ids.tracks[0],
    categoryId: 1,
    paceId: 1,
    crew: ids.athletes.slice(0, 2).map((athleteId) => ({ athleteId })),
    competition: "",
    description: "",
    important: false,
  };
}, 60_000);
afterAll(async () => {
  await handle.close();
  await dropPrivateDatabase();
});

/** What processing derived for the session: the effort's facts, the derived row (not its replay artifact), every stroke. */
async function derived(db: Db = handle.db) {
  const [facts] = await db
    .select({
      date: results.date,
      timeOfDay: results.timeOfDay,
      startAt: results.startAt,
      utcOffsetMin: results.utcOffsetMin,
      distanceM: results.distanceM,
      durationMs: results.durationMs,
      svcKeyId: results.svcKeyId,
    })
    .from(results)
    .where(eq(results.id, sessionId));
  const [{ replayBlobKey: _artifact, ...row }] = await db.select().from(resultDerived).where(eq(resultDerived.resultId, sessionId));
  const strokes = await db
    .select()
    .from(resultStrokes)
    .where(eq(resultStrokes.resultId, sessionId))
    .orderBy(asc(resultStrokes.strokeIndex));
  // Each named paddler's training load (docs/load.md): ids are not figures, a refresh renews them.
  const loads = (await db.select().from(athleteLoads).where(eq(athleteLoads.resultId, sessionId)).orderBy(asc(athleteLoads.athleteId))).map(
    ({ id: _id, ...load }) => load,
  );
  return JSON.parse(JSON.stringify({ facts, row, strokes, loads })) as { strokes: unknown[] } & Record<string, unknown>;
}

const updatedEvents = () => countEvents(handle.db, applicationId, "session.updated", ["session_id", sessionId]);

/** A correction the form could send: a K1 has one seat, a K2 two; a seat is one of the club's paddlers or someone typed by hand. */
const ZCorrection: fc.Arbitrary<Correction> = fc
  .record({
    k2: fc.boolean(),
    track: fc.nat({ max: 1 }),
    categoryId: fc.constantFrom(1, 2),
    paceId: fc.constantFrom(1, 3),
    seats: fc.uniqueArray(fc.nat({ max: 3 }), { minLength: 2, maxLength: 2 }),
    competition: fc.constantFrom("", "Club trials"),
    description: fc.constantFrom("", "headwind"),
    important: fc.boolean(),
  })
  .map((c) => ({
    vesselId: c.k2 ? ids.k2 : ids.k1,
    trackId: ids.tracks[c.track],
    categoryId: c.categoryId,
    paceId: c.paceId,
    // At most half the crew external (more needs a privilege): a K1's paddler is always one of the club's.
    crew: (c.k2 ? c.seats : [c.seats[0] % 3]).map((k) =>
      k < 3 ? { athleteId: ids.athletes[k] } : { name: "Guest", surname: "Paddler", weightKg: 80 },
    ),
    competition: c.competition,
    description: c.description,
    important: c.important,
  }));

describe("session corrections are undone exactly", () => {
  it("any sequence of corrections and the correction back leave every derived figure as uploaded; one event each", async () => {
    const uploaded = await derived();
    expect(uploaded.strokes.length).toBeGreaterThan(20);
    await fc.assert(
      fc.asyncProperty(fc.array(ZCorrection, { minLength: 1, maxLength: 3 }), async (sequence) => {
        const events = await updatedEvents();
        let vesselId = original.vesselId;
        for (const [k, correction] of sequence.entries()) {
          const before = await derived();
          const outcome = await correctResult(handle.db, owner, sessionId, correction, { keyring });
          expect(outcome.reprocessed).toBe(correction.vesselId !== vesselId);
          // A correction that keeps the boat class changes no derived figure.
          if (!outcome.reprocessed) expect({ ...(await derived()), loads: null }).toEqual({ ...before, loads: null });
          vesselId = correction.vesselId;
          expect(await updatedEvents()).toBe(events + k + 1);
        }
        await correctResult(handle.db, owner, sessionId, original, { keyring });
        expect(await updatedEvents()).toBe(events + sequence.length + 1);
        expect(await derived()).toEqual(uploaded);
      }),
      { numRuns: 8, interruptAfterTimeLimit: 20_000 },
    );
  });

  it("processing the stored original again with the same core changes nothing", async () => {
    const before = await derived();
    const original = await getBlob(handle.db, `${resultBlobPrefix(sessionId)}original.svc`);
    const processed = processSvc(original!.bytes, { vessel: "K2", distanceM: 200 }, keyring);
    await handle.db.transaction((tx) => replaceResultFigures(tx as unknown as Db, sessionId, processed));
    expect(await derived()).toEqual(before);
  });
});
