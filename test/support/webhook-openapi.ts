import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { dataApiDocument } from "../../server/http/data-api/openapi";

type WebhookOp = {
  post: { requestBody: { content: { "application/json": { schema: object; example: unknown } } }; parameters: { name: string }[] };
};
/** The served document's webhooks section (tests). */
export const documentedWebhooks = (dataApiDocument("https://example.test") as unknown as { webhooks: Record<string, WebhookOp> }).webhooks;

/** The payload schema of one event type in the served document, for tests that check real deliveries. */
export function payloadValidator(type: string) {
  const ajv = new Ajv2020({ strict: false });
  addFormats(ajv);
  return ajv.compile(documentedWebhooks[type].post.requestBody.content["application/json"].schema);
}
