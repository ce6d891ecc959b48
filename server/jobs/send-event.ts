import { randomUUID } from "node:crypto";
import { appEventSchemas, type AppEvent } from "../../inngest/events";
import { getEnv } from "../config/env";
import type { Db } from "../db/client";
import type { StoredJobEvent } from "../db/schema";
import { enqueueOutboxEvent, enqueueOutboxEvents, nudgeOutboxRelay, type OutboxSink } from "./outbox";
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
 * In every configuration the event is written to the transactional outbox
 * through `db`: called with a transaction, it exists only if the transaction
 * commits. The relay then hands committed rows on: to the Inngest server, or
 * (embedded runner) as runs in `job_runs`, in the relay's own transaction.
 *
 * `options.functions` (tests only) replaces the app's functions and queues
 * their runs directly, since no relay knows test-only functions.
 */
export async function sendEvent(db: Db, event: AppEvent): Promise<SentEvent>;
export async function sendEvent(db: Db, event: JobEvent, options: { functions: readonly JobFunction[] }): Promise<SentEvent>;
export async function sendEvent(db: Db, event: AppEvent | JobEvent, options?: { functions: readonly JobFunction[] }): Promise<SentEvent> {
  const data = validatedData(event);
  const eventId = event.id ?? randomUUID();
  if (!options?.functions) {
    // The outbox row commits with the caller's transaction; the relay hands it on after (docs/jobs.md "Outbox").
    await enqueueOutboxEvent(db, { id: eventId, name: event.name, data });
    if (getEnv().jobsRunner === "inngest") {
      nudgeOutboxRelay();
    } else {
      // The embedded worker relays the outbox before it claims: wake it at commit.
      await notifyRunsQueued(db);
      nudgeLocalWorkers();
    }
    return { eventId, runIds: [] };
  }
  const stored: StoredJobEvent = { name: event.name, data, id: eventId, ts: Date.now() };
  const triggered = functionsTriggeredBy(options.functions, event.name);
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
 * Several app events in one go (one outbox insert, one wake-up): same
 * guarantees as `sendEvent` for each, for callers that emit many at once.
 */
export async function sendEvents(db: Db, events: AppEvent[]): Promise<void> {
  if (!events.length) return;
  await enqueueOutboxEvents(
    db,
    events.map((event) => ({ id: event.id ?? randomUUID(), name: event.name, data: validatedData(event) })),
  );
  if (getEnv().jobsRunner === "inngest") {
    nudgeOutboxRelay();
  } else {
    await notifyRunsQueued(db);
    nudgeLocalWorkers();
  }
}

/**
 * The embedded runner's relay sink: each committed outbox event becomes one
 * queued run per function it triggers, inserted in the relay's transaction
 * together with the row's "sent" mark, so a crash repeats or loses nothing.
 */
export function embeddedOutboxSink(functions: readonly JobFunction[]): OutboxSink {
  return async (events, tx) => {
    for (const event of events) {
      const triggered = functionsTriggeredBy(functions, event.name);
      await insertRuns(
        tx,
        triggered.map((fn) => fn.id()),
        { name: event.name, data: event.data, id: event.id, ts: Date.now() },
      );
    }
  };
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
