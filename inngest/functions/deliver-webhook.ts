import { attemptWebhookDelivery, MAX_ATTEMPTS } from "../../server/webhooks/deliver";
import { inngest } from "../client";
import { webhookDeliveryRequested } from "../events";

/**
 * Delivers one webhook to one endpoint (docs/webhooks.md): an attempt per
 * step, sleeping until the next attempt the schedule gives (about a day of
 * retries in all). A process that dies in the middle of an attempt repeats
 * that attempt with the same `webhook-id`; finished attempts are never sent
 * again. `retries` covers only errors of our own (the database), since an
 * endpoint's failure is an outcome the step records, not an exception.
 */
export const deliverWebhookFunction = inngest.createFunction(
  { id: "deliver-webhook", name: "Deliver webhook", triggers: [webhookDeliveryRequested], retries: 3 },
  async ({ event, step, db }) => {
    const deliveryId = event.data.deliveryId;
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const outcome = await step.run(`attempt-${attempt}`, () => attemptWebhookDelivery(db, deliveryId));
      if (outcome.state !== "retry") return outcome;
      await step.sleepUntil(`wait-${attempt}`, new Date(outcome.nextAttemptAt));
    }
    return { state: "failed" as const };
  },
);
