import {
  beginReprocessRun,
  failReprocessRun,
  finishReprocessRun,
  reprocessNextBatch,
  type ReprocessDeps,
} from "../../server/reprocess/reprocess-runs";
import { inngest } from "../client";
import { reprocessRequested } from "../../server/events/app-events";

/**
 * Reprocesses every stored original made by an older processing core
 * (docs/processing.md "Reprocessing"): one step fixes the run's scope, then
 * one step per batch. The cursor and counters live in the run's row and
 * move with each item's own transaction, so a step that runs again after a
 * restart resumes after the last item committed; an item at the target
 * version is skipped. A failing item is recorded and the run goes on; a run
 * whose steps fail for good (database gone past every retry) is marked
 * failed, which frees the way for a new run. A run the operator stopped
 * (a lost one, typically) ends here at its next step: every step's writes
 * are guarded by the run's state, so nothing is resumed or overwritten.
 *
 * A factory so the restart test can observe items; the app uses the default.
 */
export function makeReprocessStoredFilesFunction(deps: ReprocessDeps = {}) {
  return inngest.createFunction(
    { id: "reprocess-stored-files", name: "Reprocess stored files", triggers: [reprocessRequested], retries: 3 },
    async ({ event, step, db }) => {
      const runId = event.data.runId;
      const started = await step.run("start", () => beginReprocessRun(db, runId));
      if (started.state !== "running") return { state: started.state };
      try {
        for (let batch = 1; ; batch++) {
          const result = await step.run(`batch-${batch}`, () => reprocessNextBatch(db, runId, deps));
          if (result.finished) break;
        }
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        await step.run("mark-failed", () => failReprocessRun(db, runId, `The run stopped: ${message}`));
        return { state: "failed" };
      }
      return step.run("finish", () => finishReprocessRun(db, runId));
    },
  );
}

export const reprocessStoredFilesFunction = makeReprocessStoredFilesFunction();
