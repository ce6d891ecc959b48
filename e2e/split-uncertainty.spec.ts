import type { APIRequestContext } from "@playwright/test";
import { formatUncertainty } from "../server/svc/process/uncertainty";
import { createKeyPair, signUpOverHttp, trpcMutation } from "./api-helpers";
import { bearer, dataApiToken, loadDataApi } from "./data-api-helpers";
import { expect, test } from "./fixtures";
import { signInOverHttp } from "./helpers";
import { simulatedSvc } from "./svc-files";

/**
 * The split uncertainty where people read splits (docs/processing.md "Split
 * uncertainty"): the session page's "0:56.20 ± 0.04" and the compare view's
 * ± and "within the noise" marks are the Data API's figures.
 */
test("the session page and the compare view show each split's ± as the Data API states it", async ({ page, request, baseURL }) => {
  const api = await loadDataApi(request);
  const person = await signUpOverHttp(baseURL!, "uncertain");
  const key = await createKeyPair(baseURL!, person);
  const track = await trpcMutation<{ id: number }>(key.context, "tracks.create", { name: "Noise basin" });
  const athlete = await trpcMutation<{ id: number }>(key.context, "athletes.create", {
    name: "Ines",
    surname: "Noise",
    subscriptionActiveUntil: "2099-12-31",
  });
  const upload = async (seed: number) => {
    const response = await request.post("/api/v1/results", {
      multipart: {
        file: {
          name: `k1-${seed}.svc`,
          mimeType: "application/octet-stream",
          buffer: simulatedSvc({ vessel: "K1", distanceM: 500, seed, noise: "noisy" }),
        },
        metadata: JSON.stringify({ distance: 500, vessel_id: 1, track_id: track.id, category_id: 1, pace_id: 1, athletes: [athlete.id] }),
      },
      headers: { authorization: key.authorization, "x-forwarded-proto": "https" },
    });
    expect(response.status(), await response.text()).toBe(201);
    return (await response.json()).data.id as number;
  };
  const first = await upload(31);
  const second = await upload(32);
  await key.context.dispose();
  const { token } = await dataApiToken(baseURL!, person, { scopes: ["openid", "sessions:read"] });

  await signInOverHttp(page, person);

  // Session page: each elapsed time reads "m:ss.cc ± 0.cc", the API's elapsed_uncertainty_s to hundredths.
  await page.goto(`/sessions/${first}?splits=5`);
  const splits = (await getJson(request, `/api/v1/sessions/${first}/splits?count=5`, token, api, "/sessions/{session_id}/splits")).data
    .splits as { elapsed_uncertainty_s: number; split_uncertainty_s: number }[];
  const rows = page.getByRole("table", { name: "Splits" }).locator("tbody tr");
  await expect(rows).toHaveCount(5);
  for (const [k, split] of splits.entries()) {
    const cells = rows.nth(k).locator("td");
    await expect(cells.nth(3)).toHaveText(new RegExp(`^\\d:\\d{2}\\.\\d{2} ${escape(formatUncertainty(split.elapsed_uncertainty_s))}$`));
    await expect(cells.nth(2)).toContainText(formatUncertainty(split.split_uncertainty_s));
  }

  // Compare view: each split's ± and, for the second session, "within the noise" exactly where the API says so.
  await page.goto(`/sessions/compare?ids=${first},${second}`);
  const compared = (await postJson(request, "/api/v1/sessions/compare", { session_ids: [first, second], splits: 4 }, token, api)).data
    .sessions as {
    splits: { split_uncertainty_s: number; split_delta_within_noise: boolean | null }[];
  }[];
  for (let j = 0; j < 4; j++) {
    for (const [k, session] of compared.entries()) {
      const cell = page.getByTestId(`compare-split-${j + 1}-${k + 1}`);
      await expect(cell.getByTestId("compare-split-uncertainty")).toHaveText(formatUncertainty(session.splits[j].split_uncertainty_s));
      await expect(cell.getByTestId("within-noise")).toHaveCount(k > 0 && session.splits[j].split_delta_within_noise ? 1 : 0);
    }
  }
  // At phone width the figures do not push the page sideways: opened on a phone, and after a
  // resize once the charts have re-measured (they follow their container a frame later).
  await page.setViewportSize({ width: 390, height: 800 });
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.reload();
  await expect(page.getByTestId("compare-split-1-1")).toBeVisible();
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

async function getJson(
  request: APIRequestContext,
  path: string,
  token: string,
  api: Awaited<ReturnType<typeof loadDataApi>>,
  template: string,
) {
  const response = await request.get(path, { headers: bearer(token) });
  expect(response.status()).toBe(200);
  return api.check("get", template, response);
}

async function postJson(
  request: APIRequestContext,
  path: string,
  body: unknown,
  token: string,
  api: Awaited<ReturnType<typeof loadDataApi>>,
) {
  const response = await request.post(path, { headers: { ...bearer(token), "content-type": "application/json" }, data: body });
  expect(response.status()).toBe(200);
  return api.check("post", "/sessions/compare", response);
}
