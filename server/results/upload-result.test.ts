import { gunzipSync } from "node:zlib";
import { randomUUID } from "node:crypto";
import { count, eq, like, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAthlete } from "../athletes/athletes";
import { getBlob } from "../blobs/blob-store";
import type { DbHandle } from "../db/client";
import { blobs, eventOutbox, jobRuns, resultCrew, resultDerived, results, resultStrokes } from "../db/schema";
import { openTestDb } from "../../test/support/test-db";
import { drainEmbeddedRuns } from "../jobs/embedded-runner";
import { replayBlobKey } from "../replay/build-replay-artifact";
import { encodeSvc } from "../svc/container";
import { loadKeyring } from "../svc/keyring";
import { simulateSession } from "../svc/simulator/simulate";
import { createTrack } from "../tracks/tracks";
import { createUser, type SessionUser } from "../users/users";
import { deleteResult } from "./delete-result";
import { getResultDetail } from "./result-detail";
import { uploadResult } from "./upload-result";

const keyring = loadKeyring({});
let handle: DbHandle;
let coach: SessionUser;
let trackId: number;
let athleteIds: number[];
const k2File = () => Buffer.from(encodeSvc(simulateSession({ vessel: "K2", distanceM: 200, seed: 42 }).content, keyring));

beforeAll(async () => {
  handle = await openTestDb();
  coach = await createUser(handle.db, { name: "Coach", email: `coach-${randomUUID()}@test.example`, password: "long enough password" });
  trackId = (await createTrack(handle.db, coach.id, { name: "Basin" })).id;
  athleteIds = [];
  for (const name of ["Ana", "Bea"])
    athleteIds.push((await createAthlete(handle.db, coach.id, { name, subscriptionActiveUntil: "2099-01-01" })).id);
});
afterAll(async () => {
  await handle.close();
});

const metadata = (overrides: Record<string, unknown> = {}) =>
  JSON.stringify({
    distance: 200,
    vessel_id: 2,
    track_id: trackId,
    category_id: 1,
    pace_id: 1,
    athletes: athleteIds,
    meteo: { wind_speed: 2.5, air_temperature: 18 },
    ...overrides,
  });

