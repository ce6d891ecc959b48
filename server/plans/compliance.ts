import { DEFAULT_SPEED_ZONES, zoneOfSpeed } from "../load/zones";
import { averageSpeedMS, pace500S } from "../results/figures";
import { matchRunsToSteps } from "../svc/process/sets";
import type { StepTargets, WorkoutStep } from "../svc/types";

/**
 * Planned against done, rep by rep (docs/plans.md "Compliance"). Pure: the
 * training's work sets as stored are aligned with the plan's work reps by
 * the core's own template alignment (matchRunsToSteps), so a missing or an
 * extra rep leaves the others paired; then each paired rep is marked
 * against its volume and its targets. Nothing here changes a set.
 */
export type RepMark = "within" | "near" | "off" | "missed" | "extra";
export type WorkoutMark = "within" | "near" | "off" | "missed";

/** The bands, recorded in docs/plans.md. */
export const BANDS = {
  /** The rep's own unit (distance or time), relative to the planned. */
  volume: { within: 0.05, near: 0.15 },
  /** Pace per 500 m, relative to the target, either side. */
  pace: { within: 0.02, near: 0.05 },
  /** Stroke rate, strokes per minute either side. */
  rateSpm: { within: 2, near: 5 },
  /** How far matching may stretch a pairing (the core's template tolerance). */
  matchTolerance: 0.4,
} as const;
/** What each rep is worth toward the workout's score. */
export const REP_SCORE: Record<Exclude<RepMark, "extra">, number> = { within: 1, near: 0.5, off: 0.25, missed: 0 };
/** The workout's mark from its score. */
export const WORKOUT_BANDS = { within: 0.9, near: 0.6 } as const;

export interface DoneSet {
  setId: number;
  position: number;
  distanceM: number;
  durationMs: number;
  avgRateSpm: number | null;
}

export interface RepComparison {
  /** Index into the plan's steps, null for an extra set. */
  stepIndex: number | null;
  /** 1-based planned rep number, null for an extra set. */
  rep: number | null;
  planned: { distance_m?: number; duration_s?: number; targets?: StepTargets } | null;
  actual: {
    setId: number;
    workNumber: number;
    distanceM: number;
    durationMs: number;
    paceS500: number | null;
    rateSpm: number | null;
    zone: number | null;
  } | null;
  mark: RepMark;
  /** Why the mark is not "within", in words ("pace 1:53.0 for 1:50.0"). */
  notes: string[];
}

export interface PlanComparison {
  reps: RepComparison[];
  planned: number;
  done: number;
  missed: number;
  extra: number;
  /** 0–1: the planned reps' worth (REP_SCORE) over the planned reps. */
  score: number;
  mark: WorkoutMark;
}

const ORDER: RepMark[] = ["within", "near", "off"];
const worse = (a: RepMark, b: RepMark) => (ORDER.indexOf(b) > ORDER.indexOf(a) ? b : a);
const band = (deviation: number, b: { within: number; near: number }): RepMark =>
  deviation <= b.within + 1e-9 ? "within" : deviation <= b.near + 1e-9 ? "near" : "off";
const clock = (s: number) => `${Math.floor(s / 60)}:${(s % 60).toFixed(1).padStart(4, "0")}`;

/** The workout's mark from its score (WORKOUT_BANDS). */
export const workoutMark = (score: number): Exclude<WorkoutMark, "missed"> =>
  score >= WORKOUT_BANDS.within ? "within" : score >= WORKOUT_BANDS.near ? "near" : "off";

