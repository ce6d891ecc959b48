import { inngest } from "./client";
import type { OutboxSink } from "../server/events/outbox";

/**
 * The relay's sink for a real Inngest server (server/startup.ts): the outbox
 * row's id is Inngest's idempotency key, so a batch sent twice after a crash
 * starts its functions once.
 */
export const inngestOutboxSink: OutboxSink = async (events) => {
  await inngest.send(events.map((event) => ({ id: event.id, name: event.name, data: event.data })));
};
