import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, describe, expect, it } from "vitest";
import { issueAccessToken, makeOwnerAndApp } from "../../test/support/oauth-fixtures";
import { openDb } from "../db/client";
import { webhookDeliveries, webhookEvents } from "../db/schema";
import { emitWebhookEvent } from "./emit-event";
import { createEndpoint } from "./endpoints";
import { startReceiver } from "../../test/support/webhook-receiver";
import { relayAppEvents } from "../jobs/embedded-runner";

/**
 * At-least-once across a crash: the process delivering a webhook dies while
 * its POST is in flight; another process takes the run over and delivers
 * the event again with the same `webhook-id`, so a consumer that dedupes by
 * it sees the event exactly once. Works on Postgres (DATABASE_URL) and on a
 * PGlite folder the processes open one after another.
 */
describe("webhook delivery across a crash", () => {
  const tempDir = fs.mkdtempSync(path.join(os.tmpdir(), "webhook-crash-"));
  const dataDir = path.join(tempDir, "pglite");
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    fs.rmSync(tempDir, { recursive: true, force: true });
  });
  const open = () => openDb({ databaseUrl: process.env.DATABASE_URL || undefined, dataDir, maxConnections: 3 });
  const start = (deliveryId: number) => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", path.join(import.meta.dirname, "../../test/workers/delivery-crash-worker.ts")],
      {
        env: { ...process.env, WEBHOOK_TEST_DATA_DIR: dataDir, WEBHOOK_TEST_DELIVERY_ID: String(deliveryId), WEBHOOK_ALLOW_LOOPBACK: "1" },
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    children.push(child);
    let stdout = "";
    child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    return { child, output: () => stdout };
  };
  const exited = (child: ChildProcess) =>
    new Promise<void>((resolve) =>
      child.exitCode !== null || child.signalCode !== null ? resolve() : child.once("exit", () => resolve()),
    );

  it("a worker killed mid-delivery: the event still arrives, identified once by its webhook-id", { timeout: 120_000 }, async () => {
    // The first POST never gets an answer (the process delivering it is killed meanwhile); later ones get 200.
    const receiver = await startReceiver((_request, index) => (index === 0 ? "hang" : 200));
    let deliveryId: number;
    let secret: string;
    const setup = open();
    try {
      await setup.migrate();
      const { owner, application } = await makeOwnerAndApp(setup.db);
      await issueAccessToken(setup.db, {
        userId: owner.id,
        applicationId: application.id,
        clientId: application.clientId,
        scopes: ["openid", "sessions:read"],
        audience: "https://results.example/api/v1",
      });
      ({ secret } = await createEndpoint(setup.db, owner.id, application.id, { url: receiver.url, eventTypes: ["session.created"] }));
      await setup.db.transaction((tx) => emitWebhookEvent(tx, { type: "session.created", userId: owner.id, ids: { session_id: 501 } }));
      [{ id: deliveryId }] = await setup.db
        .select({ id: webhookDeliveries.id })
        .from(webhookDeliveries)
        .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
        .where(eq(webhookEvents.applicationId, application.id));
      // The app's relay turns the committed outbox row into the run the workers below execute.
      await relayAppEvents(setup.db);
    } finally {
      await setup.close();
    }

    try {
      const first = start(deliveryId);
      await receiver.waitFor(1, 90_000);
      first.child.kill("SIGKILL");
      await exited(first.child);

      const second = start(deliveryId);
      await exited(second.child);
      expect(second.child.exitCode).toBe(0);
      expect(second.output()).toContain('"done":true');

      expect(receiver.received.length).toBeGreaterThanOrEqual(2);
      const ids = new Set(receiver.received.map((r) => r.headers["webhook-id"]));
      expect(ids.size).toBe(1);
      for (const request of receiver.received)
        expect(new Webhook(secret).verify(request.body, request.headers)).toMatchObject({
          type: "session.created",
          data: { session_id: 501 },
        });
      const check = open();
      try {
        const [row] = await check.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, deliveryId));
        expect(row).toMatchObject({ status: "succeeded", lastResponseStatus: 200 });
      } finally {
        await check.close();
      }
    } finally {
      await receiver.close();
    }
  });
});
