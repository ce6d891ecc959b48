import { z } from "zod";
import { averageSpeedMS, pace500Tenths } from "../results/figures";
import type { TrainingAthlete, TrainingRow, TrainingSetRow, WorkSet } from "./training-reads";
import type { DataQuality, SessionSummary, Split } from "../svc/process/types";
import type { NormalizedTemplate } from "../workouts/template";
import { finalTimeUncertainty } from "../svc/process/uncertainty";
import {
  serializeSessionSummary,
  seriesMembers,
  seriesShape,
  splitItems,
  summaryFigures,
  ZSessionSummary,
  ZSplit,
} from "../sessions/sessions-wire";

/**
 * Allowlisted serializers of trainings (data-api.md "Privacy projection",
 * docs/trainings.md "Data API"): each schema names every field that may
 * leave. No owner, device, serial, original file, key pair, application or
 * raw sample appears; times inside a training are relative (seconds from its
 * first work set's start), never the recording clock.
 */
const nullableNumber = z.number().nullable();
const Ref = z.object({ id: z.number().int(), name: z.string() });
const r3 = (v: number) => Math.round(v * 1000) / 1000;

export const ZTrainingListItem = z.object({
  id: z.number().int(),
  title: z.string(),
  status: z
    .enum(["queued", "processing", "ready", "failed"])
    .describe("queued → processing → ready, or → failed; figures and sets exist only when ready"),
  date: z.string().nullable().describe("local date of the first work set's start, YYYY-MM-DD; null until processed"),
  time_of_day: z.string().nullable().describe("local time of the first work set's start with its UTC offset; null until processed"),
  start_at: z.string().nullable().describe("instant of the first work set's start, ISO 8601 UTC; null until processed"),
  distance_m: z.number().int().nullable().describe("first work start to last work end, metres; null until processed"),
  duration_ms: z.number().int().nullable().describe("first work start to last work end; null until processed"),
  work_set_count: z.number().int().nullable().describe("active sets found; null until processed"),
  needs_review: z
    .boolean()
    .describe(
      'true when reprocessing with a newer core could not re-apply a person\'s set corrections to the new detection: the corrected sets were kept as they were and want a look (docs/trainings.md "Corrected sets")',
    ),
  boat_class: z.object({ id: z.number().int(), type: z.string().describe("K1 … C4"), crew_size: z.number().int() }),
  track: Ref.nullable(),
  created_at: z.string().describe("when the training was uploaded, ISO 8601"),
});

export function serializeTrainingListItem(row: TrainingRow): z.output<typeof ZTrainingListItem> {
  return {
    id: row.id,
    title: row.title,
    status: row.status,
    date: row.date,
    time_of_day: row.timeOfDay,
    start_at: row.startAt ? row.startAt.toISOString() : null,
    distance_m: row.distanceM,
    duration_ms: row.durationMs,
    work_set_count: row.workSetCount,
    needs_review: row.needsReview,
    boat_class: { id: row.boatClassId, type: row.boatClass, crew_size: row.crewSize },
    track: row.trackId !== null && row.trackName !== null ? { id: row.trackId, name: row.trackName } : null,
    created_at: row.createdAt.toISOString(),
  };
}

export const ZTrainingSet = z.object({
  set_id: z.number().int().describe("the set's id; work sets have series, strokes and splits under /sets/{set_id}"),
  position: z.number().int().describe("1-based order in the training"),
  kind: z.enum(["work", "rest"]).describe("work: an active set (an effort); rest: the time between two work sets"),
  start_s: z.number().describe("seconds from the first work set's start"),
  end_s: z.number(),
  distance_m: z.number().int(),
  duration_ms: z.number().int(),
  stroke_count: z.number().int(),
  step_index: z.number().int().nullable().describe("work sets matched to the template: index into template.steps; null otherwise"),
  complete: z.boolean().describe("false when the step's distance or time was not reached"),
  corrected: z.boolean().describe("true when a person's correction made this set: its kind or bounds differ from what detection found"),
});

export function serializeTrainingSet(set: TrainingSetRow, originS: number): z.output<typeof ZTrainingSet> {
  return {
    set_id: set.id,
    position: set.position,
    kind: set.kind,
    start_s: r3(set.startS - originS),
    end_s: r3(set.endS - originS),
    distance_m: set.distanceM,
    duration_ms: set.durationMs,
    stroke_count: set.strokeCount,
    step_index: set.stepIndex,
    complete: set.complete,
    corrected: set.corrected,
  };
}

