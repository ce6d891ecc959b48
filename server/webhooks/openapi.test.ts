import { describe, expect, it } from "vitest";
import { webhookEventTypeNames } from "./event-types";
import { documentedWebhooks as webhooks, payloadValidator } from "../../test/support/webhook-openapi";

describe("the Data API document's webhooks section", () => {
  it("documents every event type (and the test event) with the Standard Webhooks headers and an example its schema accepts", () => {
    expect(Object.keys(webhooks).sort()).toEqual([...webhookEventTypeNames, "webhook.test"].sort());
    for (const [type, op] of Object.entries(webhooks)) {
      expect(
        op.post.parameters.map((p) => p.name),
        type,
      ).toEqual(["webhook-id", "webhook-timestamp", "webhook-signature"]);
      const validate = payloadValidator(type);
      expect(validate(op.post.requestBody.content["application/json"].example), `${type}: ${JSON.stringify(validate.errors)}`).toBe(true);
      // A payload with a health figure (or anything beyond ids) is not what the document allows.
      const example = op.post.requestBody.content["application/json"].example as { data: Record<string, unknown> };
      expect(validate({ ...example, data: { ...example.data, heart_rate_bpm: 150 } }), type).toBe(false);
    }
  });
});