/** One paired rep's mark: the worst of its volume and of each target it has. */
function markRep(
  step: WorkoutStep,
  set: DoneSet,
  referenceSpeedMS: number | null,
): Pick<RepComparison, "actual" | "mark" | "notes"> & { workNumber?: never } {
  const speed = averageSpeedMS(set.distanceM, set.durationMs);
  const pace = pace500S(speed);
  const zone = referenceSpeedMS ? zoneOfSpeed(DEFAULT_SPEED_ZONES, referenceSpeedMS, speed).zone : null;
  const notes: string[] = [];
  let mark: RepMark = "within";
  const planned = step.distance_m ?? step.duration_s!;
  const actual = step.distance_m !== undefined ? set.distanceM : set.durationMs / 1000;
  const volume = band(Math.abs(actual - planned) / planned, BANDS.volume);
  if (volume !== "within")
    notes.push(step.distance_m !== undefined ? `${set.distanceM} m for ${planned} m` : `${Math.round(actual)} s for ${planned} s`);
  mark = worse(mark, volume);
  const t = step.targets ?? {};
  if (t.pace_s_per_500m !== undefined && pace !== null) {
    const m = band(Math.abs(pace - t.pace_s_per_500m) / t.pace_s_per_500m, BANDS.pace);
    if (m !== "within") notes.push(`pace ${clock(pace)} for ${clock(t.pace_s_per_500m)}`);
    mark = worse(mark, m);
  }
  if (t.rate_spm !== undefined && set.avgRateSpm !== null) {
    const m = band(Math.abs(set.avgRateSpm - t.rate_spm), BANDS.rateSpm);
    if (m !== "within") notes.push(`rate ${Math.round(set.avgRateSpm)} for ${t.rate_spm} spm`);
    mark = worse(mark, m);
  }
  if (t.zone !== undefined && zone !== null) {
    const gap = Math.abs(zone - t.zone);
    const m: RepMark = gap === 0 ? "within" : gap === 1 ? "near" : "off";
    if (m !== "within") notes.push(`zone ${zone} for zone ${t.zone}`);
    mark = worse(mark, m);
  }
  return {
    actual: {
      setId: set.setId,
      workNumber: 0,
      distanceM: set.distanceM,
      durationMs: set.durationMs,
      paceS500: pace,
      rateSpm: set.avgRateSpm,
      zone,
    },
    mark,
    notes,
  };
}

/**
 * Compares a plan's steps with a training's work sets (in time order).
 * `referenceSpeedMS` is the athlete's reference for zone targets (null: zone
 * targets are not assessed).
 */
export function comparePlan(steps: WorkoutStep[], sets: DoneSet[], referenceSpeedMS: number | null): PlanComparison {
  const ordered = [...sets].sort((a, b) => a.position - b.position);
  const measured = ordered.map((s) => ({ durationS: s.durationMs / 1000, distanceM: s.distanceM }));
  const alignment = matchRunsToSteps(measured, steps, BANDS.matchTolerance);
  const repOf = new Map<number, number>();
  steps.forEach((s, index) => s.kind === "work" && repOf.set(index, repOf.size + 1));
  const reps: RepComparison[] = alignment.map((pair) => {
    const step = pair.step === null ? null : steps[pair.step];
    const planned = step
      ? {
          ...(step.distance_m !== undefined ? { distance_m: step.distance_m } : { duration_s: step.duration_s }),
          ...(step.targets ? { targets: step.targets } : {}),
        }
      : null;
    const rep = pair.step === null ? null : repOf.get(pair.step)!;
    if (pair.run === null) return { stepIndex: pair.step, rep, planned, actual: null, mark: "missed" as const, notes: [] };
    const set = ordered[pair.run];
    const base = step
      ? markRep(step, set, referenceSpeedMS)
      : {
          ...markRep({ kind: "work", duration_s: Math.max(1, set.durationMs / 1000) }, set, referenceSpeedMS),
          mark: "extra" as const,
          notes: [],
        };
    return { stepIndex: pair.step, rep, planned, ...base, actual: { ...base.actual!, workNumber: pair.run + 1 } };
  });
  const planned = repOf.size;
  const score = planned ? reps.reduce((sum, r) => sum + (r.mark === "extra" ? 0 : REP_SCORE[r.mark]), 0) / planned : 0;
  const missed = reps.filter((r) => r.mark === "missed").length;
  return {
    reps,
    planned,
    done: planned - missed,
    missed,
    extra: reps.filter((r) => r.mark === "extra").length,
    score: Math.round(score * 1000) / 1000,
    mark: workoutMark(score),
  };
}