const ZTargets = z.object({ rate_spm: z.number().optional(), pace_s_per_500m: z.number().optional(), zone: z.number().int().optional() });
const ZTemplateStep = z.object({
  kind: z.enum(["work", "rest"]),
  distance_m: z.number().optional(),
  duration_s: z.number().optional(),
  targets: ZTargets.optional(),
});
export const ZTrainingTemplate = z.object({
  template_id: z.number().int().nullable().describe("the subject's workout template, null when it was deleted since"),
  name: z.string().nullable().describe("the template's name now, or as it was at upload when deleted since"),
  boat_class: z.string().nullable(),
  steps: z.array(ZTemplateStep).describe("the template's steps as they were at upload, repeat blocks expanded"),
  unmatched_steps: z.array(z.number().int()).describe("indices of work steps no set was found for"),
  extra_set_ids: z.array(z.number().int()).describe("work sets that match no step"),
});

function serializeTemplate(
  template: { id: number | null; name: string | null; template: NormalizedTemplate },
  match: { unmatched_steps: number[]; extra_sets: number[] } | null,
  sets: TrainingSetRow[],
): z.output<typeof ZTrainingTemplate> {
  // Field by field: a snapshot is stored JSON, never passed through as it is.
  const steps = template.template.steps.map((step) => {
    const out: z.output<typeof ZTemplateStep> = { kind: step.kind };
    if (typeof step.distance_m === "number") out.distance_m = step.distance_m;
    if (typeof step.duration_s === "number") out.duration_s = step.duration_s;
    if (step.targets) {
      const targets: z.output<typeof ZTargets> = {};
      if (typeof step.targets.rate_spm === "number") targets.rate_spm = step.targets.rate_spm;
      if (typeof step.targets.pace_s_per_500m === "number") targets.pace_s_per_500m = step.targets.pace_s_per_500m;
      if (typeof step.targets.zone === "number") targets.zone = step.targets.zone;
      out.targets = targets;
    }
    return out;
  });
  // Stored positions are 0-based indices into the sets; the API names sets by id.
  const extra = (match?.extra_sets ?? []).flatMap((index) => (sets[index] ? [sets[index].id] : []));
  return {
    template_id: template.id,
    name: template.name ?? (typeof template.template.name === "string" ? template.template.name : null),
    boat_class: typeof template.template.boat_class === "string" ? template.template.boat_class : null,
    steps,
    unmatched_steps: [...(match?.unmatched_steps ?? [])],
    extra_set_ids: extra,
  };
}

export const ZTrainingDetail = ZTrainingListItem.extend({
  notes: z.string(),
  failure: z.object({ code: z.string(), message: z.string() }).nullable().describe("why processing failed (status failed); null otherwise"),
  processed_at: z.string().nullable(),
  sensitivity: z.number().describe("segmentation sensitivity used, 0.5 to 10"),
  athlete: Ref.nullable().describe("the paddler, when the subject may see them"),
  template: ZTrainingTemplate.nullable().describe("the workout template the practice followed, null without one"),
  sets: z.array(ZTrainingSet).describe("work sets and rests in time order; empty until the training is ready"),
});

export function serializeTrainingDetail(parts: {
  row: TrainingRow;
  athlete: TrainingAthlete;
  template: { id: number | null; name: string | null; template: NormalizedTemplate } | null;
  match: { unmatched_steps: number[]; extra_sets: number[] } | null;
  sets: TrainingSetRow[];
}): z.output<typeof ZTrainingDetail> {
  const { row, athlete, template, match, sets } = parts;
  const ready = row.status === "ready";
  const shownSets = ready ? sets : [];
  const origin = shownSets[0]?.startS ?? 0;
  return {
    ...serializeTrainingListItem(row),
    notes: row.notes,
    failure:
      row.status === "failed" ? { code: row.failureCode ?? "processing_failed", message: row.failureMessage ?? "Processing failed" } : null,
    processed_at: row.processedAt ? row.processedAt.toISOString() : null,
    sensitivity: row.sensitivity,
    athlete: athlete?.athlete ?? null,
    template: template ? serializeTemplate(template, ready ? match : null, shownSets) : null,
    sets: shownSets.map((s) => serializeTrainingSet(s, origin)),
  };
}

