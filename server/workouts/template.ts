/**
 * Workout template, version 1 (docs/workouts.md, docs/workout-template.schema.json):
 * the shared JSON shape of an interval practice. Pure: `inspectTemplate`
 * validates an already-parsed value and `inspectTemplateText` the raw text;
 * both report every problem with a JSONPath and a message, and never throw,
 * whatever the input (huge arrays, deep nesting, wrong types, megabytes).
 */
import type { StepTargets, WorkoutStep } from "../svc/types";

/** A step's shape is the processing core's (server/svc/types.ts): the template is one way to write it. */
export type { StepTargets, WorkoutStep };

export const TEMPLATE_VERSION = 1;
export const TEMPLATE_LIMITS = {
  /** Raw text accepted by inspectTemplateText. */
  maxBytes: 65_536,
  /** JSON nesting (objects and arrays) accepted before parsing. */
  maxJsonDepth: 32,
  /** Items in one `steps` array. */
  maxStepsPerList: 100,
  /** Repeat blocks inside repeat blocks: 1 = a repeat may not contain another. */
  maxRepeatDepth: 3,
  maxRepeat: 50,
  /** Steps after repeats are expanded. */
  maxExpandedSteps: 500,
  /** Reported problems; one more says how many were left out. */
  maxProblems: 100,
  maxNameLength: 200,
  maxNotesLength: 2000,
  distanceM: { min: 1, max: 50_000 },
  durationS: { min: 1, max: 14_400 },
  rateSpm: { min: 10, max: 200 },
  paceS500m: { min: 60, max: 900 },
  zone: { min: 1, max: 5 },
} as const;

export const BOAT_CLASSES = ["K1", "K2", "K4", "C1", "C2", "C4"] as const;
export type BoatClass = (typeof BOAT_CLASSES)[number];

export interface NormalizedTemplate {
  version: 1;
  name: string | null;
  boat_class: BoatClass | null;
  notes: string | null;
  /** Every step in order, repeat blocks expanded. */
  steps: WorkoutStep[];
}

export interface TemplateTotals {
  /** Work steps (the sets of the practice). */
  set_count: number;
  step_count: number;
  work_distance_m: number;
  work_duration_s: number;
  rest_distance_m: number;
  rest_duration_s: number;
}

export interface TemplateProblem {
  /** JSONPath of the offending value, e.g. `$.steps[2].distance_m`. */
  path: string;
  message: string;
}

export type TemplateInspection =
  | { valid: true; problems: []; template: NormalizedTemplate; totals: TemplateTotals }
  | { valid: false; problems: TemplateProblem[]; template: null; totals: null };

const TOP_KEYS = new Set(["version", "name", "boat_class", "notes", "steps"]);
const STEP_KEYS = new Set(["kind", "distance_m", "duration_s", "targets"]);
const REPEAT_KEYS = new Set(["repeat", "steps"]);
const TARGET_KEYS = new Set(["rate_spm", "pace_s_per_500m", "zone"]);

