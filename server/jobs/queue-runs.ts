import { randomUUID } from "node:crypto";
import type { Db } from "../db/client";
import type { StoredJobEvent } from "../db/schema";
import { assertEmbeddable, functionsTriggeredBy, type JobFunction } from "./job-functions";
import type { OutboxSink } from "../events/outbox";
import { notifyRunsQueued, nudgeLocalWorkers } from "../events/run-notifications";
import { insertRuns } from "./run-store";

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

/** Any event, for the embedded runner's tests and their test-only functions. */
export interface JobEvent {
  name: string;
  data: Record<string, unknown>;
  /** Idempotency key: an event id already queued does not start its functions again. */
  id?: string;
}

/**
 * Test hook of the runner itself: queues runs of test-only functions
 * directly, since no relay knows them (an outbox row of a test event would be
 * marked sent by any relay of the app's functions, with no run). App code
 * emits events with `sendEvent` (send-event.ts), through the outbox.
 */
export async function queueRunsDirectly(
  db: Db,
  event: JobEvent,
  functions: readonly JobFunction[],
): Promise<{ eventId: string; runIds: string[] }> {
  const stored: StoredJobEvent = { name: event.name, data: event.data, id: event.id ?? randomUUID(), ts: Date.now() };
  const triggered = functionsTriggeredBy(functions, event.name);
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
