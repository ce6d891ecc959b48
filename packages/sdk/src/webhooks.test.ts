import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { verifyWebhook, WebhookVerificationError, type WebhookFailure } from "./webhooks";

/**
 * The SDK's verification against the reference implementation of Standard
 * Webhooks (the `standardwebhooks` package): signatures it makes must verify,
 * and anything altered must not.
 */
const newSecret = () => `whsec_${randomBytes(24).toString("base64")}`;
const NOW_MS = Date.UTC(2026, 10, 27, 12, 0, 0);
const now = () => NOW_MS;

function delivery(secret: string, options: { id?: string; at?: Date; body?: string } = {}) {
  const id = options.id ?? `msg_${randomBytes(8).toString("hex")}`;
  const at = options.at ?? new Date(NOW_MS);
  const body =
    options.body ??
    JSON.stringify({ type: "session.created", timestamp: at.toISOString(), data: { subject: "pairwise-sub", session_id: 42 } });
  const signature = new Webhook(secret).sign(id, at, body);
  return {
    id,
    body,
    headers: { "webhook-id": id, "webhook-timestamp": String(Math.floor(at.getTime() / 1000)), "webhook-signature": signature },
  };
}

async function failure(promise: Promise<unknown>): Promise<WebhookFailure> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WebhookVerificationError);
  return (error as WebhookVerificationError).reason;
}

describe("verifyWebhook", () => {
  it("accepts what standardwebhooks signs, from a Headers or a Node-style object, as text or bytes, and returns the parsed event", async () => {
    const secret = newSecret();
    const d = delivery(secret);
    const verified = await verifyWebhook({ secret, headers: new Headers(d.headers), body: d.body, now });
    expect(verified.id).toBe(d.id);
    expect(verified.timestamp.getTime()).toBe(NOW_MS);
    expect(verified.event).toEqual({
      type: "session.created",
      timestamp: new Date(NOW_MS).toISOString(),
      data: { subject: "pairwise-sub", session_id: 42 },
    });
    const upper = Object.fromEntries(Object.entries(d.headers).map(([k, v]) => [k.replace(/^w/, "W"), v]));
    await expect(verifyWebhook({ secret, headers: upper, body: new TextEncoder().encode(d.body), now })).resolves.toMatchObject({
      id: d.id,
    });
  });

  it("a body with non-ASCII text verifies over its UTF-8 bytes", async () => {
    const secret = newSecret();
    const d = delivery(secret, {
      body: JSON.stringify({ type: "training.ready", timestamp: "x", data: { title: "Piragüismo 4×250 — ½" } }),
    });
    await expect(verifyWebhook({ secret, headers: d.headers, body: d.body, now })).resolves.toMatchObject({
      event: { data: { title: "Piragüismo 4×250 — ½" } },
    });
  });

  it("refuses a changed body, id or timestamp, and another secret", async () => {
    const secret = newSecret();
    const d = delivery(secret);
    expect(await failure(verifyWebhook({ secret, headers: d.headers, body: d.body.replace("42", "43"), now }))).toBe(
      "no_matching_signature",
    );
    expect(await failure(verifyWebhook({ secret, headers: { ...d.headers, "webhook-id": `${d.id}x` }, body: d.body, now }))).toBe(
      "no_matching_signature",
    );
    const later = String(Number(d.headers["webhook-timestamp"]) + 1);
    expect(await failure(verifyWebhook({ secret, headers: { ...d.headers, "webhook-timestamp": later }, body: d.body, now }))).toBe(
      "no_matching_signature",
    );
    expect(await failure(verifyWebhook({ secret: newSecret(), headers: d.headers, body: d.body, now }))).toBe("no_matching_signature");
    // Re-serialized JSON is another body: verification needs the raw bytes.
    expect(await failure(verifyWebhook({ secret, headers: d.headers, body: JSON.stringify(JSON.parse(d.body), null, 2), now }))).toBe(
      "no_matching_signature",
    );
  });

  it("holds the timestamp to the tolerance, both ways (300 s by default)", async () => {
    const secret = newSecret();
    const old = delivery(secret, { at: new Date(NOW_MS - 301_000) });
    expect(await failure(verifyWebhook({ secret, headers: old.headers, body: old.body, now }))).toBe("timestamp_too_old");
    const ahead = delivery(secret, { at: new Date(NOW_MS + 301_000) });
    expect(await failure(verifyWebhook({ secret, headers: ahead.headers, body: ahead.body, now }))).toBe("timestamp_too_new");
    const edge = delivery(secret, { at: new Date(NOW_MS - 299_000) });
    await expect(verifyWebhook({ secret, headers: edge.headers, body: edge.body, now })).resolves.toBeTruthy();
    await expect(verifyWebhook({ secret, headers: old.headers, body: old.body, now, toleranceSeconds: 600 })).resolves.toBeTruthy();
    expect(await failure(verifyWebhook({ secret, headers: { ...old.headers, "webhook-timestamp": "soon" }, body: old.body, now }))).toBe(
      "invalid_timestamp",
    );
  });

  it("during a rotation: any one matching signature of several, and several secrets on the consumer's side", async () => {
    const [oldSecret, newSecretValue] = [newSecret(), newSecret()];
    const d = delivery(newSecretValue);
    const both = `${new Webhook(oldSecret).sign(d.id, new Date(NOW_MS), d.body)} ${d.headers["webhook-signature"]}`;
    await expect(
      verifyWebhook({ secret: oldSecret, headers: { ...d.headers, "webhook-signature": both }, body: d.body, now }),
    ).resolves.toBeTruthy();
    await expect(verifyWebhook({ secret: [oldSecret, newSecretValue], headers: d.headers, body: d.body, now })).resolves.toBeTruthy();
    // Unknown versions (v1a is the asymmetric scheme) and malformed entries are skipped, not fatal.
    await expect(
      verifyWebhook({
        secret: newSecretValue,
        headers: { ...d.headers, "webhook-signature": `v1a,abc v1,%%% ${d.headers["webhook-signature"]}` },
        body: d.body,
        now,
      }),
    ).resolves.toBeTruthy();
  });

  it("missing headers, a malformed secret, a signed body that is not JSON", async () => {
    const secret = newSecret();
    const d = delivery(secret);
    expect(await failure(verifyWebhook({ secret, headers: { "webhook-id": d.id }, body: d.body, now }))).toBe("missing_headers");
    expect(await failure(verifyWebhook({ secret: "whsec_not base64!", headers: d.headers, body: d.body, now }))).toBe("invalid_secret");
    const text = delivery(secret, { body: "plain text" });
    expect(await failure(verifyWebhook({ secret, headers: text.headers, body: text.body, now }))).toBe("invalid_payload");
  });
});
