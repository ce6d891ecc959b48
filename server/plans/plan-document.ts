import { z } from "zod";
import { DEFAULT_SPEED_ZONES } from "../load/zones";
import type { WorkoutStep } from "../svc/types";
import { TEMPLATE_LIMITS } from "../workouts/template";
import { PLAN_NOTES_MAX } from "./plan-limits";

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

/** Free text kept in jsonb or a varchar: Postgres refuses NUL, and other control characters are never meant (tab and line breaks are). */
export const noControlCharacters = (text: string) => !/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/.test(text);
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
      .refine((n) => ZONES.includes(n), `Zone: one of ${ZONES.join(", ")}`)
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
});

/** A plan's notes for its athletes ("hold rate in the last 100"); empty is none. */
export const ZPlanNotes = z
  .string()
  .trim()
  .max(PLAN_NOTES_MAX, `Notes: at most ${PLAN_NOTES_MAX} characters`)
  .refine(noControlCharacters, "Notes: no control characters")
  .nullable()
  .optional();

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

/** JSON with object keys sorted: equal values, equal text, whatever order the keys were written in. */
const canonical = (value: unknown) =>
  JSON.stringify(value, (_, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1))) : v,
  );

/**
 * The inverse of expandBlocks, for editing a plan in the form: runs of the
 * same rep (and targets) with the same rest after each. Null when the steps
 * are not blocks (a template's rest first, two rests in a row, ...): the
 * result always expands back to exactly these steps.
 */
export function blocksOfSteps(steps: WorkoutStep[]): PlanBlock[] | null {
  const blocks: (PlanBlock & { rest_s: number })[] = [];
  const sameRep = (a: WorkoutStep, b: PlanBlock) =>
    a.distance_m === b.distance_m && a.duration_s === b.duration_s && canonical(a.targets ?? null) === canonical(b.targets ?? null);
  for (let k = 0; k < steps.length; k++) {
    const work = steps[k];
    if (work.kind !== "work") return null;
    const atEnd = k === steps.length - 1;
    let rest = 0;
    if (steps[k + 1]?.kind === "rest") {
      k++;
      rest = steps[k].duration_s ?? -1; // a rest by distance: no block has one, the check below refuses it
    }
    const last = blocks[blocks.length - 1];
    // The workout's last rep has no rest after it: it belongs to the block before whatever that block's rest.
    if (last && sameRep(work, last) && (last.rest_s === rest || atEnd)) last.reps++;
    else
      blocks.push({
        reps: 1,
        ...(work.distance_m !== undefined ? { distance_m: work.distance_m } : { duration_s: work.duration_s }),
        rest_s: rest,
        ...(work.targets ? { targets: { ...work.targets } } : {}),
      });
  }
  const checked = ZWrittenPlan.shape.blocks.safeParse(blocks);
  if (!checked.success) return null;
  try {
    return canonical(expandBlocks(checked.data)) === canonical(steps) ? blocks : null;
  } catch {
    return null;
  }
}

/** "Tempo (zone 3)"; the bare number for a zone the model does not name. */
export function zoneLabel(zone: number): string {
  const named = DEFAULT_SPEED_ZONES.find((z) => z.zone === zone);
  return named ? `${named.name} (zone ${zone})` : `zone ${zone}`;
}

const paceClock = (s: number) => {
  const whole = Math.floor(s / 60);
  const rest = s - whole * 60;
  return `${whole}:${(Number.isInteger(rest) ? String(rest) : rest.toFixed(1)).padStart(Number.isInteger(rest) ? 2 : 4, "0")}`;
};

/** "2:05 /500 m · 70 spm · Tempo (zone 3)"; "" without targets. */
export function targetsLabel(t: WorkoutStep["targets"]): string {
  if (!t) return "";
  return [
    t.pace_s_per_500m !== undefined ? `${paceClock(t.pace_s_per_500m)} /500 m` : null,
    t.rate_spm !== undefined ? `${t.rate_spm} spm` : null,
    t.zone !== undefined ? zoneLabel(t.zone) : null,
  ]
    .filter(Boolean)
    .join(" · ");
}

/** "4 × 500 m at 2:05 /500 m · 70 spm": the work reps that have a target, runs folded; null when none has. */
export function targetsOfWork(steps: WorkoutStep[]): string | null {
  const runs: { label: string; n: number }[] = [];
  for (const s of steps) {
    if (s.kind !== "work") continue;
    const targets = targetsLabel(s.targets);
    const label = targets ? `${spanLabel(s)} at ${targets}` : "";
    if (runs.length && runs[runs.length - 1].label === label) runs[runs.length - 1].n++;
    else runs.push({ label, n: 1 });
  }
  const targeted = runs.filter((r) => r.label);
  return targeted.length ? targeted.map((r) => (r.n > 1 ? `${r.n} × ${r.label}` : r.label)).join("; ") : null;
}
