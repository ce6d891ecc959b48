import { z } from "zod";
import { DEFAULT_SPEED_ZONES } from "../load/zones";
import type { WorkoutStep } from "../svc/types";
import { TEMPLATE_LIMITS } from "../workouts/template";

/**
 * What a planned workout holds (docs/plans.md): an optional warm-up, the
 * steps (work reps and rests: the processing core's WorkoutStep, the same
 * shape a template expands to), an optional cool-down and notes. Only the
 * work steps are compared with what was done; warm-up and cool-down are
 * never sets (docs/processing.md "Trainings").
 */
export interface PlanSpan {
  distance_m?: number;
  duration_s?: number;
}
export interface PlanDocument {
  warmup: PlanSpan | null;
  steps: WorkoutStep[];
  cooldown: PlanSpan | null;
  notes: string | null;
}

const L = TEMPLATE_LIMITS;
const ZONES = DEFAULT_SPEED_ZONES.map((z) => z.zone);
const ZSpan = z
  .object({
    distance_m: z.number().int().min(L.distanceM.min).max(L.distanceM.max).optional(),
    duration_s: z.number().int().min(L.durationS.min).max(L.durationS.max).optional(),
  })
  .refine((s) => (s.distance_m === undefined) !== (s.duration_s === undefined), "Give a distance or a time, not both");

export const ZTargets = z
  .object({
    pace_s_per_500m: z.number().min(L.paceS500m.min).max(L.paceS500m.max).optional(),
    rate_spm: z.number().min(L.rateSpm.min).max(L.rateSpm.max).optional(),
    zone: z
      .number()
      .int()
      .min(Math.min(...ZONES))
      .max(Math.max(...ZONES))
      .optional(),
  })
  .strict();

/** One line of the form: n reps of a distance or a time, each followed by a rest, with optional targets. */
export const ZBlock = z
  .object({
    reps: z.number().int().min(1).max(L.maxRepeat),
    distance_m: z.number().int().min(L.distanceM.min).max(L.distanceM.max).optional(),
    duration_s: z.number().int().min(L.durationS.min).max(L.durationS.max).optional(),
    rest_s: z.number().int().min(0).max(3600).default(0),
    targets: ZTargets.optional(),
  })
  .refine((b) => (b.distance_m === undefined) !== (b.duration_s === undefined), "Give each rep a distance or a time, not both");
export type PlanBlock = z.input<typeof ZBlock>;

export const ZWrittenPlan = z.object({
  warmup: ZSpan.nullable().default(null),
  blocks: z.array(ZBlock).min(1, "Plan at least one rep").max(20),
  cooldown: ZSpan.nullable().default(null),
  notes: z.string().trim().max(1000).nullable().default(null),
});

/** Blocks to steps: each rep, then its rest; no rest after the workout's last rep. */
export function expandBlocks(blocks: PlanBlock[]): WorkoutStep[] {
  const steps: WorkoutStep[] = [];
  blocks.forEach((b, k) => {
    for (let r = 0; r < b.reps; r++) {
      const work: WorkoutStep = { kind: "work" };
      if (b.distance_m !== undefined) work.distance_m = b.distance_m;
      else work.duration_s = b.duration_s;
      const targets = Object.fromEntries(Object.entries(b.targets ?? {}).filter(([, v]) => v !== undefined));
      if (Object.keys(targets).length) work.targets = targets;
      steps.push(work);
      const last = k === blocks.length - 1 && r === b.reps - 1;
      if ((b.rest_s ?? 0) > 0 && !last) steps.push({ kind: "rest", duration_s: b.rest_s });
    }
  });
  if (steps.length > L.maxExpandedSteps) throw new RangeError(`at most ${L.maxExpandedSteps} steps`);
  return steps;
}

const metres = (m: number) => (m >= 1000 && m % 100 === 0 ? `${m / 1000} km` : `${m} m`);
const seconds = (s: number) =>
  s >= 60 && s % 60 === 0 ? `${s / 60} min` : s > 60 ? `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}` : `${s} s`;
export const spanLabel = (s: PlanSpan) => (s.distance_m !== undefined ? metres(s.distance_m) : seconds(s.duration_s!));

/** "4 × 250 m + 2 × 2 min": the work reps, runs of the same rep folded. */
export function workLabel(steps: WorkoutStep[]): string {
  const runs: { label: string; n: number }[] = [];
  for (const s of steps) {
    if (s.kind !== "work") continue;
    const label = spanLabel(s);
    if (runs.length && runs[runs.length - 1].label === label) runs[runs.length - 1].n++;
    else runs.push({ label, n: 1 });
  }
  return runs.map((r) => (r.n > 1 ? `${r.n} × ${r.label}` : r.label)).join(" + ") || "no work";
}
