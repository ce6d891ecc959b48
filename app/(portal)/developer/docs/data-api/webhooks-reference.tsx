import Link from "next/link";
import { exampleWebhookPayload, WEBHOOK_EVENT_TYPES, webhookEventTypeNames } from "@/server/webhooks/event-types";

/** The reference's webhooks section: every event type with its scope and an example (the same data as the OpenAPI `webhooks` section). */
export function WebhooksReference() {
  return (
    <section className="card" id="webhooks" aria-labelledby="webhooks-title">
      <h2 id="webhooks-title">Webhooks</h2>
      <p>
        Add endpoints on your <Link href="/developer/applications">application&apos;s page</Link>. Each delivery is a <code>POST</code>{" "}
        signed as the <a href="https://www.standardwebhooks.com/">Standard Webhooks</a> specification says: headers <code>webhook-id</code>{" "}
        (the same on every retry: deduplicate by it), <code>webhook-timestamp</code> and <code>webhook-signature</code> (<code>v1,</code> +
        base64 HMAC-SHA256 of <code>id.timestamp.body</code> with your <code>whsec_…</code> secret; two signatures during a rotation).
        Verify with any Standard Webhooks library, e.g. <code>new Webhook(secret).verify(body, headers)</code> from the{" "}
        <code>standardwebhooks</code> npm package.
      </p>
      <p>
        Events reach an application only for people whose grant is active, only for resources its granted scopes can read, and on the
        session surface only for sessions and trainings it created. A payload carries the type, the time, the person&apos;s pairwise{" "}
        <code>subject</code> (the <code>sub</code> of your tokens) and resource ids only: fetch the data with your token. Answer 2xx within
        15 s; anything else is retried 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h later. An endpoint that fails for 5 days is disabled (the
        application page says why).
      </p>
      <table>
        <thead>
          <tr>
            <th scope="col">Type</th>
            <th scope="col">When</th>
            <th scope="col">Scope</th>
          </tr>
        </thead>
        <tbody>
          {webhookEventTypeNames.map((type) => (
            <tr key={type}>
              <td>
                <code>{type}</code>
              </td>
              <td>{WEBHOOK_EVENT_TYPES[type].summary}</td>
              <td>{WEBHOOK_EVENT_TYPES[type].scope ? <code>{WEBHOOK_EVENT_TYPES[type].scope}</code> : "any grant"}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {webhookEventTypeNames.map((type) => (
        <details key={type}>
          <summary>
            Example: <code>{type}</code>
          </summary>
          <pre>
            <code>{JSON.stringify(exampleWebhookPayload(type), null, 2)}</code>
          </pre>
        </details>
      ))}
    </section>
  );
}
