/**
 * A process for delivery-crash.test.ts: runs the `dispatch-webhooks` function
 * in an embedded worker (short lease) until delivery WEBHOOK_TEST_DELIVERY_ID
 * is no longer pending, then prints `{"done":true}` and exits. The test
 * SIGKILLs the first such process while its POST is in flight.
 */
import { eq } from "drizzle-orm";
import { dispatchWebhooksFunction } from "../../inngest/functions/dispatch-webhooks";
import { openDb } from "../../server/db/client";
import { webhookDeliveries } from "../../server/db/schema";
import { EmbeddedWorker } from "../../server/jobs/embedded-runner";

async function main(): Promise<void> {
  const handle = openDb({
    databaseUrl: process.env.DATABASE_URL || undefined,
    dataDir: process.env.WEBHOOK_TEST_DATA_DIR,
    maxConnections: 3,
  });
  await handle.migrate();
  const worker = new EmbeddedWorker({
    db: handle.db,
    functions: [dispatchWebhooksFunction],
    leaseMs: 2_000,
    pollIntervalMs: 200,
    exclusiveDatabase: handle.kind === "pglite",
  });
  await worker.start();
  process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
  const id = Number(process.env.WEBHOOK_TEST_DELIVERY_ID);
  for (;;) {
    const [row] = await handle.db.select({ status: webhookDeliveries.status }).from(webhookDeliveries).where(eq(webhookDeliveries.id, id));
    if (row && row.status !== "pending") break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await worker.stop();
  await handle.close();
  process.stdout.write(`${JSON.stringify({ done: true })}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
