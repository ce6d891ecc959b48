import { dispatchEndpointBatch, handOverDispatch, releaseDispatch, retakeDispatch } from "../../server/webhooks/dispatch";
import { inngest } from "../client";
import { webhookEndpointDue } from "../../server/events/app-events";

/** Rounds (batch, hand-back, sleep, take-back: at most 4 steps each) before a run passes the endpoint to a fresh run (Inngest allows 1,000 steps). */
const MAX_ROUNDS = 200;

/**
 * Sends one endpoint's webhooks (docs/webhooks.md "Dispatch"): while it is
 * responsible for the endpoint, each `batch-N` step claims and sends the due
 * deliveries in order; with nothing due it hands the endpoint back, and
 * sleeps until the first pending retry if there is one. A process that dies
 * mid-batch repeats the step: the run takes its own claims back and sends
 * what was not recorded again, with the same `webhook-id` (at least once).
 * The concurrency key keeps one run per endpoint on an Inngest server (the
 * embedded runner relies on the endpoint's `dispatch_queued_at` for that, and
 * on the claims); the function-level limit bounds endpoints worked at once.
 */
export const dispatchWebhooksFunction = inngest.createFunction(
  {
    id: "dispatch-webhooks",
    name: "Dispatch webhooks to one endpoint",
    triggers: [webhookEndpointDue],
    retries: 3,
    concurrency: [{ limit: 32 }, { key: "event.data.endpointId", limit: 1 }],
  },
  async ({ event, step, db, runId }) => {
    const endpointId = event.data.endpointId;
    let sent = 0;
    for (let round = 1; round <= MAX_ROUNDS; round++) {
      const batch = await step.run(`batch-${round}`, () => dispatchEndpointBatch(db, endpointId, { owner: runId }));
      sent += batch.sent;
      if (batch.state === "more") continue;
      const release = await step.run(`release-${round}`, () => releaseDispatch(db, endpointId));
      if (release.state === "continue") continue;
      if (release.state === "done") return { sent };
      await step.sleepUntil(`wait-${round}`, new Date(release.until));
      if (!(await step.run(`retake-${round}`, () => retakeDispatch(db, endpointId)))) return { sent };
    }
    await step.run("hand-over", () => handOverDispatch(db, endpointId));
    return { sent, handedOver: true };
  },
);
