import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET } from "../../app/api/inngest/route";
import type { DbHandle } from "../db/client";
import { openTestDb } from "../db/test-db";
import { listRunsForEvent } from "./run-queries";
import { sendEvent } from "./send-event";

let handle: DbHandle;
beforeAll(async () => {
  handle = await openTestDb();
});
afterAll(async () => {
  await handle.close();
});

describe("sendEvent with the embedded runner (no Inngest configured)", () => {
  it("queues a run of each app function the event triggers", async () => {
    const { eventId, runIds } = await sendEvent(handle.db, { name: "result/stored", data: { resultId: 42 } });
    expect(runIds).toHaveLength(1);
    const [run] = await listRunsForEvent(handle.db, eventId);
    expect(run).toMatchObject({ id: runIds[0], functionId: "build-replay-artifact", eventName: "result/stored", status: "queued", attempt: 0 });
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
