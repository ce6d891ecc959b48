import { z } from "zod";
import { BOAT_CLASSES, templateTotals, type NormalizedTemplate, type TemplateInspection, type WorkoutStep } from "./template";
import type { StoredTemplate } from "./templates";

/**
 * Allowlisted serializers of workout templates (data-api.md "Workout
 * templates"): the stored document is rebuilt member by member, so nothing
 * but the version-1 members leaves, whatever the jsonb column holds. No owner
 * field exists here.
 */
const ZTargets = z.object({
  rate_spm: z.number().optional().describe("stroke rate, strokes per minute"),
  pace_s_per_500m: z.number().optional().describe("pace, seconds per 500 m"),
  zone: z.number().int().optional().describe("training zone 1 (easy) to 5 (maximal)"),
});
const ZStep = z.object({
  kind: z.enum(["work", "rest"]),
  distance_m: z.number().optional().describe("exactly one of distance_m and duration_s"),
  duration_s: z.number().optional(),
  targets: ZTargets.optional(),
});
export const ZNormalizedTemplate = z.object({
  version: z.literal(1),
  name: z.string().nullable(),
  boat_class: z.enum(BOAT_CLASSES).nullable(),
  notes: z.string().nullable(),
  steps: z.array(ZStep).describe("every step in order, repeat blocks expanded (at most 500)"),
});
export const ZTemplateTotals = z.object({
  set_count: z.number().int().describe("work steps: the sets of the practice"),
  step_count: z.number().int(),
  work_distance_m: z.number(),
  work_duration_s: z.number(),
  rest_distance_m: z.number(),
  rest_duration_s: z.number(),
});

export const ZWorkoutTemplateListItem = z.object({
  id: z.number().int(),
  name: z.string(),
  boat_class: z.enum(BOAT_CLASSES).nullable(),
  totals: ZTemplateTotals,
  created_at: z.string().describe("ISO 8601, UTC"),
  updated_at: z.string().describe("ISO 8601, UTC"),
});
export const ZWorkoutTemplate = ZWorkoutTemplateListItem.extend({ template: ZNormalizedTemplate });

export const ZTemplateInspection = z.object({
  valid: z.literal(true).describe("always true here: a workout with problems is the 400 whose `problems` lists them"),
  problems: z.array(z.object({ path: z.string(), message: z.string() })).max(0),
  template: ZNormalizedTemplate,
  totals: ZTemplateTotals,
});

function serializeStep(step: WorkoutStep): z.output<typeof ZStep> {
  const out: z.output<typeof ZStep> = { kind: step.kind };
  if (typeof step.distance_m === "number") out.distance_m = step.distance_m;
  if (typeof step.duration_s === "number") out.duration_s = step.duration_s;
  if (step.targets) {
    const t: z.output<typeof ZTargets> = {};
    if (typeof step.targets.rate_spm === "number") t.rate_spm = step.targets.rate_spm;
    if (typeof step.targets.pace_s_per_500m === "number") t.pace_s_per_500m = step.targets.pace_s_per_500m;
    if (typeof step.targets.zone === "number") t.zone = step.targets.zone;
    if (Object.keys(t).length) out.targets = t;
  }
  return out;
}

export function serializeNormalizedTemplate(template: NormalizedTemplate): z.output<typeof ZNormalizedTemplate> {
  return {
    version: 1,
    name: template.name ?? null,
    boat_class: template.boat_class ?? null,
    notes: template.notes ?? null,
    steps: template.steps.map(serializeStep),
  };
}

export function serializeTemplateListItem(stored: StoredTemplate): z.output<typeof ZWorkoutTemplateListItem> {
  return {
    id: stored.id,
    name: stored.name,
    boat_class: stored.template.boat_class ?? null,
    totals: templateTotals(stored.template.steps),
    created_at: stored.createdAt.toISOString(),
    updated_at: stored.updatedAt.toISOString(),
  };
}

export function serializeTemplate(stored: StoredTemplate): z.output<typeof ZWorkoutTemplate> {
  return { ...serializeTemplateListItem(stored), template: serializeNormalizedTemplate(stored.template) };
}

export function serializeInspection(inspection: Extract<TemplateInspection, { valid: true }>): z.output<typeof ZTemplateInspection> {
  return { valid: true, problems: [], template: serializeNormalizedTemplate(inspection.template), totals: { ...inspection.totals } };
}
