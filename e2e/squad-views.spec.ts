import { expect, test, type Page } from "@playwright/test";
import { createKeyPair, trpcMutation } from "./api-helpers";
import { checkPageAtWidth, DESKTOP, expectNoPageOverflow, PHONE } from "./a11y";
import { newAccount, signIn, signInOverHttp, signUpInBrowser, type TestAccount } from "./helpers";
import { simulatedSvc, simulatedTrainingFile } from "./svc-files";

/**
 * Issue 28 §3, squad views (docs/web-app.md "Squad views"): the trainings list's paddler column and
 * filters, the set history's series per athlete, the compare view's legend by crew and date, and a
 * coach's landing on their home. One world, built over HTTP once: a coach, two athletes, three
 * trainings (two against a 4 × 250 m template, one C1 without) and two sessions.
 */
interface World {
  coach: TestAccount;
  templateId: number;
  sessions: number[];
  trainings: number[];
}
let world: World;

test.describe.configure({ mode: "serial" });

const FOUR_250 = JSON.stringify({
  version: 1,
  name: "Squad 4 × 250 m",
  steps: [
    {
      repeat: 4,
      steps: [
        { kind: "work", distance_m: 250 },
        { kind: "rest", duration_s: 60 },
      ],
    },
  ],
});

test.beforeAll(async ({ browser, baseURL }) => {
  const coach = newAccount("squad-coach");
  const page = await browser.newPage();
  await signUpInBrowser(page, coach);
  const key = await createKeyPair(baseURL!, coach);
  const track = await trpcMutation<{ id: number }>(key.context, "tracks.create", { name: "Squad basin" });
  const athlete = (name: string) =>
    trpcMutation<{ id: number }>(key.context, "athletes.create", { name, surname: "Squad", subscriptionActiveUntil: "2099-12-31" });
  const ana = await athlete("Ana");
  const bea = await athlete("Bea");
  const template = await trpcMutation<{ id: number }>(key.context, "workouts.create", { name: "Squad 4 × 250 m", text: FOUR_250 });
  const upload = async (athleteId: number, seed: number, vesselId: number, templateId: number | null) => {
    const { bytes } = simulatedTrainingFile({ spec: "4x250m/60s", vessel: vesselId === 1 ? "K1" : "C1", seed });
    const response = await page.request.post("/api/uploads/trainings", {
      multipart: {
        file: { name: `squad-${seed}.svc`, mimeType: "application/octet-stream", buffer: bytes },
        metadata: JSON.stringify({
          vessel_id: vesselId,
          track_id: null,
          athlete_id: athleteId,
          title: "",
          template_id: templateId,
          sensitivity: 5,
        }),
      },
    });
    expect(response.status(), await response.text()).toBe(201);
    return (await response.json()).data.id as number;
  };
  const c1 = await vesselId(page, "C1");
  const trainings = [
    await upload(ana.id, 801, 1, template.id),
    await upload(bea.id, 802, 1, template.id),
    await upload(bea.id, 803, c1, null),
  ];
  const sessions: number[] = [];
  for (const [seed, athleteId] of [
    [41, ana.id],
    [42, bea.id],
  ]) {
    const response = await key.context.post("/api/v1/results", {
      multipart: {
        file: {
          name: `squad-${seed}.svc`,
          mimeType: "application/octet-stream",
          buffer: simulatedSvc({ vessel: "K1", distanceM: 500, seed }),
        },
        metadata: JSON.stringify({ distance: 500, vessel_id: 1, track_id: track.id, category_id: 1, pace_id: 1, athletes: [athleteId] }),
      },
      headers: { authorization: key.authorization, "x-forwarded-proto": "https" },
    });
    expect(response.status(), await response.text()).toBe(201);
    sessions.push((await response.json()).data.id);
  }
  await key.context.dispose();
  // The trainings process in the background; the set history reads ready ones.
  await expect
    .poll(async () => {
      const html = await (await page.request.get("/trainings")).text();
      return (html.match(/data-status="ready"/g) ?? []).length;
    })
    .toBe(3);
  world = { coach, templateId: template.id, sessions, trainings };
  await page.close();
});

/** The id of a boat class, as the upload form's choice offers it. */
async function vesselId(page: Page, type: string): Promise<number> {
  await page.goto("/upload?kind=training");
  const value = await page
    .getByLabel("Boat")
    .locator("option", { hasText: new RegExp(`^${type}$`) })
    .getAttribute("value");
  return Number(value);
}

test("the trainings list shows the paddler and its filters narrow it, at 1366 px", async ({ page }) => {
  await signInOverHttp(page, world.coach);
  await checkPageAtWidth(page, "/trainings", DESKTOP);
  const list = page.getByTestId("trainings-list");
  await expect(list.getByRole("columnheader", { name: "Paddler" })).toBeVisible();
  await expect(list.getByTestId("training-crew")).toHaveText(["Bea Squad", "Bea Squad", "Ana Squad"]);
  // An untitled training is named by its template once, not "name · K1 · the same name".
  await expect(list).not.toContainText("Squad 4 × 250 m · K1 · Squad 4 × 250 m");

  await page.getByLabel("Athlete").selectOption({ label: "Ana Squad" });
  await page.getByRole("button", { name: "Show trainings" }).click();
  await expect(page).toHaveURL(/athlete=\d+/);
  await expect(list.getByTestId("training-crew")).toHaveText(["Ana Squad"]);

  await page.goto(`/trainings?template=${world.templateId}&boat=C1`);
  await expect(page.getByText("No trainings match these filters.")).toBeVisible();
  await page.goto(`/trainings?template=${world.templateId}`);
  await expect(list.getByTestId("training-crew")).toHaveText(["Bea Squad", "Ana Squad"]);
  // A date range: the day of the newest training holds it; a day in the future holds none.
  const day = (await list.getByRole("cell").first().textContent())!.slice(0, 10);
  await page.goto(`/trainings?from=${day}&to=${day}&boat=C1`);
  await expect(list.getByTestId("training-crew")).toHaveText(["Bea Squad"]);
  await page.goto("/trainings?from=2099-01-01");
  await expect(page.getByText("No trainings match these filters.")).toBeVisible();
});

