import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "../db/client";
import { openTestDb } from "../../test/support/test-db";
import { listenForQueuedRuns, notifyRunsQueued } from "./run-notifications";

let handle: DbHandle;
beforeAll(async () => {
  handle = await openTestDb();
});
afterAll(async () => {
  await handle.close();
});

const settle = () => new Promise((resolve) => setTimeout(resolve, 100));

describe("queued-run notifications", () => {
  it("reach listeners when the sending transaction commits, never before and never after a rollback", async () => {
    let heard = 0;
    const stop = await listenForQueuedRuns(handle.db, () => (heard += 1));
    try {
      await handle.db.transaction(async (tx) => {
        await notifyRunsQueued(tx);
        await settle();
        expect(heard).toBe(0);
      });
      await settle();
      expect(heard).toBe(1);

      await handle.db
        .transaction(async (tx) => {
          await notifyRunsQueued(tx);
          throw new Error("roll back");
        })
        .catch(() => {});
      await settle();
      expect(heard).toBe(1);

      await notifyRunsQueued(handle.db);
      await settle();
      expect(heard).toBe(2);
    } finally {
      await stop();
    }
  });
});
