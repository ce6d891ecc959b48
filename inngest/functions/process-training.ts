import { NonRetriableError } from "inngest";
import { markTrainingFailed, markTrainingProcessing, processStoredTraining } from "../../server/trainings/process-training";
import { inngest } from "../client";
import { failFastOnPermanentErrors } from "../domain-errors";
import { trainingStored } from "../../server/events/app-events";

/**
 * Processes a stored training (issue 13, docs/trainings.md): marks it
 * processing, then runs the core on the original and writes the sets in one
 * transaction. Each step is idempotent (processing replaces what an earlier
 * run wrote), so a restart repeats at most the step in progress. A training
 * whose file the core refuses ends `failed` inside the processing step; an
 * unexpected error is retried and, after the last retry, marks it failed.
 */
export const processTrainingFunction = inngest.createFunction(
  { id: "process-training", name: "Process training", triggers: [trainingStored], retries: 3 },
  async ({ event, step, db }) => {
    const trainingId = event.data.trainingId;
    try {
      await step.run("mark-processing", () => failFastOnPermanentErrors(() => markTrainingProcessing(db, trainingId)));
      return await step.run("process-and-store-sets", () => failFastOnPermanentErrors(() => processStoredTraining(db, trainingId)));
    } catch (error) {
      // The training is gone: nothing to mark.
      if (isNotFound(error)) return { status: "gone" as const };
      await step.run("mark-failed", () => markTrainingFailed(db, trainingId, "processing_error"));
      return { status: "failed" as const, code: "processing_error" as const };
    }
  },
);

function isNotFound(error: unknown): boolean {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    if ((e instanceof NonRetriableError || e.name === "NonRetriableError") && / not found$/.test(e.message)) return true;
  }
  return false;
}
