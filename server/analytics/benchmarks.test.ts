import { randomBytes, randomInt, randomUUID } from "node:crypto";
import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAthlete } from "../athletes/athletes";
import type { Db, DbHandle } from "../db/client";
import { benchmarkReleases, devices, results, users } from "../db/schema";
import { openTestDb } from "../../test/support/test-db";
import { getBlob } from "../blobs/blob-store";
import { replaceResultFigures } from "../results/result-figures";
import { uploadResult } from "../results/upload-result";
import { processSvc } from "../svc/process/process";
import type { SessionAudience } from "../sessions/session-boundary";
import { encodeSvc } from "../svc/container";
import { DEV_KEY_ID, DEV_MASTER_KEY } from "../svc/keyring";
import { simulateSession } from "../svc/simulator/simulate";
import type { Keyring } from "../svc/types";
import { createTrack } from "../tracks/tracks";
import { createUser, type SessionUser } from "../users/users";
import { BENCHMARK_MIN_PEOPLE, noiseScaleMs, percentileWindows, protectionLengthMs, BENCHMARK_WINDOW } from "./benchmark-figures";
import { BENCHMARK_RELEASE_PERIOD_MS, benchmarkCohort, benchmarkOf } from "./benchmarks";

/**
 * GET /analytics/benchmarks against the attacks of issue 23 §2
 * (docs/analytics.md "Benchmarks"): a cohort one account fabricates never
 * opens, and an attacker who knows every other member's best learns the
 * last one no better than the documented bound.
 */
let handle: DbHandle;
const made: number[] = [];
const cohorts: { vesselId: number; distance: number }[] = [];
beforeAll(async () => {
  handle = await openTestDb();
});
afterAll(async () => {
  // Rows of a counting cohort would outlive the run in a shared database: remove this file's accounts.
  if (made.length) {
    await handle.db.delete(results).where(inArray(results.ownerUserId, made)); // first: a crew seat holds its athlete record
    await handle.db.delete(users).where(inArray(users.id, made));
  }
  for (const c of cohorts)
    await handle.db
      .delete(benchmarkReleases)
      .where(and(eq(benchmarkReleases.vesselId, c.vesselId), eq(benchmarkReleases.distanceM, c.distance)));
  await handle.close();
});

/** The service's keyring with a production key beside the development key (the default accepts key 0). */
const PROD_KEY_ID = 7;
const keyring: Keyring = new Map([
  [DEV_KEY_ID, DEV_MASTER_KEY],
  [PROD_KEY_ID, new Uint8Array(randomBytes(32))],
]);
const data = (subjectId: number): SessionAudience => ({ subjectId, surface: "data", applicationId: 0 });

async function account(db: Db, label: string, kind: "person" | "demo" | "sandbox" = "person"): Promise<SessionUser> {
  const user = await createUser(db, { name: label, email: `${label}-${randomUUID()}@test.example`, password: "long enough password" });
  made.push(user.id);
  if (kind !== "person") await db.update(users).set({ accountKind: kind }).where(eq(users.id, user.id));
  return user;
}

/** A simulator file (the public one: `npm run svc -- simulate`), sealed with the key a unit would use. */
function svcFile(seed: number, keyId: number): Buffer {
  const { content } = simulateSession({ vessel: "K1", distanceM: 150, seed });
  return Buffer.from(encodeSvc({ ...content, header: { ...content.header, keyId } }, keyring));
}

async function upload(db: Db, user: SessionUser, o: { seed: number; keyId: number; athleteId?: number; trackId: number }) {
  // A K1 holds one athlete: the paddler's own record unless one is named.
  const athleteId = o.athleteId ?? (await createAthlete(db, user.id, { name: "Self", subscriptionActiveUntil: "2099-01-01" })).id;
  const metadata = JSON.stringify({ distance: 150, vessel_id: 1, track_id: o.trackId, category_id: 1, pace_id: 1, athletes: [athleteId] });
  return uploadResult(
    db,
    { user, createdVia: "api", keyPairId: null, file: { filename: `s${o.seed}.svc`, bytes: svcFile(o.seed, o.keyId) }, metadata },
    { keyring },
  );
}

