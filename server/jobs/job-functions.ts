import { EventType, type InngestFunction } from "inngest";

/** Any Inngest function object, as created with `inngest.createFunction`. */
export type JobFunction = InngestFunction.Any;

/** Inngest's default when a function sets no `retries`. */
const DEFAULT_RETRIES = 3;

/** Attempts a step (or the function body) gets: the first try plus the retries. */
export function maxAttemptsOf(fn: JobFunction): number {
  return (fn.opts.retries ?? DEFAULT_RETRIES) + 1;
}

/** A trigger as functions declare it: an event type, `{ event }` (a name or an event type) or `{ cron }`. */
type Trigger = { event?: string | EventType<string, never>; if?: string; cron?: string } | EventType<string, never>;

function triggersOf(fn: JobFunction): readonly Trigger[] {
  return (fn.opts.triggers ?? []) as readonly Trigger[];
}

function triggerEventName(trigger: Trigger): string | undefined {
  if (trigger instanceof EventType) return trigger.name;
  if (typeof trigger.event === "string") return trigger.event;
  if (trigger.event instanceof EventType) return trigger.event.name;
  return undefined;
}

/** Event names match exactly, or by prefix for a trigger ending in "*" ("result/*"). */
function matches(pattern: string, eventName: string): boolean {
  return pattern.endsWith("*") ? eventName.startsWith(pattern.slice(0, -1)) : pattern === eventName;
}

/** The functions an event triggers. */
export function functionsTriggeredBy(functions: readonly JobFunction[], eventName: string): JobFunction[] {
  return functions.filter((fn) =>
    triggersOf(fn).some((trigger) => {
      const name = triggerEventName(trigger);
      return name !== undefined && matches(name, eventName);
    }),
  );
}

/**
 * The embedded runner honours triggers, retries, step.run and step.sleep.
 * Options that change when or whether a run happens would be silently wrong
 * if ignored, so a function using them is refused up front (docs/jobs.md).
 */
export function assertEmbeddable(fn: JobFunction): void {
  const problems: string[] = [];
  for (const trigger of triggersOf(fn)) {
    if (trigger instanceof EventType) continue;
    if (trigger.cron) problems.push("cron triggers");
    if (trigger.if) problems.push("trigger `if` expressions");
  }
  const unsupportedOptions = ["batchEvents", "debounce", "cancelOn", "onFailure", "singleton", "rateLimit", "idempotency"] as const;
  for (const option of unsupportedOptions) if (fn.opts[option] !== undefined) problems.push(`the \`${option}\` option`);
  if (problems.length) {
    throw new Error(`Function "${fn.id()}" uses ${problems.join(", ")}, which the embedded job runner does not support (docs/jobs.md).`);
  }
}