class Problems {
  readonly list: TemplateProblem[] = [];
  private dropped = 0;
  add(path: string, message: string) {
    if (this.list.length < TEMPLATE_LIMITS.maxProblems) this.list.push({ path, message });
    else this.dropped++;
  }
  result(): TemplateProblem[] {
    return this.dropped ? [...this.list, { path: "$", message: `${this.dropped} more problems not listed` }] : this.list;
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const typeName = (value: unknown) => (value === null ? "null" : Array.isArray(value) ? "array" : typeof value);
const member = (path: string, key: string) =>
  /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key.slice(0, 64))}]`;

/** Validate and normalize a parsed template. */
export function inspectTemplate(input: unknown): TemplateInspection {
  const problems = new Problems();
  if (!isObject(input)) {
    problems.add("$", `a workout template is a JSON object, not ${typeName(input)}`);
    return fail(problems);
  }
  if (!("version" in input)) problems.add("$.version", "required: version 1");
  else if (input.version !== TEMPLATE_VERSION)
    problems.add("$.version", `unsupported version ${JSON.stringify(input.version)?.slice(0, 40)}: only version 1 is defined`);
  unknownKeys(input, TOP_KEYS, "$", problems);
  const name = optionalText(input, "name", TEMPLATE_LIMITS.maxNameLength, problems);
  const notes = optionalText(input, "notes", TEMPLATE_LIMITS.maxNotesLength, problems);
  let boatClass: BoatClass | null = null;
  if (input.boat_class !== undefined && input.boat_class !== null) {
    if (typeof input.boat_class === "string" && (BOAT_CLASSES as readonly string[]).includes(input.boat_class))
      boatClass = input.boat_class as BoatClass;
    else problems.add("$.boat_class", `must be one of ${BOAT_CLASSES.join(", ")}`);
  }
  const steps: WorkoutStep[] = [];
  if (!("steps" in input)) problems.add("$.steps", "required: a list of steps");
  else stepList(input.steps, "$.steps", 0, steps, problems);
  if (problems.list.length === 0 && !steps.some((s) => s.kind === "work"))
    problems.add("$.steps", "a workout needs at least one work step");
  if (problems.list.length) return fail(problems);
  return { valid: true, problems: [], template: { version: 1, name, boat_class: boatClass, notes, steps }, totals: templateTotals(steps) };
}

/** Validate raw text: size and nesting are checked before parsing, so no input can exhaust the parser. */
export function inspectTemplateText(text: string): TemplateInspection {
  const problems = new Problems();
  const bytes = new TextEncoder().encode(text).length;
  if (bytes > TEMPLATE_LIMITS.maxBytes)
    problems.add("$", `the template is ${bytes} bytes; at most ${TEMPLATE_LIMITS.maxBytes} are accepted`);
  else if (jsonDepth(text) > TEMPLATE_LIMITS.maxJsonDepth) problems.add("$", `nested deeper than ${TEMPLATE_LIMITS.maxJsonDepth} levels`);
  else {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      problems.add("$", `not valid JSON: ${(error as Error).message.slice(0, 200)}`);
      return fail(problems);
    }
    return inspectTemplate(parsed);
  }
  return fail(problems);
}

export function templateTotals(steps: WorkoutStep[]): TemplateTotals {
  const totals: TemplateTotals = {
    set_count: 0,
    step_count: steps.length,
    work_distance_m: 0,
    work_duration_s: 0,
    rest_distance_m: 0,
    rest_duration_s: 0,
  };
  for (const step of steps) {
    if (step.kind === "work") {
      totals.set_count++;
      totals.work_distance_m += step.distance_m ?? 0;
      totals.work_duration_s += step.duration_s ?? 0;
    } else {
      totals.rest_distance_m += step.distance_m ?? 0;
      totals.rest_duration_s += step.duration_s ?? 0;
    }
  }
  return totals;
}

function fail(problems: Problems): TemplateInspection {
  return { valid: false, problems: problems.result(), template: null, totals: null };
}

function unknownKeys(value: Record<string, unknown>, allowed: Set<string>, path: string, problems: Problems) {
  let count = 0;
  for (const key in value) {
    if (allowed.has(key)) continue;
    if (++count > 10) {
      problems.add(path, "more unknown members not listed");
      return;
    }
    problems.add(member(path, key), "unknown member");
  }
}

function optionalText(value: Record<string, unknown>, key: string, maxLength: number, problems: Problems): string | null {
  const text = value[key];
  if (text === undefined || text === null) return null;
  if (typeof text !== "string") problems.add(`$.${key}`, `must be a string, not ${typeName(text)}`);
  else if (text.length > maxLength) problems.add(`$.${key}`, `at most ${maxLength} characters`);
  else if (/\u0000/.test(text)) problems.add(`$.${key}`, "must not contain NUL characters");
  else return text.trim() || null;
  return null;
}

/** Validate a `steps` list and append its expanded steps to `out`. */
function stepList(value: unknown, path: string, repeatDepth: number, out: WorkoutStep[], problems: Problems) {
  if (!Array.isArray(value)) {
    problems.add(path, `must be a list of steps, not ${typeName(value)}`);
    return;
  }
  if (value.length === 0) {
    problems.add(path, "must hold at least one step");
    return;
  }
  if (value.length > TEMPLATE_LIMITS.maxStepsPerList) {
    problems.add(path, `at most ${TEMPLATE_LIMITS.maxStepsPerList} steps in one list (got ${value.length})`);
    return;
  }
  value.forEach((item, k) => step(item, `${path}[${k}]`, repeatDepth, out, problems));
}

function step(value: unknown, path: string, repeatDepth: number, out: WorkoutStep[], problems: Problems) {
  if (!isObject(value)) {
    problems.add(path, `a step is an object, not ${typeName(value)}`);
    return;
  }
  if ("repeat" in value) {
    unknownKeys(value, REPEAT_KEYS, path, problems);
    const times = value.repeat;
    let ok = true;
    if (typeof times !== "number" || !Number.isInteger(times) || times < 1 || times > TEMPLATE_LIMITS.maxRepeat) {
      problems.add(`${path}.repeat`, `must be an integer from 1 to ${TEMPLATE_LIMITS.maxRepeat}`);
      ok = false;
    }
    if (repeatDepth + 1 > TEMPLATE_LIMITS.maxRepeatDepth) {
      problems.add(path, `repeat blocks nest at most ${TEMPLATE_LIMITS.maxRepeatDepth} deep`);
      return;
    }
    const inner: WorkoutStep[] = [];
    stepList(value.steps, `${path}.steps`, repeatDepth + 1, inner, problems);
    if (!ok || problems.list.length) return;
    if (out.length + inner.length * (times as number) > TEMPLATE_LIMITS.maxExpandedSteps) {
      problems.add(path, `expands to more than ${TEMPLATE_LIMITS.maxExpandedSteps} steps`);
      return;
    }
    for (let r = 0; r < (times as number); r++) for (const s of inner) out.push(s.targets ? { ...s, targets: { ...s.targets } } : { ...s });
    return;
  }
  unknownKeys(value, STEP_KEYS, path, problems);
  const kind = value.kind;
  if (kind !== "work" && kind !== "rest")
    problems.add(`${path}.kind`, kind === undefined ? 'required: "work" or "rest" (or a repeat block)' : 'must be "work" or "rest"');
  const hasDistance = value.distance_m !== undefined;
  const hasDuration = value.duration_s !== undefined;
  if (hasDistance === hasDuration)
    problems.add(path, hasDistance ? "give distance_m or duration_s, not both" : "give distance_m or duration_s");
  const distance = hasDistance ? bounded(value.distance_m, `${path}.distance_m`, TEMPLATE_LIMITS.distanceM, problems) : undefined;
  const duration = hasDuration ? bounded(value.duration_s, `${path}.duration_s`, TEMPLATE_LIMITS.durationS, problems) : undefined;
  let targets: StepTargets | undefined;
  if (value.targets !== undefined) {
    if (!isObject(value.targets)) problems.add(`${path}.targets`, `must be an object, not ${typeName(value.targets)}`);
    else {
      unknownKeys(value.targets, TARGET_KEYS, `${path}.targets`, problems);
      targets = {};
      const t = value.targets;
      if (t.rate_spm !== undefined) targets.rate_spm = bounded(t.rate_spm, `${path}.targets.rate_spm`, TEMPLATE_LIMITS.rateSpm, problems);
      if (t.pace_s_per_500m !== undefined)
        targets.pace_s_per_500m = bounded(t.pace_s_per_500m, `${path}.targets.pace_s_per_500m`, TEMPLATE_LIMITS.paceS500m, problems);
      if (t.zone !== undefined) {
        const zone = bounded(t.zone, `${path}.targets.zone`, TEMPLATE_LIMITS.zone, problems);
        if (zone !== undefined && !Number.isInteger(zone)) problems.add(`${path}.targets.zone`, "must be an integer");
        else targets.zone = zone;
      }
    }
  }
  if (kind !== "work" && kind !== "rest") return;
  if (out.length >= TEMPLATE_LIMITS.maxExpandedSteps) {
    problems.add(path, `the template expands to more than ${TEMPLATE_LIMITS.maxExpandedSteps} steps`);
    return;
  }
  const normalized: WorkoutStep = { kind };
  if (distance !== undefined) normalized.distance_m = distance;
  if (duration !== undefined) normalized.duration_s = duration;
  if (targets && Object.keys(targets).length) normalized.targets = targets;
  out.push(normalized);
}

function bounded(value: unknown, path: string, range: { min: number; max: number }, problems: Problems): number | undefined {
  if (typeof value !== "number" || !Number.isFinite(value)) {
    problems.add(path, `must be a number, not ${typeName(value)}`);
    return undefined;
  }
  if (value < range.min || value > range.max) {
    problems.add(path, `must be from ${range.min} to ${range.max}`);
    return undefined;
  }
  return value;
}

/** Deepest nesting of objects and arrays in JSON text (strings skipped), without parsing. */
function jsonDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) deepest = Math.max(deepest, ++depth);
    else if (c === 125 || c === 93) depth--;
  }
  return deepest;
}