describe("a benchmark cohort", () => {
  it("is not opened by one account's nine athlete records with development-key files; only accounts with their own production-sealed unit count", async () => {
    const db = handle.db;
    // The attacker signs up (the default role creates athletes and sessions) and fabricates nine paddlers.
    const attacker = await account(db, "bench-attacker");
    const track = (await createTrack(db, attacker.id, { name: "Attack basin" })).id;
    const fakes: { id: number; ms: number }[] = [];
    for (let i = 0; i < BENCHMARK_MIN_PEOPLE - 1; i++) {
      const athlete = await createAthlete(db, attacker.id, { name: `Fake ${i}`, subscriptionActiveUntil: "2099-01-01" });
      const stored = await upload(db, attacker, { seed: 9000 + i, keyId: DEV_KEY_ID, athleteId: athlete.id, trackId: track });
      fakes.push({ id: stored.id, ms: stored.duration });
    }
    // One real person records with their own unit under a production key.
    const real = await account(db, "bench-real");
    const realTrack = (await createTrack(db, real.id, { name: "Real basin" })).id;
    const realSession = await upload(db, real, { seed: 9100, keyId: PROD_KEY_ID, trackId: realTrack });
    const [stored] = await db.select({ key: results.svcKeyId }).from(results).where(eq(results.id, realSession.id));
    expect(stored.key).toBe(PROD_KEY_ID);

    // Ten "people" by the old count (nine athlete records and one owner); one by the new.
    const answer = await benchmarkOf(db, data(attacker.id), fakes[0].id);
    expect(answer).toMatchObject({ kind: "insufficient", reason: expect.stringContaining(`fewer than ${BENCHMARK_MIN_PEOPLE} people`) });
    const members = await benchmarkCohort(db, { vesselId: 1, distanceM: 150 });
    expect(members.map((m) => m.accountId)).toContain(real.id);
    expect(members.map((m) => m.accountId)).not.toContain(attacker.id);

    // The attacker's own production-sealed files count once for the account, whatever athletes they name.
    const athleteA = await createAthlete(db, attacker.id, { name: "Prod A", subscriptionActiveUntil: "2099-01-01" });
    const athleteB = await createAthlete(db, attacker.id, { name: "Prod B", subscriptionActiveUntil: "2099-01-01" });
    const a = await upload(db, attacker, { seed: 9201, keyId: PROD_KEY_ID, athleteId: athleteA.id, trackId: track });
    const b = await upload(db, attacker, { seed: 9202, keyId: PROD_KEY_ID, athleteId: athleteB.id, trackId: track });
    const afterProd = await benchmarkCohort(db, { vesselId: 1, distanceM: 150 });
    expect(afterProd.filter((m) => m.accountId === attacker.id)).toEqual([
      { accountId: attacker.id, bestMs: Math.min(a.duration, b.duration) },
    ]);

    // Demo and sandbox accounts, disabled ones, a unit registered to another account, and results of unknown provenance do not count.
    const demo = await account(db, "bench-demo", "demo");
    const sandbox = await account(db, "bench-sandbox", "sandbox");
    const disabled = await account(db, "bench-disabled");
    for (const [i, user] of [demo, sandbox, disabled].entries()) {
      await upload(db, user, { seed: 9300 + i, keyId: PROD_KEY_ID, trackId: (await createTrack(db, user.id, { name: "B" })).id });
    }
    await db.update(users).set({ disabledAt: new Date() }).where(eq(users.id, disabled.id));
    const legacy = await account(db, "bench-legacy");
    const legacyUpload = await upload(db, legacy, {
      seed: 9400,
      keyId: PROD_KEY_ID,
      trackId: (await createTrack(db, legacy.id, { name: "L" })).id,
    });
    await db.update(results).set({ svcKeyId: null }).where(eq(results.id, legacyUpload.id)); // stored before migration 0034
    const borrower = await account(db, "bench-borrower");
    const borrowed = await upload(db, borrower, {
      seed: 9500,
      keyId: PROD_KEY_ID,
      trackId: (await createTrack(db, borrower.id, { name: "U" })).id,
    });
    const [realUnit] = await db.select({ id: devices.id }).from(devices).where(eq(devices.ownerUserId, real.id));
    await db.update(results).set({ deviceId: realUnit.id }).where(eq(results.id, borrowed.id)); // a unit registered to someone else
    const counted = (await benchmarkCohort(db, { vesselId: 1, distanceM: 150 })).map((m) => m.accountId);
    for (const excluded of [demo, sandbox, disabled, legacy, borrower]) expect(counted).not.toContain(excluded.id);
    expect(counted).toEqual(expect.arrayContaining([real.id, attacker.id]));

    // Processing the stored original again (a reprocessing run, a correction) records the key: the legacy result counts.
    const original = await getBlob(db, `results/${legacyUpload.id}/original.svc`);
    const processed = processSvc(original!.bytes, { vessel: "K1", distanceM: 150 }, keyring);
    await db.transaction(async (tx) => replaceResultFigures(tx as unknown as Db, legacyUpload.id, processed));
    expect((await benchmarkCohort(db, { vesselId: 1, distanceM: 150 })).map((m) => m.accountId)).toContain(legacy.id);
  });
});

