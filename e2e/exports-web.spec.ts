import { createHash } from "node:crypto";
import { expect, test } from "./fixtures";
import { anna, bearer, dataApiToken } from "./data-api-helpers";
import { openSessionActions, signInOverHttp } from "./helpers";

/**
 * The session page's Export menu and the Data API give the same file: an
 * access token's flow (202 → poll → download) and the web menu's download
 * of the same request are byte-identical (issue 10).
 */
test("the web Export menu's file is byte-identical to the API download", async ({ page, request, baseURL }) => {
  const { token } = await dataApiToken(baseURL!, anna);
  const sessions = (await (await request.get("/api/v1/sessions?limit=100", { headers: bearer(token) })).json()).data as {
    id: number;
    competition: string;
  }[];
  const sessionId = sessions.find((s) => s.competition === "World trial")!.id;

  // The API flow with a real token.
  const created = await request.post(`/api/v1/sessions/${sessionId}/exports`, {
    headers: { ...bearer(token), "content-type": "application/json" },
    data: { format: "json", splits: 3, lang: "es" },
  });
  expect(created.status()).toBe(202);
  const location = created.headers()["location"];
  let status = "queued";
  for (let i = 0; i < 60 && (status === "queued" || status === "running"); i++) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    status = (await (await request.get(location, { headers: bearer(token) })).json()).data.status;
  }
  expect(status).toBe("succeeded");
  const apiFile = await request.get(`${location}/download`, { headers: bearer(token) });
  expect(apiFile.status()).toBe(200);

  // The same request from the session page.
  await signInOverHttp(page, anna);
  await page.goto(`/sessions/${sessionId}`);
  // Export sits in the session's Actions menu.
  const menu = (await openSessionActions(page)).getByRole("region", { name: "Export" });
  await menu.getByLabel("Format").selectOption("json");
  await menu.getByLabel("Language").selectOption("es");
  await menu.getByLabel("Splits").fill("3");
  await menu.getByRole("button", { name: "Export" }).click();
  const link = menu.getByRole("link", { name: "Download" });
  await expect(link).toBeVisible({ timeout: 30_000 });
  const webFile = await page.request.get((await link.getAttribute("href"))!);
  expect(webFile.status()).toBe(200);

  expect(webFile.headers()["content-type"]).toBe(apiFile.headers()["content-type"]);
  expect(webFile.headers()["content-disposition"]).toBe(apiFile.headers()["content-disposition"]);
  expect(Buffer.compare(await webFile.body(), await apiFile.body())).toBe(0);

  // The web job is the web app's: no token reaches it, and a signed-out visitor is turned away.
  const webJobId = (await link.getAttribute("href"))!.split("/")[2];
  expect((await request.get(`/api/v1/exports/${webJobId}`, { headers: bearer(token) })).status()).toBe(404);
  expect((await request.get(`/exports/${webJobId}/download`)).status()).toBe(401);
});

test("devices page: Fetch original gives the stored encrypted file once", async ({ page, request, baseURL }) => {
  const { token } = await dataApiToken(baseURL!, anna);
  const [device] = (await (await request.get("/api/v1/devices", { headers: bearer(token) })).json()).data as { id: number }[];
  const [file] = (await (await request.get(`/api/v1/devices/${device.id}/files`, { headers: bearer(token) })).json()).data as {
    filename: string;
    sha256: string;
  }[];

  await signInOverHttp(page, anna);
  await page.goto("/devices");
  const row = page.getByRole("row").filter({ hasText: file.filename }).first();
  await row.getByRole("button", { name: "Fetch original" }).click();
  const download = row.getByRole("button", { name: "Download original (once)" });
  await expect(download).toBeVisible({ timeout: 30_000 });
  const action = await row.locator("form").getAttribute("action");
  const [saved] = await Promise.all([page.waitForEvent("download"), download.click()]);
  expect(saved.suggestedFilename()).toBe(file.filename);
  const bytes = await (await import("node:fs/promises")).readFile((await saved.path())!);
  expect(createHash("sha256").update(bytes).digest("hex")).toBe(file.sha256);
  // Once: the same download again is gone.
  expect((await page.request.post(action!)).status()).toBe(404);
});
