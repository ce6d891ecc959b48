/**
 * A process for outbox.test.ts, configured for a real Inngest server (the
 * test's stand-in at INNGEST_DEV).
 *
 * OUTBOX_TEST_ROLE=commit: sends an event inside a transaction that
 * commits, prints `{"eventId"}` and then hangs without relaying, to be
 * SIGKILLed: the process dies between the commit and the send.
 * OUTBOX_TEST_ROLE=relay: starts the outbox relay, waits until the event
 * OUTBOX_TEST_EVENT_ID is sent, prints `{"done":true}` and exits.
 */
import { and, eq, isNull } from "drizzle-orm";
import { openDb } from "../../server/db/client";
import { eventOutbox, exportJobs } from "../../server/db/schema";
import { OutboxRelay } from "../../server/events/outbox";
import { inngestOutboxSink } from "../../inngest/outbox-sink";
import { sendEvent } from "../../server/events/send-event";

async function main(): Promise<void> {
  const handle = openDb({
    databaseUrl: process.env.DATABASE_URL || undefined,
    dataDir: process.env.OUTBOX_TEST_DATA_DIR,
    maxConnections: 3,
  });
  await handle.migrate();
  if (process.env.OUTBOX_TEST_ROLE === "commit") {
    const { eventId } = await handle.db.transaction(async (tx) => {
      await tx.select().from(exportJobs).limit(1); // any work of the transaction
      return sendEvent(tx, { name: "export/requested", data: { exportJobId: 4242 } });
    });
    process.stdout.write(`${JSON.stringify({ eventId })}\n`);
    await new Promise(() => {}); // never relays: killed here
    return;
  }
  const relay = new OutboxRelay(handle.db, inngestOutboxSink, { pollIntervalMs: 100 });
  await relay.start();
  for (;;) {
    const pending = await handle.db
      .select({ id: eventOutbox.id })
      .from(eventOutbox)
      .where(and(eq(eventOutbox.eventId, process.env.OUTBOX_TEST_EVENT_ID!), isNull(eventOutbox.sentAt)));
    if (!pending.length) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await relay.stop();
  await handle.close();
  process.stdout.write(`${JSON.stringify({ done: true })}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
