import { NonRetriableError } from "inngest";
import { buildAndStoreExport, expireExportFiles, markExportFailed, markExportRunning } from "../../server/exports/export-jobs";
import { inngest } from "../client";
import { failFastOnPermanentErrors } from "../domain-errors";
import { exportRequested } from "../../server/events/app-events";

/** What a client reads in `error` when a build failed for a reason that is not theirs to fix. */
export const EXPORT_FAILED_MESSAGE = "The export could not be built; request it again later";

/**
 * Builds one export file (issue 10, docs/exports.md): marks the job running,
 * builds and stores the file, then sleeps until the file expires and deletes
 * it. Every step is idempotent, so a restart in the middle repeats at most
 * the step in progress. A build that fails for good (a permanent domain
 * error at once, anything else after the retries) marks the job failed with
 * a message, never a stack trace.
 */
export const buildExportFunction = inngest.createFunction(
  { id: "build-export", name: "Build export file", triggers: [exportRequested], retries: 3 },
  async ({ event, step, db }) => {
    const exportJobId = event.data.exportJobId;
    const started = await step.run("mark-running", () => markExportRunning(db, exportJobId));
    if (started.state !== "running") return { state: started.state };
    let built: { expiresAt: string };
    try {
      built = await step.run("build-and-store", () => failFastOnPermanentErrors(() => buildAndStoreExport(db, exportJobId)));
    } catch (error) {
      const message = permanentMessage(error) ?? EXPORT_FAILED_MESSAGE;
      await step.run("mark-failed", () => markExportFailed(db, exportJobId, message));
      return { state: "failed" };
    }
    await step.sleepUntil("until-file-expires", new Date(built.expiresAt));
    const expired = await step.run("delete-expired-files", () => expireExportFiles(db));
    return { state: "expired", expired };
  },
);

/** The message of a permanent domain error (e.g. "Session not found"), written for people; null for anything else. */
function permanentMessage(error: unknown): string | null {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    if (e instanceof NonRetriableError || e.name === "NonRetriableError") return e.message;
  }
  return null;
}
