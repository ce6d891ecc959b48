import { randomUUID } from "node:crypto";
import { appEventSchemas, type AppEvent } from "../../inngest/events";
import { getEnv } from "../config/env";
import type { Db } from "../db/client";
import type { StoredJobEvent } from "../db/schema";
import { enqueueOutboxEvent, nudgeOutboxRelay, type OutboxSink } from "./outbox";
import { assertEmbeddable, functionsTriggeredBy, type JobFunction } from "./job-functions";
import { notifyRunsQueued, nudgeLocalWorkers } from "./run-notifications";
import { insertRuns } from "./run-store";

/** Any event, for the embedded runner's tests and their test-only functions. */
export interface JobEvent {
  name: string;
  data: Record<string, unknown>;
  /** Idempotency key: an event id already sent does not start its functions again. */
  id?: string;
}

export interface SentEvent {
  eventId: string;
  /** Runs queued by the embedded runner (one per triggered function); empty when Inngest runs them. */
  runIds: string[];
}

/**
 * The app's one way to emit a background event (docs/jobs.md).
 *
 * With an Inngest server configured, the event is written to the outbox
 * through `db` and the relay sends it to Inngest once it is committed.
 * Otherwise a run per triggered function is queued for the embedded runner
 * through `db`. Either way, called with a transaction, the event exists only
 * if the transaction commits, and nothing is sent before it does.
 *
 * `options.functions` (tests only) replaces the app's functions and implies
 * the embedded runner.
 */
export async function sendEvent(db: Db, event: AppEvent): Promise<SentEvent>;
export async function sendEvent(db: Db, event: JobEvent, options: { functions: readonly JobFunction[] }): Promise<SentEvent>;
export async function sendEvent(db: Db, event: AppEvent | JobEvent, options?: { functions: readonly JobFunction[] }): Promise<SentEvent> {
  const data = validatedData(event);
  const eventId = event.id ?? randomUUID();
  if (!options?.functions && getEnv().jobsRunner === "inngest") {
    // The outbox row commits with the caller's transaction; the relay sends it after (docs/jobs.md "Outbox").
    await enqueueOutboxEvent(db, { id: eventId, name: event.name, data });
    nudgeOutboxRelay();
    return { eventId, runIds: [] };
  }
  const stored: StoredJobEvent = { name: event.name, data, id: eventId, ts: Date.now() };
  const triggered = functionsTriggeredBy(options?.functions ?? (await appFunctions()), event.name);
  triggered.forEach(assertEmbeddable);
  const runIds = await insertRuns(
    db,
    triggered.map((fn) => fn.id()),
    stored,
  );
  if (runIds.length) {
    await notifyRunsQueued(db);
    nudgeLocalWorkers();
  }
  return { eventId: stored.id, runIds };
}

/**
 * The app's function registry, loaded on first use: functions call domain
 * code that sends events, so a static import would be a cycle that breaks
 * whenever a function module is loaded before the registry.
 */
async function appFunctions(): Promise<readonly JobFunction[]> {
  return (await import("../../inngest")).inngestFunctions;
}

/** Bad event data is the sender's bug: fail where it is sent, not later in a run. */
function validatedData(event: AppEvent | JobEvent): Record<string, unknown> {
  const schema = appEventSchemas.get(event.name);
  return schema ? (schema.parse(event.data) as Record<string, unknown>) : event.data;
}

/** The relay's sink for a real Inngest server: the outbox row's id is Inngest's idempotency key. */
export const inngestOutboxSink: OutboxSink = async (events) => {
  const { inngest } = await import("../../inngest/client");
  await inngest.send(events.map((event) => ({ id: event.id, name: event.name, data: event.data })));
};
