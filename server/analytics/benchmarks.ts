import { and, eq, isNotNull, isNull, lte, ne, sql } from "drizzle-orm";
import { getOrCreateAppSecret } from "../auth/app-secrets";
import type { Db } from "../db/client";
import { benchmarkReleases, devices, results, users } from "../db/schema";
import type { SessionAudience } from "../sessions/session-boundary";
import { DEV_KEY_ID } from "../svc/keyring";
import {
  BENCHMARK_MIN_PEOPLE,
  cohortStateDigest,
  fasterThanPct,
  releasePercentiles,
  type CohortMember,
  type ReleasedPercentile,
} from "./benchmark-figures";
import { readEffort, type Effort } from "./cohorts";

/**
 * Service-wide benchmarks (docs/analytics.md "Benchmarks"): where one session
 * stands among every person's best over the same boat class and distance.
 * Who counts is decided here (benchmarkCohort), what is published in
 * benchmark-figures.ts, and how often it may change in benchmark_releases.
 */

/** A cohort's published figures stay this long, whatever the cohort does meanwhile: at most 13 independent releases a year. */
export const BENCHMARK_RELEASE_PERIOD_MS = 28 * 86_400_000;

export type Benchmark =
  | { kind: "insufficient"; reason: string; reference: Effort }
  | {
      kind: "ok";
      reference: Effort;
      people: number;
      percentiles: ReleasedPercentile[];
      /** Share of the cohort slower than this session, percent, read off the published percentiles. */
      fasterThanPct: number;
    };

/**
 * The accounts that make a benchmark cohort, each with its best. Only what
 * one account cannot mint at will counts: a person account (never demo or
 * sandbox, nor one an operator disabled), through results its own registered
 * unit recorded in a file sealed with a production key — not the published
 * development key 0, and not a result stored before the key id was recorded
 * (null: unknown provenance). Athlete records do not count: an account is one
 * member with one value however many athletes it keeps.
 */
export async function benchmarkCohort(db: Db, o: { vesselId: number; distanceM: number }): Promise<CohortMember[]> {
  return db
    .select({ accountId: results.ownerUserId, bestMs: sql<number>`min(${results.durationMs})`.mapWith(Number) })
    .from(results)
    .innerJoin(devices, and(eq(devices.id, results.deviceId), eq(devices.ownerUserId, results.ownerUserId)))
    .innerJoin(users, and(eq(users.id, results.ownerUserId), eq(users.accountKind, "person"), isNull(users.disabledAt)))
    .where(
      and(
        eq(results.vesselId, o.vesselId),
        eq(results.targetDistanceM, o.distanceM),
        eq(results.status, "processed"),
        isNotNull(results.svcKeyId),
        ne(results.svcKeyId, DEV_KEY_ID),
      ),
    )
    .groupBy(results.ownerUserId);
}

/**
 * The figures to publish: the stored release while it is younger than the
 * period, else a new one for the cohort's present state. The noise is fixed
 * by the state, so an unchanged cohort re-released gets the same figures.
 * Two requests racing past an expired release both compute; the conditional
 * upsert lets one write, and both return what is stored.
 */
async function currentRelease(db: Db, o: { vesselId: number; distanceM: number; members: CohortMember[]; secret?: string; now: Date }) {
  const key = and(eq(benchmarkReleases.vesselId, o.vesselId), eq(benchmarkReleases.distanceM, o.distanceM));
  const cutoff = new Date(o.now.getTime() - BENCHMARK_RELEASE_PERIOD_MS);
  const [stored] = await db.select().from(benchmarkReleases).where(key);
  if (stored && stored.releasedAt > cutoff) return stored;
  const secret = o.secret ?? (await getOrCreateAppSecret(db, "benchmark-noise"));
  const percentiles = releasePercentiles({ vesselId: o.vesselId, distanceM: o.distanceM, members: o.members, secret }).map((p) => ({
    percentile: p.percentile,
    duration_ms: p.durationMs,
  }));
  const row = {
    vesselId: o.vesselId,
    distanceM: o.distanceM,
    people: o.members.length,
    percentiles,
    stateDigest: cohortStateDigest(o),
    releasedAt: o.now,
  };
  const [written] = await db
    .insert(benchmarkReleases)
    .values(row)
    .onConflictDoUpdate({
      target: [benchmarkReleases.vesselId, benchmarkReleases.distanceM],
      set: row,
      setWhere: lte(benchmarkReleases.releasedAt, cutoff),
    })
    .returning();
  return written ?? (await db.select().from(benchmarkReleases).where(key))[0];
}

/**
 * Where one session stands. Refused while fewer than 10 accounts count (the
 * live cohort: a member who leaves takes effect at once); otherwise the
 * current release's figures, and faster_than_pct read off them for this
 * session's time — never off the members, so no reference session placed
 * next to someone's best can confirm their rank.
 */
export async function benchmarkOf(
  db: Db,
  audience: SessionAudience,
  sessionId: number,
  options: { secret?: string; now?: Date } = {},
): Promise<Benchmark> {
  const reference = await readEffort(db, audience, sessionId);
  if (reference.targetDistanceM === null)
    return { kind: "insufficient", reason: "benchmarks compare distance efforts; this session is a timed effort", reference };
  const members = await benchmarkCohort(db, { vesselId: reference.vesselId, distanceM: reference.targetDistanceM });
  if (members.length < BENCHMARK_MIN_PEOPLE) {
    return {
      kind: "insufficient",
      reason: `fewer than ${BENCHMARK_MIN_PEOPLE} people have recorded ${reference.boatClass} ${reference.targetDistanceM} m with their own unit`,
      reference,
    };
  }
  const release = await currentRelease(db, {
    vesselId: reference.vesselId,
    distanceM: reference.targetDistanceM,
    members,
    secret: options.secret,
    now: options.now ?? new Date(),
  });
  const percentiles = release.percentiles.map((p) => ({ percentile: p.percentile, durationMs: p.duration_ms }));
  return { kind: "ok", reference, people: release.people, percentiles, fasterThanPct: fasterThanPct(percentiles, reference.durationMs) };
}