test("the trainings list keeps the paddler column and its filters behind a button at 390 px", async ({ page }) => {
  await signInOverHttp(page, world.coach);
  await checkPageAtWidth(page, "/trainings", PHONE);
  const list = page.getByTestId("trainings-list");
  await expect(list.getByRole("columnheader", { name: "Paddler" })).toBeVisible();
  await expect(list.getByTestId("training-crew")).toHaveText(["Bea Squad", "Bea Squad", "Ana Squad"]);
  await page.getByRole("button", { name: /Filter/ }).click();
  await page.getByLabel("Boat class").selectOption("C1");
  await page.getByRole("button", { name: "Show trainings" }).click();
  await expect(list.getByTestId("training-crew")).toHaveText(["Bea Squad"]);
  await expect(page.getByTestId("active-filters")).toHaveText("1 active");
  await expectNoPageOverflow(page);
});

for (const [name, size] of [
  ["1366", DESKTOP],
  ["390", PHONE],
] as const) {
  test(`the set history draws a series per athlete and lists every rep, at ${name} px`, async ({ page }) => {
    await signInOverHttp(page, world.coach);
    await checkPageAtWidth(page, `/trainings/history?set=t${world.templateId}`, size);
    const chart = page.getByTestId("set-history-chart");
    await expect(chart.locator("svg .recharts-line")).toHaveCount(2);
    await expect(chart.locator(".recharts-legend-item")).toHaveText(["Ana Squad", "Bea Squad"]);
    const box = await chart.locator(".recharts-wrapper > svg.recharts-surface").boundingBox();
    expect(box!.width).toBeGreaterThan(150);
    const rows = page.getByTestId("set-history").locator("tbody tr");
    await expect(rows).toHaveCount(2);
    await expect(rows.first().locator("ol li")).toHaveCount(4);
    await expect(rows.first()).toContainText(/[+−±]\d+\.\d s/);
    // A rep length follows the C1 training without a template too.
    await page.goto("/trainings/history?set=m250");
    await expect(page.getByTestId("set-history").locator("tbody tr")).toHaveCount(3);
  });

  test(`the compare view names each series by its crew and date, with even ticks that fit, at ${name} px`, async ({ page }) => {
    await signInOverHttp(page, world.coach);
    await checkPageAtWidth(page, `/sessions/compare?ids=${world.sessions[0]}&ids=${world.sessions[1]}`, size);
    const legend = page.getByRole("list", { name: "Sessions compared" }).getByRole("listitem");
    await expect(legend).toHaveText([/^1\. Ana Squad · \d{4}-\d{2}-\d{2} · K1 500 m$/, /^2\. Bea Squad · \d{4}-\d{2}-\d{2} · K1 500 m$/]);
    const speed = page.getByRole("figure", { name: "Speed (m/s)" });
    await expect(speed.locator(".recharts-legend-item")).toHaveText([/Ana Squad · \d{4}-/, /Bea Squad · \d{4}-/]);
    // Even ticks that fit the efforts: the axis does not start at 0 for the standing start.
    const ticks = (await speed.locator(".recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-value").allTextContents()).map(Number);
    expect(ticks.length).toBeGreaterThanOrEqual(3);
    expect(ticks[0]).toBeGreaterThan(0);
    const steps = ticks.slice(1).map((t, k) => (t - ticks[k]).toFixed(6));
    expect(new Set(steps).size).toBe(1);
  });
}

test("the training page numbers template steps as work reps", async ({ page }) => {
  await signInOverHttp(page, world.coach);
  await page.goto(`/trainings/${world.trainings[0]}`);
  // Work 1, 2, 3, 4 (the rests between are not counted), not step 1, 3, 5, 7.
  await expect(page.getByTestId("sets-table").getByRole("cell", { name: /^work \d: 250 m$/ })).toHaveText([
    "work 1: 250 m",
    "work 2: 250 m",
    "work 3: 250 m",
    "work 4: 250 m",
  ]);
});

test("a coach signing in lands on their home with what is waiting; the log is one click away", async ({ page }) => {
  await page.setViewportSize(PHONE);
  await signIn(page, world.coach);
  await page.waitForURL(/\/home$/);
  await expect(page.getByRole("heading", { name: "Home", exact: true })).toBeVisible();
  await expect(page.getByRole("heading", { name: /^Waiting/ })).toBeVisible();
  await expectNoPageOverflow(page);
  await page.setViewportSize(DESKTOP);
  await page.getByRole("link", { name: "Sessions log" }).click();
  await expect(page.getByRole("heading", { name: "Sessions", exact: true })).toBeVisible();
});