export const ZSetSummary = ZSessionSummary.omit({ session_id: true, data_quality: true }).extend({
  set_id: z.number().int(),
  position: z.number().int(),
  step_index: z.number().int().nullable(),
  complete: z.boolean(),
  pace_500m_s: nullableNumber.describe("average time per 500 m, seconds"),
});
export const ZTrainingSummary = z.object({
  training_id: z.number().int(),
  work_set_count: z.number().int(),
  total: ZSessionSummary.omit({ session_id: true }).describe(
    "first work start to last work end, rests included, and the recording's data-quality report",
  ),
  sets: z.array(ZSetSummary).describe("one derived summary per work set, in order"),
});

// From distance ÷ time unrounded, not the summary's 3-decimal avg_speed, so it is the pace the training page shows (docs/processing.md "Figures").
const pace500 = (summary: Pick<SessionSummary, "distance_m" | "duration_ms">) =>
  pace500Tenths(averageSpeedMS(summary.distance_m, summary.duration_ms));

export function serializeSetSummary(set: WorkSet, heartRateAllowed: boolean): z.output<typeof ZSetSummary> {
  return {
    set_id: set.id,
    position: set.position,
    step_index: set.stepIndex,
    complete: set.complete,
    ...summaryFigures(set.summary, heartRateAllowed, finalTimeUncertainty(set.track)),
    pace_500m_s: pace500(set.summary),
  };
}

export function serializeTrainingSummary(
  trainingId: number,
  total: { summary: SessionSummary; dataQuality: DataQuality },
  sets: WorkSet[],
  heartRateAllowed: boolean,
): z.output<typeof ZTrainingSummary> {
  const { data_quality, ...totals } = serializeSessionSummary(trainingId, total.summary, total.dataQuality, heartRateAllowed, null);
  return {
    training_id: trainingId,
    work_set_count: sets.length,
    total: { ...omitSessionId(totals), data_quality },
    sets: sets.map((s) => serializeSetSummary(s, heartRateAllowed)),
  };
}

/** The whole-training figures reuse the session summary's serializer; its session_id has no place here. */
function omitSessionId<T extends { session_id: number }>(value: T): Omit<T, "session_id"> {
  const out: Partial<T> = { ...value };
  delete out.session_id;
  return out as Omit<T, "session_id">;
}

export const ZTimelineInterval = z.object({
  set_id: z.number().int(),
  position: z.number().int(),
  kind: z.enum(["work", "rest"]),
  start_s: z.number().describe("seconds from the first work set's start"),
  end_s: z.number(),
  duration_s: z.number(),
  distance_m: z.number().int(),
  stroke_count: z.number().int(),
  avg_speed_m_s: nullableNumber,
  avg_rate_spm: nullableNumber.describe("work sets: mean stroke rate; rests: null"),
  step_index: z.number().int().nullable(),
  complete: z.boolean(),
  corrected: z
    .boolean()
    .describe("true when a person's correction made this interval: its kind or bounds differ from what detection found"),
});
export const ZTrainingTimeline = z.object({
  training_id: z.number().int(),
  duration_s: z.number().describe("first work start to last work end"),
  work_s: z.number().describe("time in work sets"),
  rest_s: z.number().describe("time in rests"),
  intervals: z.array(ZTimelineInterval).describe("work sets and rests in time order; relative times and derived metrics only"),
});

export function serializeTimeline(trainingId: number, sets: TrainingSetRow[], works: WorkSet[]): z.output<typeof ZTrainingTimeline> {
  const origin = sets[0]?.startS ?? 0;
  const byId = new Map(works.map((w) => [w.id, w]));
  const intervals = sets.map((set) => {
    const duration = set.durationMs / 1000;
    const work = byId.get(set.id);
    return {
      set_id: set.id,
      position: set.position,
      kind: set.kind,
      start_s: r3(set.startS - origin),
      end_s: r3(set.endS - origin),
      duration_s: r3(duration),
      distance_m: set.distanceM,
      stroke_count: set.strokeCount,
      avg_speed_m_s: work ? work.summary.avg_speed : duration > 0 ? r3(set.distanceM / duration) : null,
      avg_rate_spm: work ? work.summary.avg_rate : null,
      step_index: set.stepIndex,
      complete: set.complete,
      corrected: set.corrected,
    };
  });
  const sum = (kind: "work" | "rest") => r3(intervals.filter((i) => i.kind === kind).reduce((t, i) => t + i.duration_s, 0));
  const last = sets[sets.length - 1];
  return { training_id: trainingId, duration_s: last ? r3(last.endS - origin) : 0, work_s: sum("work"), rest_s: sum("rest"), intervals };
}

