import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { verifyWebhook } from "../packages/sdk/src/index";
import { expect, test } from "./fixtures";
import { newAccount, signUp } from "./helpers";

/**
 * The application page's webhooks (docs/webhooks.md): add an endpoint (its
 * secret shown once), send a test event that a Standard Webhooks consumer
 * verifies, the links to the webhook log (whose spec redelivers), rotate
 * the secret, delete the endpoint. The receiver is on loopback: the e2e
 * server runs with WEBHOOK_ALLOW_LOOPBACK=1, as a local run may.
 */
test("webhook endpoints on the application page: add, test event, link to the log, rotate, delete", async ({ page }) => {
  const received: { headers: Record<string, string>; body: string }[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      received.push({ headers: req.headers as Record<string, string>, body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  try {
    await signUp(page, newAccount("webhooks"));
    await page.goto("/developer/applications/new");
    await page.getByLabel("Application name").fill("Hook app");
    await page.getByLabel("Redirect URIs", { exact: true }).fill("https://hooks.example/callback");
    await page.getByRole("checkbox", { name: /^sessions:read / }).check();
    await page.getByRole("button", { name: "Register application" }).click();
    await page.getByRole("link", { name: "Go to the application" }).click();
    await expect(page.getByRole("heading", { name: "Webhooks" })).toBeVisible();

    await page.getByRole("button", { name: "Add endpoint" }).click();
    await page.getByLabel("Endpoint URL").fill(url);
    await page.getByRole("button", { name: "Add endpoint" }).click();
    const secret = (await page.getByTestId("webhook-secret").textContent())!;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);

    const endpoint = page.getByRole("region", { name: `Webhook endpoint ${url}` });
    await endpoint.getByRole("button", { name: "Send test event" }).click();
    await expect.poll(() => received.length, { timeout: 20_000 }).toBe(1);
    expect(new Webhook(secret).verify(received[0].body, received[0].headers)).toMatchObject({ type: "webhook.test" });
    // The SDK's own verification accepts the live delivery too, and refuses it under another secret.
    const verified = await verifyWebhook({ secret, headers: received[0].headers, body: received[0].body });
    expect(verified.id).toBe(received[0].headers["webhook-id"]);
    expect(verified.event).toMatchObject({ type: "webhook.test" });
    await expect(
      verifyWebhook({ secret: `whsec_${Buffer.alloc(32, 7).toString("base64")}`, headers: received[0].headers, body: received[0].body }),
    ).rejects.toThrow();

    // The secret is never shown again. The delivery, its attempts and Redeliver are in the webhook log (e2e/webhook-log.spec.ts).
    await page.reload();
    expect(await page.content()).not.toContain(secret);
    await expect(page.getByRole("link", { name: "webhook log" })).toHaveAttribute("href", /^\/developer\/applications\/\d+\/webhooks$/);
    await expect(endpoint.getByRole("link", { name: "Delivery log of this endpoint" })).toHaveAttribute("href", /\/webhooks\?endpoint=we_/);

    await page
      .getByRole("region", { name: `Webhook endpoint ${url}` })
      .getByRole("button", { name: "Rotate secret" })
      .click();
    await page.getByRole("dialog").getByRole("button", { name: "Rotate secret" }).click();
    const rotated = (await page.getByTestId("webhook-secret").textContent())!;
    expect(rotated).not.toBe(secret);
    await expect(page.getByText(/the previous secret also signs until/)).toBeVisible();

    await page
      .getByRole("region", { name: `Webhook endpoint ${url}` })
      .getByRole("button", { name: "Delete endpoint" })
      .click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete endpoint" }).click();
    await expect(page.getByRole("region", { name: `Webhook endpoint ${url}` })).toHaveCount(0);
  } finally {
    server.closeAllConnections();
    server.close();
  }
});