describe("upload", () => {
  it("stores the result, crew, strokes, derived data and the original file unchanged, then builds the replay artifact", async () => {
    const bytes = k2File();
    const uploaded = await uploadResult(
      handle.db,
      { user: coach, createdVia: "api", keyPairId: null, file: { filename: "morning.svc", bytes }, metadata: metadata() },
      { keyring },
    );
    expect(uploaded).toMatchObject({
      dist: 200,
      vessel: { type: "K2", npeople: 2 },
      track: { id: trackId },
      athletes_count: 2,
      software_version: "3.1.7",
    });
    const detail = await getResultDetail(handle.db, coach.id, uploaded.id);
    expect(detail.crew.map((c) => c.athleteId)).toEqual(athleteIds);
    expect(detail.weather?.windSpeedMS).toBe(2.5);
    expect(detail.strokes.length).toBeGreaterThan(70);
    expect((await getBlob(handle.db, `results/${uploaded.id}/original.svc`))!.bytes.equals(bytes)).toBe(true);

    await drainEmbeddedRuns(handle.db, { retryBackoff: () => 0 });
    const artifact = await getBlob(handle.db, replayBlobKey(uploaded.id));
    const replay = JSON.parse(gunzipSync(artifact!.bytes).toString());
    expect(replay).toMatchObject({ schema: 1, model_class: "K2", quantization: { position_m: 0.01, orientation_deg: 0.1 } });
    expect(replay.frame_count).toBe(replay.frames.length);
    expect(Object.keys(replay).sort()).toEqual(["frame_count", "frames", "model_class", "quantization", "schema"]);
    const [derived] = await handle.db
      .select({ key: resultDerived.replayBlobKey })
      .from(resultDerived)
      .where(eq(resultDerived.resultId, uploaded.id));
    expect(derived.key).toBe(replayBlobKey(uploaded.id));

    await deleteResult(handle.db, coach, uploaded.id);
    expect(await handle.db.select().from(results).where(eq(results.id, uploaded.id))).toEqual([]);
    expect(await handle.db.select().from(resultStrokes).where(eq(resultStrokes.resultId, uploaded.id))).toEqual([]);
    expect(
      await handle.db
        .select({ key: blobs.key })
        .from(blobs)
        .where(like(blobs.key, `results/${uploaded.id}/%`)),
    ).toEqual([]);
  });

  it("refuses an invalid file with 'unprocessable' and writes nothing", async () => {
    const before = await handle.db.select({ n: count() }).from(results).where(eq(results.ownerUserId, coach.id));
    await expect(
      uploadResult(
        handle.db,
        {
          user: coach,
          createdVia: "api",
          keyPairId: null,
          file: { filename: "x.svc", bytes: Buffer.from("SVC1 but not really a file at all, no no no no no no no no no no no no no") },
          metadata: metadata(),
        },
        { keyring },
      ),
    ).rejects.toMatchObject({ code: "unprocessable" });
    expect(await handle.db.select({ n: count() }).from(results).where(eq(results.ownerUserId, coach.id))).toEqual(before);
  });

  it("rolls everything back when the transaction fails after every write", async () => {
    let resultId = 0;
    await expect(
      uploadResult(
        handle.db,
        { user: coach, createdVia: "api", keyPairId: null, file: { filename: "x.svc", bytes: k2File() }, metadata: metadata() },
        {
          keyring,
          afterWrites: async (tx, id) => {
            resultId = id;
            // Everything is written inside the transaction at this point...
            expect((await tx.select().from(resultStrokes).where(eq(resultStrokes.resultId, id))).length).toBeGreaterThan(0);
            expect(await getBlob(tx, `results/${id}/original.svc`)).not.toBeNull();
            throw new Error("simulated failure after the last write");
          },
        },
      ),
    ).rejects.toThrow("simulated failure");
    // ...and nothing of it is left afterwards.
    expect(resultId).toBeGreaterThan(0);
    expect(await handle.db.select().from(results).where(eq(results.id, resultId))).toEqual([]);
    expect(await handle.db.select().from(resultCrew).where(eq(resultCrew.resultId, resultId))).toEqual([]);
    expect(await handle.db.select().from(resultStrokes).where(eq(resultStrokes.resultId, resultId))).toEqual([]);
    expect(await getBlob(handle.db, `results/${resultId}/original.svc`)).toBeNull();
    // The replay job was queued in the same transaction: it is gone too (other test files may queue their own meanwhile).
    const events = await handle.db
      .select({ id: eventOutbox.id })
      .from(eventOutbox)
      .where(sql`${eventOutbox.data}->>'resultId' = ${String(resultId)}`);
    expect(events).toEqual([]);
    const runs = await handle.db
      .select({ id: jobRuns.id })
      .from(jobRuns)
      .where(sql`${jobRuns.event}->'data'->>'resultId' = ${String(resultId)}`);
    expect(runs).toEqual([]);
  });

  it("applies the crew rules: size, subscriptions, externals", async () => {
    const upload = (meta: string, user = coach) =>
      uploadResult(
        handle.db,
        { user, createdVia: "api", keyPairId: null, file: { filename: "x.svc", bytes: k2File() }, metadata: meta },
        { keyring },
      );
    await expect(upload(metadata({ athletes: [athleteIds[0]] }))).rejects.toMatchObject({
      code: "invalid",
      message: expect.stringMatching(/2 entries/),
    });
    await expect(upload(metadata({ athletes: [athleteIds[0], athleteIds[0]] }))).rejects.toMatchObject({
      message: expect.stringMatching(/repeated/),
    });
    await expect(upload(metadata({ athletes: [{ name: "Ext" }, { name: "Ext 2" }] }))).rejects.toMatchObject({
      code: "forbidden",
      message: expect.stringMatching(/more than half/),
    });
    const expired = await createAthlete(handle.db, coach.id, { name: "Old", subscriptionActiveUntil: "2020-01-01" });
    await expect(upload(metadata({ athletes: [athleteIds[0], expired.id] }))).rejects.toMatchObject({
      code: "forbidden",
      message: expect.stringMatching(/no active subscription/),
    });
    const ok = await upload(metadata({ athletes: [athleteIds[0], { name: "Guest", surname: "Rower", weight: 70 }] }));
    expect(ok.athletes_count).toBe(1);
  });

  it("refuses the same file from the same owner twice, naming the existing result, even when two uploads race", async () => {
    const owner = await createUser(handle.db, {
      name: "Twice",
      email: `twice-${randomUUID()}@test.example`,
      password: "long enough password",
    });
    const track = await createTrack(handle.db, owner.id, { name: "Twice basin" });
    const bytes = Buffer.from(encodeSvc(simulateSession({ vessel: "K1", distanceM: 200, seed: 4242 }).content, keyring));
    const meta = JSON.stringify({
      distance: 200,
      vessel_id: 1,
      track_id: track.id,
      category_id: 1,
      pace_id: 1,
      athletes: [{ name: "Solo" }],
    });
    const privileged = { ...owner, unlimitedExternals: true };
    const upload = (filename: string) =>
      uploadResult(
        handle.db,
        { user: privileged, createdVia: "api", keyPairId: null, file: { filename, bytes }, metadata: meta },
        { keyring },
      );

    const [a, b] = await Promise.allSettled([upload("a.svc"), upload("b.svc")]);
    const won = [a, b].filter((r) => r.status === "fulfilled");
    const lost = [a, b].filter((r) => r.status === "rejected");
    expect(won).toHaveLength(1);
    const firstId = (won[0] as PromiseFulfilledResult<{ id: number }>).value.id;
    expect((lost[0] as PromiseRejectedResult).reason).toMatchObject({ code: "conflict", details: { existing_result_id: firstId } });

    await expect(upload("again.svc")).rejects.toMatchObject({
      code: "conflict",
      message: `this file was already uploaded: it is result ${firstId}`,
      fieldErrors: { file: [expect.any(String)] },
    });
    const [{ n }] = await handle.db.select({ n: count() }).from(results).where(eq(results.ownerUserId, owner.id));
    expect(n).toBe(1);

    // Another owner may store the same file; the owner may again once the first result is deleted.
    const other = await createUser(handle.db, {
      name: "Other",
      email: `other-${randomUUID()}@test.example`,
      password: "long enough password",
    });
    const otherTrack = await createTrack(handle.db, other.id, { name: "Other basin" });
    const otherMeta = JSON.stringify({
      distance: 200,
      vessel_id: 1,
      track_id: otherTrack.id,
      category_id: 1,
      pace_id: 1,
      athletes: [{ name: "Solo" }],
    });
    await uploadResult(
      handle.db,
      {
        user: { ...other, unlimitedExternals: true },
        createdVia: "web",
        keyPairId: null,
        file: { filename: "a.svc", bytes },
        metadata: otherMeta,
      },
      { keyring },
    );
    await deleteResult(handle.db, privileged, firstId);
    expect((await upload("after-delete.svc")).id).not.toBe(firstId);
  });

  it("refuses NUL characters and out-of-range ids in the metadata before any query", async () => {
    const upload = (overrides: Record<string, unknown>) =>
      uploadResult(
        handle.db,
        { user: coach, createdVia: "api", keyPairId: null, file: { filename: "x.svc", bytes: k2File() }, metadata: metadata(overrides) },
        { keyring },
      );
    for (const [overrides, message] of [
      [{ competition: "a\u0000b" }, /^competition must not contain NUL/],
      [{ description: "\ud800" }, /^description must not contain NUL characters or unpaired surrogates/],
      [{ athletes: [athleteIds[0], { name: "N\u0000" }] }, /^athletes\[1\]\.name must not contain/],
      [{ vessel_id: 2 ** 53 }, /^vessel_id must be a positive integer, at most 2147483647/],
      [{ athletes: [athleteIds[0], 4294967296] }, /^athletes\[1\] must be an athlete id/],
      [{ athletes: [athleteIds[0], { id: 2147483648 }] }, /^athletes\[1\]\.id must be a positive integer/],
    ] as const) {
      await expect(upload(overrides), JSON.stringify(overrides)).rejects.toMatchObject({
        code: "invalid",
        message: expect.stringMatching(message),
      });
    }
  });
});
