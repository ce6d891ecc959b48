import { expect, test } from "./fixtures";
import { createKeyPair, signUpOverHttp, trpcMutation } from "./api-helpers";
import { signInOverHttp } from "./helpers";
import { simulatedSvc } from "./svc-files";

// Each test makes its own account and world.
test.describe.configure({ mode: "parallel" });

/** The web's analysis page: eleven analyses, each a sentence, a chart and tables; segments and sensitivity from the form. */
test("a coach reads the eleven analyses of a K1 and of a C1 as tables, and changes the segments", async ({ page, request, baseURL }) => {
  const account = await signUpOverHttp(baseURL!, "analyst");
  const key = await createKeyPair(baseURL!, account);
  const trackId = (await trpcMutation<{ id: number }>(key.context, "tracks.create", { name: "Analysis basin" })).id;
  const athleteId = (
    await trpcMutation<{ id: number }>(key.context, "athletes.create", {
      name: "Ana",
      surname: "Lysis",
      subscriptionActiveUntil: "2099-12-31",
    })
  ).id;
  const upload = async (vessel: "K1" | "C1", vesselId: number, seed: number) => {
    const response = await request.post("/api/v1/results", {
      headers: { authorization: key.authorization, "x-forwarded-proto": "https" },
      multipart: {
        file: { name: `${vessel}.svc`, mimeType: "application/octet-stream", buffer: simulatedSvc({ vessel, distanceM: 500, seed }) },
        metadata: JSON.stringify({
          distance: 500,
          vessel_id: vesselId,
          track_id: trackId,
          category_id: 1,
          pace_id: 1,
          athletes: [athleteId],
        }),
      },
    });
    expect(response.status()).toBe(201);
    return (await response.json()).data.id as number;
  };
  const k1 = await upload("K1", 1, 4101);
  const c1 = await upload("C1", 4, 4102);
  await key.context.dispose();

  await signInOverHttp(page, account);
  await page.goto(`/sessions/${k1}`);
  await page.getByRole("link", { name: /^Analysis/ }).click();
  await expect(page.getByRole("heading", { level: 2 })).toHaveCount(11);
  for (const title of [
    "Data quality",
    "Anomalies",
    "Side balance",
    "Metric relationships",
    "Pacing",
    "Progression through the effort",
    "Stroke phases",
    "Consistency",
    "Start",
    "Finish",
    "Boat motion per segment",
  ]) {
    await expect(page.getByRole("heading", { name: title, exact: true })).toBeVisible();
  }
  const pacing = page.getByRole("table", { name: "Pacing" });
  await expect(pacing.locator("tbody tr")).toHaveCount(4);
  await expect(pacing.locator("tbody tr").last()).toContainText("375–500 m");
  await expect(page.getByTestId("finding-side-balance")).toHaveText(/^(The (left|right) (blade|stroke)|Both blades pull evenly)/);

  await page.getByLabel("Segments").fill("10");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/segments=10/);
  await expect(page.getByRole("table", { name: "Pacing" }).locator("tbody tr")).toHaveCount(10);

  await page.goto(`/sessions/${c1}/analysis`);
  await expect(page.getByRole("table", { name: "Side balance" })).toHaveCount(0);
  await expect(page.getByText(/Not enough data: side balance compares the two blades of a kayak/)).toBeVisible();
  await expect(page.getByRole("table", { name: "Pacing" }).locator("tbody tr")).toHaveCount(4);
});

test("another person's session analysis is the not-found page", async ({ page, baseURL }) => {
  const account = await signUpOverHttp(baseURL!, "outsider");
  await signInOverHttp(page, account);
  const response = await page.goto("/sessions/2147483000/analysis");
  expect(response?.status()).toBe(404);
});