/** A processed effort written directly, recorded by the owner's own unit under a production key. */
async function prodEffort(db: Db, o: { owner: number; track: number; vesselId: number; distance: number; durationMs: number }) {
  const [unit] = await db
    .insert(devices)
    .values({ ownerUserId: o.owner, hardwareModel: 2, serial: `U${o.owner}` })
    .onConflictDoUpdate({ target: [devices.ownerUserId, devices.serial], set: { lastSeenAt: new Date() } })
    .returning({ id: devices.id });
  const [row] = await db
    .insert(results)
    .values({
      ownerUserId: o.owner,
      deviceId: unit.id,
      svcKeyId: PROD_KEY_ID,
      trackId: o.track,
      vesselId: o.vesselId,
      categoryId: 1,
      paceId: 1,
      createdVia: "api",
      date: "2026-03-01",
      timeOfDay: "10:00:00+00:00",
      startAt: new Date("2026-03-01T10:00:00Z"),
      utcOffsetMin: 0,
      distanceM: o.distance,
      durationMs: o.durationMs,
      targetDistanceM: o.distance,
    })
    .returning({ id: results.id });
  return row.id;
}

/**
 * The flat-prior bound of docs/analytics.md: whatever the attacker does with
 * the published figures, the chance that their estimate lands within ±t of
 * the victim's best is at most (t/λ) / (t/λ + e^(−t/λ)).
 */
const documentedBound = (t: number, lambda: number) => t / lambda / (t / lambda + Math.exp(-t / lambda));

