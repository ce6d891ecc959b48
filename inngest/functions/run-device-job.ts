import { NonRetriableError } from "inngest";
import {
  copyOriginalForFetch,
  deleteDeviceOriginals,
  expireDeviceFetches,
  markDeviceJobFailed,
  markDeviceJobRunning,
} from "../../server/devices/device-jobs";
import { deviceJobs } from "../../server/db/schema";
import { eq } from "drizzle-orm";
import { inngest } from "../client";
import { failFastOnPermanentErrors } from "../domain-errors";
import { deviceJobRequested } from "../../server/events/app-events";

const FAILED_MESSAGE = "The device job could not be completed; request it again later";

/**
 * Runs one device file job (docs/exports.md "Device files"). fetch: copy the
 * stored original's bytes into a private temporary blob (never decoded),
 * then sleep until the copy expires and delete it if it was never
 * downloaded. delete: remove the unit's stored originals. Idempotent steps.
 */
export const runDeviceJobFunction = inngest.createFunction(
  { id: "run-device-job", name: "Device file job", triggers: [deviceJobRequested], retries: 3 },
  async ({ event, step, db }) => {
    const deviceJobId = event.data.deviceJobId;
    const kind = await step.run("mark-running", async () => {
      await markDeviceJobRunning(db, deviceJobId);
      const [job] = await db.select({ kind: deviceJobs.kind }).from(deviceJobs).where(eq(deviceJobs.id, deviceJobId));
      if (!job) throw new NonRetriableError("Device job not found");
      return job.kind;
    });
    try {
      if (kind === "delete")
        return await step.run("delete-originals", () => failFastOnPermanentErrors(() => deleteDeviceOriginals(db, deviceJobId)));
      const copied = await step.run("copy-original", () => failFastOnPermanentErrors(() => copyOriginalForFetch(db, deviceJobId)));
      await step.sleepUntil("until-copy-expires", new Date(copied.expiresAt));
      return { expired: await step.run("delete-expired-copies", () => expireDeviceFetches(db)) };
    } catch (error) {
      const message =
        error instanceof Error && (error.name === "NonRetriableError" || error.cause instanceof NonRetriableError)
          ? error.message
          : FAILED_MESSAGE;
      await step.run("mark-failed", () => markDeviceJobFailed(db, deviceJobId, message));
      return { state: "failed" };
    }
  },
);
