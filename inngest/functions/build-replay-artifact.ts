import { inngest } from "../client";
import { failFastOnPermanentErrors } from "../domain-errors";
import { resultStored } from "../../server/events/app-events";
import { buildReplayArtifact } from "../../server/replay/build-replay-artifact";

/**
 * After a result is stored, build its replay artifact and store it as a blob
 * (issue 4, "Background jobs"). The work is one step: its output is the
 * artifact's reference, memoized once it succeeds.
 */
export const buildReplayArtifactFunction = inngest.createFunction(
  { id: "build-replay-artifact", name: "Build replay artifact", triggers: [resultStored], retries: 3 },
  async ({ event, step, db }) => {
    return step.run("build-and-store-artifact", () => failFastOnPermanentErrors(() => buildReplayArtifact(db, event.data.resultId)));
  },
);