export const ZSetSplits = z.object({
  training_id: z.number().int(),
  set_id: z.number().int(),
  count: z.number().int(),
  splits: z.array(ZSplit),
});
export function serializeSetSplits(trainingId: number, setId: number, splits: Split[]): z.output<typeof ZSetSplits> {
  return { training_id: trainingId, set_id: setId, count: splits.length, splits: splitItems(splits) };
}

export const ZSetSeries = z.object({ training_id: z.number().int(), set_id: z.number().int(), ...seriesShape("the set's start") });

export function serializeSetSeries(
  trainingId: number,
  setId: number,
  series: Record<string, (number | null)[]>,
  route: [number, number][] | null,
): z.output<typeof ZSetSeries> {
  return { training_id: trainingId, set_id: setId, ...seriesMembers(series, route) };
}

const ZComparedSet = z.object({
  set_id: z.number().int(),
  position: z.number().int(),
  step_index: z.number().int().nullable(),
  complete: z.boolean(),
  distance_m: z.number().int(),
  duration_ms: z.number().int(),
  duration_uncertainty_s: nullableNumber.describe(
    "95 % uncertainty of the set's final time, seconds (the last split's elapsed_uncertainty_s; 0 when the set ends at a time, not a distance)",
  ),
  stroke_count: z.number().int(),
  avg_speed_m_s: z.number(),
  max_speed_m_s: z.number(),
  pace_500m_s: nullableNumber,
  avg_rate_spm: nullableNumber,
  avg_stroke_distance_m: nullableNumber,
  rank: z.number().int().describe("1 = fastest average speed among the compared sets"),
  delta_vs_first: z
    .object({ duration_ms: z.number().int(), avg_speed_m_s: z.number(), avg_rate_spm: nullableNumber })
    .describe("this set minus the first set of the request"),
  splits: z.array(ZSplit).describe("equal-distance splits of the set"),
});
export const ZSetComparison = z.object({
  training_id: z.number().int(),
  splits: z.number().int().describe("split count used per set"),
  fastest_set_id: z.number().int(),
  sets: z.array(ZComparedSet).describe("in the order requested"),
});

export function serializeComparison(
  trainingId: number,
  splitCount: number,
  sets: { set: WorkSet; splits: Split[] }[],
): z.output<typeof ZSetComparison> {
  const bySpeed = [...sets].sort((a, b) => b.set.summary.avg_speed - a.set.summary.avg_speed || a.set.position - b.set.position);
  const rank = new Map(bySpeed.map((s, i) => [s.set.id, i + 1]));
  const first = sets[0].set;
  const diffRate = (a: number | null, b: number | null) => (a === null || b === null ? null : Math.round((a - b) * 10) / 10);
  return {
    training_id: trainingId,
    splits: splitCount,
    fastest_set_id: bySpeed[0].set.id,
    sets: sets.map(({ set, splits }) => ({
      set_id: set.id,
      position: set.position,
      step_index: set.stepIndex,
      complete: set.complete,
      distance_m: set.distanceM,
      duration_ms: set.durationMs,
      stroke_count: set.strokeCount,
      avg_speed_m_s: set.summary.avg_speed,
      max_speed_m_s: set.summary.max_speed,
      pace_500m_s: pace500(set.summary),
      avg_rate_spm: set.summary.avg_rate,
      avg_stroke_distance_m: set.summary.avg_stroke_distance,
      rank: rank.get(set.id)!,
      delta_vs_first: {
        duration_ms: set.durationMs - first.durationMs,
        avg_speed_m_s: r3(set.summary.avg_speed - first.summary.avg_speed),
        avg_rate_spm: diffRate(set.summary.avg_rate, first.summary.avg_rate),
      },
      duration_uncertainty_s: splits.length ? splits[splits.length - 1].time_uncertainty_s : null,
      splits: splitItems(splits),
    })),
  };
}
