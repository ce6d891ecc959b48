import http from "node:http";
import type { AddressInfo } from "node:net";
import { expectNoPageOverflow } from "./a11y";
import { expect, test } from "./fixtures";
import { newAccount, signUpInBrowser } from "./helpers";

/**
 * The webhook log on a live server (docs/webhooks.md "The delivery log"): a
 * delivery to a loopback receiver opens to its request (signature header,
 * body) and the receiver's response (status, header, body); a delivery to a
 * port nobody listens on says why in words; Redeliver sends the same
 * webhook-id again; the filters narrow the list;
 * the retention is stated; nothing scrolls sideways at 1366 or 390 px.
 */
test("the webhook log: request and response of a delivery, a failure in words, filters, at 1366 and 390 px", async ({ page }) => {
  const received: string[] = [];
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      received.push(req.headers["webhook-id"] as string);
      res.writeHead(200, { "content-type": "application/json", "x-receiver": "e2e-log" }).end('{"received":true}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const okUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/ok`;
  const closed = http.createServer();
  await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
  const refusedUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/refused`;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  try {
    await signUpInBrowser(page, newAccount("webhook-log"));
    const call = async <T>(procedure: string, input: unknown): Promise<T> => {
      const response = await page.request.post(`/api/trpc/${procedure}`, { data: input });
      expect(response.status(), await response.text()).toBe(200);
      return (await response.json()).result.data as T;
    };
    const app = await call<{ id: number }>("applications.create", {
      name: "Log app",
      surface: "data",
      clientType: "confidential",
      redirectUris: ["https://hooks.example/callback"],
      scopes: ["openid", "sessions:read"],
    });
    const ok = await call<{ id: string }>("webhooks.create", { applicationId: app.id, url: okUrl, eventTypes: ["session.created"] });
    const refused = await call<{ id: string }>("webhooks.create", {
      applicationId: app.id,
      url: refusedUrl,
      eventTypes: ["session.created"],
    });
    await call("webhooks.sendTest", { applicationId: app.id, endpointId: ok.id });
    await call("webhooks.sendTest", { applicationId: app.id, endpointId: refused.id });
    // Both first attempts made (the log's own query, as the page makes it), then the page once.
    const log = `/api/trpc/webhooks.log?input=${encodeURIComponent(JSON.stringify({ applicationId: app.id }))}`;
    await expect
      .poll(async () => {
        const { deliveries } = (await (await page.request.get(log)).json()).result.data as { deliveries: { attempts: number }[] };
        return deliveries.filter((d) => d.attempts > 0).length;
      })
      .toBe(2);

    await page.setViewportSize({ width: 1366, height: 900 });
    await page.goto(`/developer/applications/${app.id}/webhooks`);
    const refusedWords = /The connection to 127\.0\.0\.1:\d+ was refused: nothing accepts connections on that port \(ECONNREFUSED\)/;
    const okDelivery = page.locator("summary", { hasText: "/ok" });
    const refusedDelivery = page.locator("summary", { hasText: "/refused" });
    await expect(okDelivery).toContainText(/succeeded\s*200 · \d+ ms · 1 attempt/);
    await expect(refusedDelivery).toContainText("no response");
    await expect(refusedDelivery).toContainText(refusedWords);
    await expect(page.getByTestId("webhook-retention")).toContainText("kept for 30 days after the event was created");

    // Filters: by endpoint, by status; the URL keeps them.
    const listed = page.getByRole("list", { name: "Deliveries" }).getByRole("listitem");
    await page.getByLabel("Endpoint").selectOption(refused.id);
    await expect(listed).toHaveCount(1);
    await expect(refusedDelivery).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`endpoint=${refused.id}`));
    await page.getByLabel("Endpoint").selectOption("");
    await page.getByLabel("Status").selectOption("succeeded");
    await expect(listed).toHaveCount(1);
    await expect(okDelivery).toBeVisible();
    await page.getByLabel("Status").selectOption("");
    await expect(listed).toHaveCount(2);

    // The successful delivery opens to its request and the receiver's response.
    await okDelivery.click();
    const attempt = page.getByRole("region", { name: "Attempt 1" }).first();
    await expect(attempt).toContainText(`POST ${okUrl}`);
    await expect(attempt).toContainText(/webhook-signature: v1,[A-Za-z0-9+/=]{44}/);
    await expect(attempt.getByLabel("Request body")).toContainText('"type":"webhook.test"');
    await expect(attempt).toContainText("Status 200");
    await expect(attempt).toContainText("x-receiver: e2e-log");
    await expect(attempt.getByLabel("Response body")).toHaveText('{"received":true}');
    // Redeliver: the same webhook-id again.
    await page
      .getByRole("button", { name: /^Redeliver webhook\.test delivery/ })
      .first()
      .click();
    await expect.poll(() => received.length).toBe(2);
    expect(received[1]).toBe(received[0]);
    // The refused one says why, in words, in its attempt too.
    await refusedDelivery.click();
    await expect(page.getByRole("note").filter({ hasText: refusedWords }).first()).toBeVisible();
    // The events: both test events, each with its delivery.
    await expect(page.locator("summary", { hasText: /^webhook\.test · .* · (succeeded 200|pending)/ })).toHaveCount(2);

    await expectNoPageOverflow(page);
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoPageOverflow(page);
  } finally {
    receiver.closeAllConnections();
    receiver.close();
  }
});
