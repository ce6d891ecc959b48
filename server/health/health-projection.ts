import { and, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { athletes, resultCrew } from "../db/schema";
import type { DataQuality, EffortTrack, SessionSummary } from "../svc/process/types";

/**
 * Health data in every view (docs/access.md "Health data in every view"):
 * the one place that decides who may read a health value, for every web page
 * and every file built for a person. Pages and exports read the projections
 * below, whose types carry no health field at all unless the viewer is the
 * person the value belongs to, so a component cannot show what it never gets.
 *
 * - Heart rate comes from the unit's one strap, worn in the stroke seat: it
 *   is the seat-1 paddler's, readable only by the account linked to that
 *   athlete record (a training's: its named paddler's account, or the
 *   uploader's own practice when none is named). Everything derived from the
 *   readings (average, maximum, series, coverage) follows it.
 * - Weight and lactate rows are the person's own (server/health/health.ts,
 *   shareable-health.ts); a coach sees only what they entered themselves.
 * - An athlete record's typed weight: its manager (who typed it) and the
 *   athlete's own account. A typed external paddler's weight: the session's
 *   owner, who typed it.
 */

/** The heart rate's owner from a crew: the account linked to the seat-1 athlete, or nobody. */
export function heartRateOwnerOfCrew(crew: readonly { seat: number; linkedUserId: number | null }[]): number | null {
  return crew.find((s) => s.seat === 1)?.linkedUserId ?? null;
}

/** The heart rate's owner of a stored session (seat 1's linked account), or null when nobody may read it. */
export async function sessionHeartRateOwner(db: Db, resultId: number): Promise<number | null> {
  const [strokeSeat] = await db
    .select({ linkedUserId: athletes.userId })
    .from(resultCrew)
    .innerJoin(athletes, eq(athletes.id, resultCrew.athleteId))
    .where(and(eq(resultCrew.resultId, resultId), eq(resultCrew.seat, 1)));
  return strokeSeat?.linkedUserId ?? null;
}

/**
 * A training's heart rate is its paddler's: the named athlete's account (none
 * when the record has no account), or, with no athlete named, the uploader's
 * own practice.
 */
export function trainingHeartRateOwner(training: {
  ownerUserId: number;
  athleteId: number | null;
  athleteLinkedUserId: number | null;
}): number | null {
  return training.athleteId !== null ? training.athleteLinkedUserId : training.ownerUserId;
}

/** A session or set summary without any health figure: what every viewer may read. */
export type EffortFigures = Omit<SessionSummary, "avg_heart_rate" | "max_heart_rate">;

/** Copies the allowed fields by name, so a health field added to the summary later stays out until named here. */
export function effortFigures(s: SessionSummary): EffortFigures {
  return {
    distance_m: s.distance_m,
    duration_ms: s.duration_ms,
    avg_speed: s.avg_speed,
    max_speed: s.max_speed,
    stroke_count: s.stroke_count,
    avg_rate: s.avg_rate,
    max_rate: s.max_rate,
    avg_stroke_distance: s.avg_stroke_distance,
    left: s.left,
    right: s.right,
  };
}

/** The viewer's own heart-rate figures of an effort (null when none were recorded). */
export interface OwnHeartRate {
  avgBpm: number | null;
  maxBpm: number | null;
}

export function ownHeartRateOf(s: Pick<SessionSummary, "avg_heart_rate" | "max_heart_rate">): OwnHeartRate | null {
  return s.avg_heart_rate === null && s.max_heart_rate === null ? null : { avgBpm: s.avg_heart_rate, maxBpm: s.max_heart_rate };
}

/** The stored effort track without its heart-rate readings. */
export type ViewerTrack = Omit<EffortTrack, "heart_rate">;
export const viewerTrack = (t: EffortTrack): ViewerTrack => ({
  step_s: t.step_s,
  t: t.t,
  distance: t.distance,
  speed: t.speed,
  route: t.route,
  // The split uncertainty's noise figures (not health data): the page's splits state their ±.
  ...(t.uncertainty ? { uncertainty: t.uncertainty } : {}),
});

/** The data-quality report without the heart-rate coverage (whether, and how much, heart rate was recorded). */
export type ViewerDataQuality = Omit<DataQuality, "heart_rate_coverage">;
export function viewerDataQuality(q: DataQuality): ViewerDataQuality {
  return {
    imu_samples: q.imu_samples,
    imu_lost_samples: q.imu_lost_samples,
    imu_gaps: q.imu_gaps,
    longest_imu_gap_ms: q.longest_imu_gap_ms,
    gnss_fixes: q.gnss_fixes,
    gnss_missing_fixes: q.gnss_missing_fixes,
    effort_fix_gaps: q.effort_fix_gaps,
    effort_fix_gap_s: q.effort_fix_gap_s,
    satellites_min: q.satellites_min,
    satellites_mean: q.satellites_mean,
    hdop_mean: q.hdop_mean,
    hdop_max: q.hdop_max,
    // No warning may speak of the heart rate either (none does today; the filter keeps it so).
    warnings: q.warnings.filter((w) => !/heart|bpm|pulse/i.test(w)),
  };
}

/** An athlete record's typed weight: for its manager (who typed it) and the athlete's own account. */
export function mayReadAthleteRecordWeight(record: { ownerUserId: number; userId: number | null }, viewerId: number): boolean {
  return record.ownerUserId === viewerId || record.userId === viewerId;
}

/** A typed external paddler's weight: only for the session's owner, who typed it. */
export const mayReadTypedCrewWeight = (session: { ownerId: number }, viewerId: number) => session.ownerId === viewerId;
