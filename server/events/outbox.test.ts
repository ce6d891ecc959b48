import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDb, type DbHandle } from "../db/client";
import { eventOutbox } from "../db/schema";
import { openTestDb, usePrivateDatabase } from "../../test/support/test-db";
import { enqueueOutboxEvent, relayOutbox, type OutboxEvent } from "./outbox";

let handle: DbHandle;
// A database of its own: its work spans the whole database (test/support/test-db.ts usePrivateDatabase).
let dropPrivateDatabase: () => Promise<void> = async () => {};
beforeAll(async () => {
  dropPrivateDatabase = await usePrivateDatabase();
  handle = await openTestDb();
});
afterAll(async () => {
  await handle.close();
  await dropPrivateDatabase();
});

/** Relays only this test's rows (other tests share a Postgres). */
const only = (ids: string[], received: OutboxEvent[]) => async (events: OutboxEvent[]) => {
  received.push(...events.filter((e) => ids.includes(e.id)));
};
const rowsOf = (ids: string[]) => handle.db.select().from(eventOutbox).where(inArray(eventOutbox.eventId, ids));

describe("outbox", () => {
  it("an event written in a transaction exists only if it commits, and is relayed once", async () => {
    const kept = randomUUID();
    const dropped = randomUUID();
    await handle.db.transaction((tx) => enqueueOutboxEvent(tx, { id: kept, name: "test/outbox", data: { n: 1 } }));
    await expect(
      handle.db.transaction(async (tx) => {
        await enqueueOutboxEvent(tx, { id: dropped, name: "test/outbox", data: { n: 2 } });
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect((await rowsOf([kept, dropped])).map((r) => r.eventId)).toEqual([kept]);

    const received: OutboxEvent[] = [];
    await relayOutbox(handle.db, only([kept, dropped], received));
    await relayOutbox(handle.db, only([kept, dropped], received));
    expect(received).toEqual([{ id: kept, name: "test/outbox", data: { n: 1 } }]);
    expect((await rowsOf([kept]))[0].sentAt).not.toBeNull();
  });

  it("a failed send stays pending with a backoff and is sent by a later pass", async () => {
    const id = randomUUID();
    await enqueueOutboxEvent(handle.db, { id, name: "test/outbox", data: {} });
    await relayOutbox(handle.db, async (events) => {
      if (events.some((e) => e.id === id)) throw new Error("Inngest unreachable");
    });
    const [failed] = await rowsOf([id]);
    expect(failed).toMatchObject({ sentAt: null, attempts: 1, lastError: "Inngest unreachable" });
    expect(failed.nextAttemptAt.getTime()).toBeGreaterThan(Date.now());
    const received: OutboxEvent[] = [];
    await relayOutbox(handle.db, only([id], received), { now: () => new Date(Date.now() + 60_000) });
    expect(received.map((e) => e.id)).toEqual([id]);
  });

  it("concurrent relays never send one row twice", async () => {
    const racing = process.env.DATABASE_URL ? openDb({ databaseUrl: process.env.DATABASE_URL, maxConnections: 8 }) : handle;
    try {
      const ids = Array.from({ length: 30 }, () => randomUUID());
      for (const id of ids) await enqueueOutboxEvent(handle.db, { id, name: "test/outbox", data: {} });
      const received: OutboxEvent[] = [];
      const slow = async (events: OutboxEvent[]) => {
        await new Promise((resolve) => setTimeout(resolve, 30));
        await only(ids, received)(events);
      };
      await Promise.all(Array.from({ length: 4 }, () => relayOutbox(racing.db, slow)));
      expect(received.map((e) => e.id).sort()).toEqual([...ids].sort());
    } finally {
      if (racing !== handle) await racing.close();
    }
  });
});

describe("outbox across a crash between commit and send", () => {
  const tempDir = fs.mkdtempSync(path.join(os.tmpdir(), "outbox-crash-"));
  const children: ChildProcess[] = [];
  const received: { id: string; name: string; data: unknown }[] = [];
  let server: http.Server;
  let inngestUrl: string;

  beforeAll(async () => {
    // A stand-in for the Inngest server's event API: records every event sent to it.
    server = http.createServer((request, response) => {
      let body = "";
      request.on("data", (chunk: Buffer) => (body += chunk.toString()));
      request.on("end", () => {
        const events = JSON.parse(body) as { id: string; name: string; data: unknown }[];
        received.push(...events);
        response.setHeader("content-type", "application/json");
        response.end(JSON.stringify({ ids: events.map((e) => e.id), status: 200 }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    inngestUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await new Promise((resolve) => server.close(resolve));
    fs.rmSync(tempDir, { recursive: true, force: true });
  });

  function start(role: string, extra: Record<string, string> = {}) {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", path.join(import.meta.dirname, "../../test/workers/outbox-crash-worker.ts")],
      {
        env: {
          ...process.env,
          OUTBOX_TEST_ROLE: role,
          OUTBOX_TEST_DATA_DIR: path.join(tempDir, "pglite"),
          INNGEST_DEV: inngestUrl,
          ...extra,
        },
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    children.push(child);
    let stdout = "";
    child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    return { child, output: () => stdout };
  }
  const exited = (child: ChildProcess) =>
    new Promise<void>((resolve) =>
      child.exitCode !== null || child.signalCode !== null ? resolve() : child.once("exit", () => resolve()),
    );

  it("an event committed by a process killed before sending is sent once by the next relay", { timeout: 120_000 }, async () => {
    const committer = start("commit");
    const deadline = Date.now() + 90_000;
    while (!committer.output().includes("eventId") && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    const { eventId } = JSON.parse(committer.output().trim()) as { eventId: string };
    committer.child.kill("SIGKILL");
    await exited(committer.child);
    expect(received).toEqual([]);

    const relay = start("relay", { OUTBOX_TEST_EVENT_ID: eventId });
    await exited(relay.child);
    expect(relay.child.exitCode).toBe(0);
    expect(received.filter((e) => e.id === eventId)).toEqual([
      { id: eventId, name: "export/requested", data: { exportJobId: 4242 }, ts: expect.any(Number) },
    ]);

    const check = openDb({ databaseUrl: process.env.DATABASE_URL || undefined, dataDir: path.join(tempDir, "pglite") });
    try {
      const [row] = await check.db.select().from(eventOutbox).where(eq(eventOutbox.eventId, eventId));
      expect(row.sentAt).not.toBeNull();
    } finally {
      await check.close();
    }
  });
});
