import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET } from "../../app/api/inngest/route";
import type { DbHandle } from "../db/client";
import { openTestDb } from "../../test/support/test-db";
import { eq } from "drizzle-orm";
import { eventOutbox } from "../db/schema";
import { listRunsForEvent } from "../jobs/run-queries";
import { relayAppEvents } from "../jobs/embedded-runner";
import { sendEvent } from "./send-event";

let handle: DbHandle;
beforeAll(async () => {
  handle = await openTestDb();
});
afterAll(async () => {
  await handle.close();
});

describe("sendEvent with the embedded runner (no Inngest configured)", () => {
  it("writes the outbox, whose relay queues a run of each app function the event triggers, once", async () => {
    const { eventId } = await sendEvent(handle.db, { name: "result/stored", data: { resultId: 42 } });
    expect(await listRunsForEvent(handle.db, eventId)).toEqual([]);
    const [row] = await handle.db.select().from(eventOutbox).where(eq(eventOutbox.eventId, eventId));
    expect(row).toMatchObject({ name: "result/stored", sentAt: null });
    await relayAppEvents(handle.db);
    await relayAppEvents(handle.db);
    const runs = await listRunsForEvent(handle.db, eventId);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ functionId: "build-replay-artifact", eventName: "result/stored", status: "queued", attempt: 0 });
  });

  it("sends nothing for a transaction that rolls back", async () => {
    let eventId = "";
    await expect(
      handle.db.transaction(async (tx) => {
        ({ eventId } = await sendEvent(tx, { name: "result/stored", data: { resultId: 43 } }));
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    await relayAppEvents(handle.db);
    expect(await handle.db.select().from(eventOutbox).where(eq(eventOutbox.eventId, eventId))).toEqual([]);
    expect(await listRunsForEvent(handle.db, eventId)).toEqual([]);
  });

  it("rejects event data that breaks the event's schema where it is sent", async () => {
    // @ts-expect-error resultId must be a number
    await expect(sendEvent(handle.db, { name: "result/stored", data: { resultId: "42" } })).rejects.toThrow(/resultId/);
  });
});

describe("/api/inngest without Inngest configuration", () => {
  it("answers 404: nothing outside may call the functions", async () => {
    const response = await GET(new Request("http://localhost/api/inngest") as never, {});
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: "not_found" });
  });
});