describe("benchmark figures", () => {
  it("tell an attacker who knows nine of ten members' bests no more about the tenth than the documented bound, across server secrets", async () => {
    const db = handle.db;
    // A realistic boat and distance of its own (this file removes its accounts afterwards).
    const vesselId = 1 + randomInt(6);
    const distance = 400 + randomInt(600);
    cohorts.push({ vesselId, distance });
    const lambda = protectionLengthMs(distance);
    const base = distance * 200; // 5 m/s
    const width = 10 * lambda; // the victim's best: anywhere across ten protection lengths
    // Nine real person accounts the attacker controls, with production-sealed bests it knows.
    const known: number[] = [];
    let probeSession = 0;
    for (let i = 0; i < BENCHMARK_MIN_PEOPLE - 1; i++) {
      const owner = await account(db, `bench-known-${i}`);
      const track = (await createTrack(db, owner.id, { name: `K${i}` })).id;
      const best = base + Math.round(((i + 0.5) / (BENCHMARK_MIN_PEOPLE - 1)) * width);
      known.push(best);
      const id = await prodEffort(db, { owner: owner.id, track, vesselId, distance, durationMs: best });
      if (i === 0) {
        // The attacker's probe: a development-key session of its own (it never counts), moved around to read faster_than_pct anywhere.
        probeSession = await prodEffort(db, { owner: owner.id, track, vesselId, distance, durationMs: best + 1 });
        await db.update(results).set({ svcKeyId: DEV_KEY_ID }).where(eq(results.id, probeSession));
        expect(id).toBeGreaterThan(0);
      }
    }
    const attacker = (await db.select({ owner: results.ownerUserId }).from(results).where(eq(results.id, probeSession)))[0].owner;
    const victim = await account(db, "bench-victim");
    const victimSession = await prodEffort(db, {
      owner: victim.id,
      track: (await createTrack(db, victim.id, { name: "V" })).id,
      vesselId,
      distance,
      durationMs: base,
    });

    const n = BENCHMARK_MIN_PEOPLE;
    const b = noiseScaleMs(n, distance);
    const windows = percentileWindows(n);
    /** What the five figures would be before noise if the victim's best were v: the attacker can compute this. */
    const expected = (v: number) => {
      const sorted = [...known, v].sort((x, y) => x - y);
      return windows.map((from) => sorted.slice(from, from + BENCHMARK_WINDOW).reduce((s, x) => s + x, 0) / BENCHMARK_WINDOW);
    };
    const grid = Array.from({ length: Math.ceil((width + 2 * lambda) / 100) }, (_, i) => base - lambda + i * 100);

    const trials = 120;
    const errors: number[] = [];
    let rankSteps = 0;
    let probes = 0;
    for (let t = 0; t < trials; t++) {
      const v = base + randomInt(width);
      const secret = `trial-secret-${t}-${randomUUID()}`;
      // Each trial a release period later: a fresh release (within one, the figures stay as first published).
      const now = new Date(Date.now() + (t + 1) * BENCHMARK_RELEASE_PERIOD_MS);
      await db.update(results).set({ durationMs: v }).where(eq(results.id, victimSession));
      const answer = await benchmarkOf(db, data(attacker), probeSession, { secret, now });
      if (answer.kind !== "ok") throw new Error(answer.reason);
      expect(answer.people).toBe(n);
      if (t % 4 === 0) {
        // Asking again, with the reference session anywhere, gives the same figures.
        await db
          .update(results)
          .set({ durationMs: v - 100 })
          .where(eq(results.id, probeSession));
        const below = await benchmarkOf(db, data(attacker), probeSession, { secret, now });
        await db
          .update(results)
          .set({ durationMs: v + 100 })
          .where(eq(results.id, probeSession));
        const above = await benchmarkOf(db, data(attacker), probeSession, { secret, now });
        if (below.kind !== "ok" || above.kind !== "ok") throw new Error("the cohort closed");
        expect(below.percentiles).toEqual(answer.percentiles);
        // Counting the members, a reference 0.1 s either side of the victim's best shows their 10-point step; read off the figures it cannot.
        if (below.fasterThanPct - above.fasterThanPct >= 100 / n) rankSteps++;
        probes++;
      }
      // The attacker's best estimate: the v whose noise-free figures are likeliest under Laplace noise (maximum likelihood).
      const published = answer.percentiles.map((p) => p.durationMs);
      let estimate = grid[0];
      let bestCost = Infinity;
      for (const candidate of grid) {
        const cost = expected(candidate).reduce((s, e, i) => s + Math.abs(published[i] - e), 0);
        if (cost < bestCost) [bestCost, estimate] = [cost, candidate];
      }
      errors.push(Math.abs(estimate - v));
    }
    const within = (ms: number) => errors.filter((e) => e <= ms).length / trials;
    const report = [0.2, 0.5, 1].map((f) => ({
      t_ms: f * lambda,
      observed: within(f * lambda),
      bound: documentedBound(f * lambda, lambda),
    }));
    console.log(
      `benchmark attack, ${trials} trials, λ = ${lambda} ms, b = ${b.toFixed(0)} ms: ${JSON.stringify(report)}; median error ${[...errors].sort((x, y) => x - y)[trials >> 1]} ms`,
    );
    for (const r of report) expect(r.observed).toBeLessThanOrEqual(r.bound);
    // The documented headline: over 500 m (λ = 5 s) the estimate misses by more than 1 s in at least 80 % of trials.
    expect(1 - within(lambda / 5)).toBeGreaterThanOrEqual(0.8);
    // (A published figure falling between the two probes can still make a step, by chance: rarely.)
    expect(rankSteps / probes).toBeLessThanOrEqual(0.05);
  });

  it("stay as published for a release period, whatever members do, and are drawn afresh for a changed cohort after it", async () => {
    const db = handle.db;
    const vesselId = 1 + randomInt(6);
    const distance = 1000 + randomInt(1000);
    cohorts.push({ vesselId, distance });
    const ids: number[] = [];
    const times = Array.from({ length: BENCHMARK_MIN_PEOPLE }, (_, i) => distance * 200 + i * 3_000);
    for (const [i, durationMs] of times.entries()) {
      const owner = await account(db, `bench-state-${i}`);
      ids.push(
        await prodEffort(db, {
          owner: owner.id,
          track: (await createTrack(db, owner.id, { name: "S" })).id,
          vesselId,
          distance,
          durationMs,
        }),
      );
    }
    const viewer = (await db.select({ owner: results.ownerUserId }).from(results).where(eq(results.id, ids[0])))[0].owner;
    const day = 86_400_000;
    const t0 = Date.now();
    const at = (ms: number) => ({ now: new Date(t0 + ms) });
    const first = await benchmarkOf(db, data(viewer), ids[0], at(0));
    if (first.kind !== "ok") throw new Error(first.reason);
    expect(await benchmarkOf(db, data(viewer), ids[0], at(0))).toEqual(first);
    // The figures are not the noise-free means of three (the old release).
    const plain = percentileWindows(BENCHMARK_MIN_PEOPLE).map((from) => Math.round((times[from] + times[from + 1] + times[from + 2]) / 3));
    expect(first.percentiles.map((p) => p.durationMs)).not.toEqual(plain);
    // A member improves by a second: within the period nothing changes (no fresh noise to average) …
    await db
      .update(results)
      .set({ durationMs: times[9] - 1_000 })
      .where(eq(results.id, ids[9]));
    expect(await benchmarkOf(db, data(viewer), ids[0], at(BENCHMARK_RELEASE_PERIOD_MS - day))).toEqual(first);
    // … after it, the new state has its own figures …
    const next = await benchmarkOf(db, data(viewer), ids[0], at(BENCHMARK_RELEASE_PERIOD_MS + day));
    if (next.kind !== "ok") throw new Error(next.reason);
    expect(next.percentiles).not.toEqual(first.percentiles);
    expect(await benchmarkOf(db, data(viewer), ids[0], at(3 * BENCHMARK_RELEASE_PERIOD_MS))).toEqual(next);
    // … and a cohort back in an earlier state gets that state's figures again: returning to it averages nothing.
    await db.update(results).set({ durationMs: times[9] }).where(eq(results.id, ids[9]));
    expect(await benchmarkOf(db, data(viewer), ids[0], at(5 * BENCHMARK_RELEASE_PERIOD_MS))).toEqual(first);
    // A member leaving closes the cohort at once, release or not.
    await db
      .update(users)
      .set({ accountKind: "sandbox" })
      .where(eq(users.id, made.at(-1)!));
    expect(await benchmarkOf(db, data(viewer), ids[0], at(5 * BENCHMARK_RELEASE_PERIOD_MS))).toMatchObject({ kind: "insufficient" });
  });
});
