import { exampleWebhookPayload, TEST_EVENT_TYPE, WEBHOOK_EVENT_TYPES, webhookEventTypeNames, type WebhookEventType } from "./event-types";
import { INT4_MAX } from "../contract/values";

/**
 * The OpenAPI 3.1 `webhooks` section of the Data API document
 * (docs/webhooks.md): one POST per event type, as the consumer receives it.
 */
const ID_SCHEMAS: Record<string, Record<string, unknown>> = {
  session: { session_id: { type: "integer", minimum: 1, maximum: INT4_MAX, description: "GET /sessions/{session_id}" } },
  training: { training_id: { type: "integer", minimum: 1, maximum: INT4_MAX, description: "GET /trainings/{training_id}" } },
  export: { export_id: { type: "string", description: "GET /exports/{job_id}" } },
  device_job: { device_job_id: { type: "string", description: "GET /devices/jobs/{job_id}" } },
};

const HEADERS = [
  { name: "webhook-id", description: "Message id (msg_…): the same on every retry and redelivery of this event; deduplicate by it." },
  {
    name: "webhook-timestamp",
    description: "Seconds since the Unix epoch when this attempt was signed; reject values far from now (replay protection).",
  },
  {
    name: "webhook-signature",
    description:
      "Space-separated `v1,<base64 HMAC-SHA256>` of `${webhook-id}.${webhook-timestamp}.${body}`, keyed with the base64-decoded part of your `whsec_…` secret. Two signatures during a secret rotation's overlap; accept if any matches.",
  },
].map((h) => ({ name: h.name, in: "header", required: true, description: h.description, schema: { type: "string" } }));

/**
 * How a delivery proves where it comes from, as an OpenAPI security scheme:
 * not a credential of ours that the receiver holds, but the Standard Webhooks
 * signature the receiver must check (docs/openapi.md "Webhooks"). OpenAPI has
 * no signature type; an API key in the `webhook-signature` header is the
 * nearest, and the description says what to do with it.
 */
export const WEBHOOK_SECURITY_SCHEME = {
  webhookSignature: {
    type: "apiKey",
    in: "header",
    name: "webhook-signature",
    description:
      "Standard Webhooks signature: verify `webhook-signature` against `${webhook-id}.${webhook-timestamp}.${body}` with the endpoint's `whsec_…` secret (HMAC-SHA256), and refuse a delivery whose signature does not match or whose timestamp is far from now. Not a key to compare: it differs on every delivery.",
  },
};

/** `session.created` → `webhook_session_created`: the operation id of the event's delivery. */
const operationIdOf = (type: string) => `webhook_${type.replace(/[^a-z0-9]+/g, "_")}`;

function operation(type: WebhookEventType | typeof TEST_EVENT_TYPE) {
  const rule = type === TEST_EVENT_TYPE ? null : WEBHOOK_EVENT_TYPES[type];
  const ids = rule?.resource ? ID_SCHEMAS[rule.resource] : {};
  const dataSchema =
    type === TEST_EVENT_TYPE
      ? { type: "object", additionalProperties: false, properties: {} }
      : {
          type: "object",
          additionalProperties: false,
          required: ["subject", ...Object.keys(ids)],
          properties: {
            subject: { type: "string", description: "The person's pairwise `sub`, as in this application's tokens and GET /me" },
            ...ids,
          },
        };
  return {
    post: {
      operationId: operationIdOf(type),
      summary: type,
      description: `${rule ? rule.summary : "Sent by the portal's “Send test event” button."}${rule?.scope ? ` Sent only while the person's grant holds \`${rule.scope}\`.` : ""}`,
      tags: ["Webhooks"],
      "x-scopes": rule?.scope ? [rule.scope] : [],
      security: [{ webhookSignature: [] }],
      parameters: HEADERS,
      requestBody: {
        required: true,
        content: {
          "application/json": {
            schema: {
              type: "object",
              additionalProperties: false,
              required: ["type", "timestamp", "data"],
              properties: {
                type: { const: type },
                timestamp: { type: "string", format: "date-time", description: "When the change happened" },
                data: dataSchema,
              },
            },
            example: exampleWebhookPayload(type),
          },
        },
      },
      responses: {
        "2XX": {
          description: "Received. Any other answer, or none within 15 s, is retried: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h later.",
        },
      },
    },
  };
}

export function webhooksOpenApi(): Record<string, unknown> {
  return Object.fromEntries([...webhookEventTypeNames, TEST_EVENT_TYPE].map((type) => [type, operation(type)]));
}
