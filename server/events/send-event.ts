import { randomUUID } from "node:crypto";
import { appEventSchemas, type AppEvent } from "./app-events";
import { getEnv } from "../config/env";
import type { Db } from "../db/client";
import { enqueueOutboxEvents, nudgeOutboxRelay, type OutboxEvent } from "./outbox";
import { notifyRunsQueued, nudgeLocalWorkers } from "./run-notifications";

export interface SentEvent {
  eventId: string;
}

/**
 * The app's one way to emit a background event (docs/jobs.md).
 *
 * In every configuration the event is written to the transactional outbox
 * through `db`: called with a transaction, it exists only if the transaction
 * commits. The relay then hands committed rows on: to the Inngest server, or
 * (embedded runner) as runs in `job_runs`, in the relay's own transaction.
 * This module knows no function: which functions an event starts is the
 * relay's business, so domain code never imports the function registry.
 */
export async function sendEvent(db: Db, event: AppEvent): Promise<SentEvent> {
  const [row] = await writeToOutbox(db, [event]);
  return { eventId: row.id };
}

/**
 * Several app events in one go (one outbox insert, one wake-up): same
 * guarantees as `sendEvent` for each, for callers that emit many at once.
 */
export async function sendEvents(db: Db, events: AppEvent[]): Promise<void> {
  if (events.length) await writeToOutbox(db, events);
}

async function writeToOutbox(db: Db, events: AppEvent[]): Promise<OutboxEvent[]> {
  const rows = events.map((event) => ({ id: event.id ?? randomUUID(), name: event.name, data: validatedData(event) }));
  // The outbox rows commit with the caller's transaction; the relay hands them on after (docs/jobs.md "Outbox").
  await enqueueOutboxEvents(db, rows);
  if (getEnv().jobsRunner === "inngest") {
    nudgeOutboxRelay();
  } else {
    // The embedded worker relays the outbox before it claims: wake it at commit.
    await notifyRunsQueued(db);
    nudgeLocalWorkers();
  }
  return rows;
}

/** Bad event data is the sender's bug: fail where it is sent, not later in a run. */
function validatedData(event: AppEvent): Record<string, unknown> {
  const schema = appEventSchemas.get(event.name);
  if (!schema) throw new Error(`Unknown event "${event.name}": every event the app sends is declared in server/events/app-events.ts.`);
  return schema.parse(event.data) as Record<string, unknown>;
}
