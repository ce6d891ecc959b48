import type { Page } from "@playwright/test";
import { createKeyPair, trpcMutation } from "./api-helpers";
import { checkPageAtWidth, WIDTHS } from "./a11y";
import { expect, test } from "./fixtures";
import { newAccount, openSessionActions, signUpInBrowser } from "./helpers";
import { simulatedSvc } from "./svc-files";

/**
 * The session page: pace per 500 m beside m/s, the course map with its split
 * markers, and a K2 file uploaded as K1 corrected to K2 (reprocessed from
 * the stored original), at desktop and phone width with the accessibility check.
 */

/** A coach with Ana and Bea, and a K2 file uploaded as a K1 with Ana in the seat; returns the session id. */
async function k2UploadedAsK1(page: Page, baseURL: string, seed: number) {
  const coach = newAccount("session-coach");
  await signUpInBrowser(page, coach);
  const key = await createKeyPair(baseURL, coach);
  const track = await trpcMutation<{ id: number }>(key.context, "tracks.create", { name: "Session basin" });
  const ana = await trpcMutation<{ id: number }>(key.context, "athletes.create", {
    name: "Ana",
    surname: "Front",
    subscriptionActiveUntil: "2099-12-31",
  });
  await trpcMutation<{ id: number }>(key.context, "athletes.create", {
    name: "Bea",
    surname: "Back",
    subscriptionActiveUntil: "2099-12-31",
  });
  const upload = await key.context.post("/api/v1/results", {
    multipart: {
      file: { name: "k2.svc", mimeType: "application/octet-stream", buffer: simulatedSvc({ vessel: "K2", distanceM: 500, seed }) },
      metadata: JSON.stringify({ distance: 500, vessel_id: 1, track_id: track.id, category_id: 1, pace_id: 1, athletes: [ana.id] }),
    },
    headers: { authorization: key.authorization, "x-forwarded-proto": "https" },
  });
  expect(upload.status(), await upload.text()).toBe(201);
  const id = (await upload.json()).data.id as number;
  await key.context.dispose();
  return id;
}

// Every test uploads its own session.
test.describe.configure({ mode: "parallel" });

test("a K2 session uploaded as K1: pace beside m/s, and the course map with its split markers", async ({ page, baseURL }) => {
  const id = await k2UploadedAsK1(page, baseURL!, 11);
  await page.goto(`/sessions/${id}?splits=5`);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("K1 · 500 m");
  // Pace first, m/s beside it.
  await expect(page.getByTestId("average-pace")).toHaveText(/^\d:\d{2}\.\d \/500 m \(\d\.\d{2} m\/s\)$/);

  // The course: drawn segments, a start marker and five split markers at 100, 200 … 500 m.
  const map = page.getByTestId("course-map");
  await map.scrollIntoViewIfNeeded(); // Leaflet loads once the map is on screen
  await expect(map).toHaveAttribute("data-ready", "true");
  expect(await map.locator("path.course-segment").count()).toBeGreaterThan(0);
  await expect(map.locator("path.course-start")).toHaveCount(1);
  await expect(map.locator("path.split-marker")).toHaveCount(5);
  await expect(page.getByTestId("course-summary")).toContainText("Split markers at 100 m, 200 m, 300 m, 400 m, 500 m.");
  // No tile is requested without MAP_TILE_URL.
  expect(await map.locator("img.leaflet-tile").count()).toBe(0);
});

test("a K2 session uploaded as K1, corrected to K2: the empty seat named as the form labels it, reprocessed, counted as K2", async ({
  page,
  baseURL,
}) => {
  const id = await k2UploadedAsK1(page, baseURL!, 12);
  await page.goto(`/sessions/${id}`);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("K1 · 500 m");

  // Correct: K2 with two athletes. An empty second seat is named as the form labels it.
  await (await openSessionActions(page)).getByText("Correct this session").click();
  const form = page.getByTestId("correction-form");
  await form.getByLabel("Boat class").selectOption({ label: "K2" });
  await form.getByRole("button", { name: "Save corrections" }).click();
  const seat2 = form.getByLabel("Seat 2");
  await expect(seat2).toHaveAttribute("aria-invalid", "true");
  await expect(form.getByText("Seat 2: choose an athlete")).toBeVisible();
  const describedBy = (await seat2.getAttribute("aria-describedby"))!;
  await expect(page.locator(`[id="${describedBy.split(" ").at(-1)}"]`)).toHaveText("Seat 2: choose an athlete");
  await seat2.selectOption({ label: "Bea Back" });
  await form.getByLabel("Competition").fill("Club trials");
  await form.getByRole("button", { name: "Save corrections" }).click();
  await expect(form.getByRole("status")).toContainText("processed again");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("K2 · 500 m");
  await expect(page.getByLabel("About the session")).toContainText("Ana Front, Bea Back");
  await expect(page.getByLabel("About the session")).toContainText("Club trials");

  // The records page counts it for K2 now.
  await page.goto("/records");
  await expect(page.locator("main")).toContainText("K2");
});

// The session page's accessibility and overflow checks, a test per width: with the correction
// above in the same test, two axe scans of this chart-heavy page came near the per-test limit.
for (const [name, size] of WIDTHS) {
  test(`the session page at ${name} width: no sideways scroll, no serious accessibility violation`, async ({ page, baseURL }) => {
    const id = await k2UploadedAsK1(page, baseURL!, name === "desktop" ? 13 : 14);
    await checkPageAtWidth(page, `/sessions/${id}`, size);
  });
}
