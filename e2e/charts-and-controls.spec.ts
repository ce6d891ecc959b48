import { expect, test, type Locator, type Page } from "@playwright/test";
import { createKeyPair, trpcMutation, uploadK1Session } from "./api-helpers";
import { PHONE } from "./a11y";
import { newAccount, signUpInBrowser, type TestAccount, signInOverHttp } from "./helpers";
import { simulatedTrainingFile } from "./svc-files";

/**
 * What a person sees of every chart and media control, at 1366 px and 390 px:
 * each chart's plot area has a real size and draws its series across it, legend
 * icons stay icon-sized, and each control is visible, sized and does what it
 * says (the slider moves the replay, the speed menu changes its speed, the set
 * menu changes the chart). Two site-wide CSS rules once broke the compare
 * chart (no plot, 224 px legend circles) and the replay (a zero-width slider):
 * an element's mere presence proves none of this.
 */
const DESKTOP = { width: 1366, height: 900 };
const WIDTHS = [DESKTOP, PHONE];

interface World {
  coach: TestAccount;
  sessions: number[];
  athleteId: number;
  trainingPath: string;
}
let world: World;

test.describe.configure({ mode: "serial" });

test.beforeAll(async ({ browser, baseURL }) => {
  const coach = newAccount("charts-coach");
  const page = await browser.newPage();
  await signUpInBrowser(page, coach);
  const key = await createKeyPair(baseURL!, coach);
  const track = await trpcMutation<{ id: number }>(key.context, "tracks.create", { name: "Chart basin" });
  const athlete = await trpcMutation<{ id: number }>(key.context, "athletes.create", {
    name: "Ines",
    surname: "Chart",
    subscriptionActiveUntil: "2099-12-31",
  });
  const sessions: number[] = [];
  for (const seed of [31, 32])
    sessions.push(await uploadK1Session(key, { trackId: track.id, athleteId: athlete.id, distanceM: 500, seed }));
  // One from this week, so the home's weekly volume chart (the last weeks) has something to draw.
  await uploadK1Session(key, { trackId: track.id, athleteId: athlete.id, distanceM: 500, seed: 33, at: Date.now() - 3_600_000 });
  await key.context.dispose();
  const { bytes } = simulatedTrainingFile({ spec: "3x250m/60s", vessel: "K1", seed: 4242 });
  const training = await page.request.post("/api/uploads/trainings", {
    multipart: {
      file: { name: "practice.svc", mimeType: "application/octet-stream", buffer: bytes },
      metadata: JSON.stringify({
        vessel_id: 1,
        track_id: null,
        athlete_id: athlete.id,
        title: "Chart practice",
        template_id: null,
        sensitivity: 5,
      }),
    },
  });
  expect(training.status(), await training.text()).toBe(201);
  world = { coach, sessions, athleteId: athlete.id, trainingPath: `/trainings/${(await training.json()).data.id}` };
  await page.close();
});

test.beforeEach(async ({ page }) => {
  await signInOverHttp(page, world.coach);
});

type Box = { x: number; y: number; width: number; height: number };
const overlap = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/**
 * Every chart (a figure holding an SVG) in `scope` draws: its plot is at least
 * 150 × 80 px and holds stroked paths that together span at least a third
 * of its width; every legend icon is at most 32 px. Returns how many charts it checked.
 */
async function expectChartsDraw(scope: Page | Locator): Promise<number> {
  // Client-drawn charts measure their box after hydration; wait until one has drawn.
  await expect(scope.locator("figure svg path").first()).toBeVisible();
  const figures = scope.locator("figure:has(svg)");
  const count = await figures.count();
  for (let i = 0; i < count; i++) {
    const figure = figures.nth(i);
    if (!(await figure.isVisible())) continue;
    const caption =
      (await figure
        .locator("figcaption")
        .first()
        .textContent()
        .catch(() => null)) ?? `figure ${i}`;
    const report = await figure.evaluate((fig) => {
      const svgs = [...fig.querySelectorAll("svg")].filter((s) => !s.closest(".recharts-legend-wrapper"));
      const plot = svgs.map((s) => s.getBoundingClientRect()).sort((a, b) => b.width * b.height - a.width * a.height)[0];
      const drawn = [...fig.querySelectorAll("svg path, svg polyline")]
        .filter((p) => !p.closest(".recharts-legend-wrapper"))
        .filter((p) => {
          const style = getComputedStyle(p);
          return style.stroke !== "none" && style.fill === "none" && (p.getAttribute("d") ?? p.getAttribute("points") ?? "").length > 20;
        })
        .map((p) => p.getBoundingClientRect())
        .filter((r) => r.width > 0 || r.height > 0);
      const icons = [...fig.querySelectorAll(".recharts-legend-wrapper svg")]
        .map((s) => s.getBoundingClientRect())
        .map((r) => Math.max(r.width, r.height));
      // How far the drawn series reach across the plot together (a course is many short segments).
      // A chart's series run across it; a course on a map may run up it instead.
      const spanX = drawn.length ? Math.max(...drawn.map((r) => r.right)) - Math.min(...drawn.map((r) => r.left)) : 0;
      const spanY = drawn.length ? Math.max(...drawn.map((r) => r.bottom)) - Math.min(...drawn.map((r) => r.top)) : 0;
      const reach = plot ? Math.max(spanX / plot.width, spanY / plot.height) : 0;
      return { plot: plot ? { width: plot.width, height: plot.height } : null, reach, icons };
    });
    expect(report.plot, `${caption}: no plot`).not.toBeNull();
    expect(report.plot!.width, `${caption}: plot width`).toBeGreaterThan(150);
    expect(report.plot!.height, `${caption}: plot height`).toBeGreaterThan(80);
    expect(report.reach, `${caption}: no series drawn across the plot`).toBeGreaterThan(1 / 3);
    for (const icon of report.icons) expect(icon, `${caption}: legend icon size`).toBeLessThanOrEqual(32);
  }
  return count;
}

for (const size of WIDTHS) {
  test.describe(`at ${size.width} px`, () => {
    test.beforeEach(async ({ page }) => {
      await page.setViewportSize(size);
    });

    test("the session compare view draws both sessions' lines with icon-sized legends", async ({ page }) => {
      await page.goto(`/sessions/compare?ids=${world.sessions.join(",")}`);
      const charts = page.locator("figure.compare-chart");
      await expect(charts).toHaveCount(2);
      for (const chart of await charts.all()) await expect(chart.locator("path.recharts-line-curve")).toHaveCount(2);
      expect(await expectChartsDraw(page.locator("main"))).toBeGreaterThanOrEqual(2);
    });

    test("the session page's charts draw, and its replay is scrubbed and sped up by its own controls", async ({ page }) => {
      const path = `/sessions/${world.sessions[0]}`;
      await page.goto(path);
      expect(await expectChartsDraw(page.locator("main"))).toBeGreaterThanOrEqual(2);

      // The replay artifact is made in the background after the upload.
      const slider = page.getByRole("slider", { name: "Position in the replay" });
      await expect(async () => {
        await page.goto(path);
        await expect(page.getByText("The 3D replay is being prepared")).toHaveCount(0);
      }).toPass({ timeout: 30_000 });
      // The player loads three.js once it nears the screen: scroll to it as a person would.
      await page.getByRole("region", { name: /^3D replay/ }).scrollIntoViewIfNeeded();
      await expect(slider).toBeVisible({ timeout: 20_000 });
      const speed = page.getByRole("combobox", { name: "Speed" });
      const play = page.getByRole("button", { name: /^(Play|Pause)$/ });
      const clock = page.locator("[class*='clock']");
      const [sliderBox, speedBox, clockBox, playBox] = [
        await slider.boundingBox(),
        await speed.boundingBox(),
        await clock.boundingBox(),
        await play.boundingBox(),
      ];
      expect(sliderBox!.width, "slider width").toBeGreaterThanOrEqual(size.width > 500 ? 200 : 60);
      expect(speedBox!.width, "speed menu width").toBeLessThan(120);
      expect(clockBox!.width, "clock shown").toBeGreaterThan(20);
      for (const [name, box] of [
        ["speed menu", speedBox],
        ["clock", clockBox],
        ["play button", playBox],
      ] as const) {
        expect(overlap(sliderBox!, box!), `${name} overlaps the slider`).toBe(false);
      }

      // Scrub: a click at three quarters of the slider puts the replay there, and the clock says so.
      const duration = Number(await slider.getAttribute("max"));
      await slider.click({ position: { x: sliderBox!.width * 0.75, y: sliderBox!.height / 2 } });
      const value = Number(await slider.inputValue());
      expect(value / duration).toBeGreaterThan(0.6);
      expect(value / duration).toBeLessThan(0.9);
      await expect(clock).not.toHaveText(/^0:00(\.0)? \//);

      // Speed: at 4×, each second of playing covers more than two seconds of the effort.
      await slider.click({ position: { x: 2, y: sliderBox!.height / 2 } });
      await speed.selectOption("4");
      await expect(speed).toHaveValue("4");
      if ((await play.getAttribute("aria-label")) === "Play") await play.click();
      await expect(page.getByRole("button", { name: "Pause" })).toBeVisible();
      const [t0, v0] = [Date.now(), Number(await slider.inputValue())];
      await page.waitForTimeout(1_000);
      const rate = (Number(await slider.inputValue()) - v0) / ((Date.now() - t0) / 1000);
      expect(rate, "seconds of effort per second at 4×").toBeGreaterThan(2);
    });

    test("the analysis page's pacing bars draw, the fastest segment longest", async ({ page }) => {
      await page.goto(`/sessions/${world.sessions[0]}/analysis`);
      const bars = page.locator(".analysis-bar");
      await expect(bars.first()).toBeVisible();
      const widths = await bars.evaluateAll((els) => els.map((el) => el.getBoundingClientRect().width));
      expect(widths.length).toBeGreaterThanOrEqual(4);
      for (const width of widths) expect(width).toBeGreaterThan(0);
      expect(Math.max(...widths)).toBeGreaterThanOrEqual(20);
    });

    test("the session page leads with the result, then the analysis; its Actions menu opens, reaches Export and asks before deleting", async ({
      page,
    }) => {
      await page.goto(`/sessions/${world.sessions[0]}`);
      const headings = await page.locator("main h2").allTextContents();
      const order = ["Splits", "Along the distance", "Replay", "Course", "Analysis", `Strokes`].map((title) =>
        headings.findIndex((h) => h.startsWith(title)),
      );
      expect(
        order.every((at) => at >= 0),
        `headings: ${headings.join(" | ")}`,
      ).toBe(true);
      expect([...order].sort((a, b) => a - b)).toEqual(order);
      // Nothing to act with sits above the result: no export form, no Delete.
      await expect(page.getByRole("button", { name: "Delete session" })).toHaveCount(0);
      await expect(page.getByRole("region", { name: "Export" })).toHaveCount(0);

      await page.waitForSelector("body[data-hydrated]", { state: "attached", timeout: 20_000 });
      const actions = page.getByRole("button", { name: "Actions" });
      await expect(actions).toHaveAttribute("aria-expanded", "false");
      // Keyboard: Enter opens it, Escape closes it and leaves the focus on the button.
      await actions.focus();
      await page.keyboard.press("Enter");
      await expect(actions).toHaveAttribute("aria-expanded", "true");
      const panel = page.getByRole("region", { name: "Session actions" });
      const exportMenu = panel.getByRole("region", { name: "Export" });
      await expect(exportMenu.getByLabel("Format")).toBeVisible();
      await exportMenu.getByLabel("Format").selectOption("xlsx");
      await expect(exportMenu.getByRole("button", { name: "Export" })).toBeEnabled();
      await expect(panel.getByText("Correct this session")).toBeVisible();
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
        "sideways scroll with the menu open",
      ).toBeLessThanOrEqual(0);
      await exportMenu.getByLabel("Format").focus();
      await page.keyboard.press("Escape");
      await expect(actions).toHaveAttribute("aria-expanded", "false");
      await expect(panel).toBeHidden();
      await expect(actions).toBeFocused();

      // Delete comes last in the menu, not red, and asks first; Cancel keeps the session.
      await actions.click();
      const remove = panel.getByRole("button", { name: "Delete session" });
      const buttons = await panel.getByRole("button").allTextContents();
      expect(buttons.at(-1)).toBe("Delete session");
      expect(await remove.evaluate((b) => getComputedStyle(b).backgroundColor)).not.toBe("rgb(180, 35, 24)");
      await remove.click();
      const dialog = page.getByRole("dialog", { name: "Delete this session?" });
      await expect(dialog).toBeVisible();
      await dialog.getByRole("button", { name: "Cancel" }).click();
      await expect(dialog).toBeHidden();
      expect((await page.reload())?.status()).toBe(200);
    });

    test("the session, compare and training charts' axes end at the effort's distance, fit the data and mark the splits", async ({
      page,
    }) => {
      await page.goto(`/sessions/${world.sessions[0]}`);
      const speed = page.locator("figure[data-chart='speed']");
      await expect(speed.locator(".recharts-line-curve")).toBeVisible();
      const xTicks = await speed.locator(".recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-value").allTextContents();
      expect(xTicks.at(-1)).toBe("500 m");
      expect(xTicks[0]).toBe("0 m");
      // Four splits by default: a dashed marker at 125, 250 and 375 m.
      await expect(speed.locator(".recharts-reference-line")).toHaveCount(3);
      // Each value axis spans the data it draws, with little room: the rate and distance-per-stroke charts say their
      // data's range in their own summary ("From … to … over every stroke").
      for (const key of ["rate", "strokeDistance"]) {
        const chart = page.locator(`figure[data-chart='${key}']`);
        const [low, high] = (await page.locator(`#chart-${key}-summary`).textContent())!
          .match(/From ([\d.]+) to ([\d.]+)/)!
          .slice(1)
          .map(Number);
        const yTicks = (await chart.locator(".recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-value").allTextContents()).map(
          Number,
        );
        const [bottom, top] = [Math.min(...yTicks), Math.max(...yTicks)];
        expect(bottom).toBeLessThanOrEqual(low);
        expect(top).toBeGreaterThanOrEqual(high);
        expect(top - bottom, `${key} axis ${bottom}–${top} for data ${low}–${high}`).toBeLessThanOrEqual((high - low) * 1.5);
      }
      // The speed axis is not the 0–8 m/s of old: it starts above 0 and ends near the effort's top speed (its sentence says it).
      const topSpeed = Number((await page.locator("#chart-speed-summary").textContent())!.match(/Top speed ([\d.]+) m\/s/)![1]);
      const speedTicks = (await speed.locator(".recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-value").allTextContents()).map(
        Number,
      );
      expect(Math.min(...speedTicks)).toBeGreaterThan(0);
      // It ends within one tick step above the top speed (the axis takes round steps).
      const step = speedTicks.length > 1 ? Math.abs(speedTicks[1] - speedTicks[0]) : 1;
      expect(Math.max(...speedTicks)).toBeLessThanOrEqual(topSpeed + step);
      expect(Math.max(...speedTicks)).toBeGreaterThanOrEqual(topSpeed - step);

      await page.goto(`/sessions/compare?ids=${world.sessions.join(",")}`);
      const compare = page.locator("figure.compare-chart").first();
      await expect(compare.locator(".recharts-line-curve").first()).toBeVisible();
      expect((await compare.locator(".recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-value").allTextContents()).at(-1)).toBe(
        "500 m",
      );
      await expect(compare.locator(".recharts-reference-line")).toHaveCount(3);

      await expect(async () => {
        await page.goto(world.trainingPath);
        await expect(page.getByTestId("sets-table")).toBeVisible({ timeout: 2_000 });
      }).toPass({ timeout: 30_000 });
      const setDistance = (await page.getByLabel("Work set shown").locator("option:checked").textContent())!.match(/: (\d+) m/)![1];
      const setSpeed = page.locator("figure[data-chart='speed']");
      await expect(setSpeed.locator(".recharts-line-curve")).toBeVisible();
      expect((await setSpeed.locator(".recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-value").allTextContents()).at(-1)).toBe(
        `${setDistance} m`,
      );
    });

    test("each analysis leads with what it found; the statistics open from a details disclosure", async ({ page }) => {
      await page.goto(`/sessions/${world.sessions[0]}`);
      const onSessionPage = await page.getByTestId("session-pacing-finding").textContent();
      await page.goto(`/sessions/${world.sessions[0]}/analysis`);
      const pacing = page.getByTestId("finding-pacing");
      await expect(pacing).toHaveText(/^The paddler (faded \d+ %|finished \d+ % faster|held the pace)/);
      // The same splits give the same sentence on the session page (4 segments, 4 splits).
      await expect(pacing).toHaveText(onSessionPage!);
      // The sentence comes before its chart.
      const [sentenceBox, chartBox] = [await pacing.boundingBox(), await page.getByTestId("finding-chart-pacing").boundingBox()];
      expect(sentenceBox!.y).toBeLessThan(chartBox!.y);
      // Jargon stays out of what is shown until asked for.
      const shown = await page.locator("main").evaluate((main) => {
        const clone = main.cloneNode(true) as HTMLElement;
        clone.querySelectorAll("details").forEach((d) => d.remove());
        return clone.innerText;
      });
      expect(shown).not.toMatch(/HDOP|RMSSD|\bz\b/);
      const details = page.getByTestId("finding-details-data-quality");
      const explanation = details.getByText(/Horizontal dilution of precision/);
      await expect(explanation).toBeHidden();
      await details.locator("summary").focus();
      await page.keyboard.press("Enter");
      await expect(explanation).toBeVisible();
      await details.locator("summary").click();
      await expect(explanation).toBeHidden();
    });

    test("the training page's set charts draw and its set menu changes the chart", async ({ page }) => {
      await expect(async () => {
        await page.goto(world.trainingPath);
        await expect(page.getByTestId("sets-table")).toBeVisible({ timeout: 2_000 });
      }).toPass({ timeout: 30_000 });
      expect(await expectChartsDraw(page.locator("main"))).toBeGreaterThanOrEqual(1);
      const menu = page.getByLabel("Work set shown");
      const summary = page.locator("#set-chart-speed-summary, [id^='set-chart-'][id$='-summary']").first();
      const first = await summary.textContent();
      const options = await menu.locator("option").all();
      expect(options.length).toBeGreaterThanOrEqual(2);
      await menu.selectOption(await options[1].getAttribute("value"));
      await expect(summary).not.toHaveText(first!);
      await expectChartsDraw(page.locator("main"));
    });

    test("the home page's weekly volume chart draws its series", async ({ page }) => {
      await page.goto("/home");
      const chart = page.getByTestId("volume-chart");
      expect(await expectChartsDraw(page.locator("main"))).toBe(1);
      // Distance, time on the water and work-set time: three series, each a line across the weeks.
      await expect(chart.locator(".recharts-line path.recharts-curve")).toHaveCount(3);
      await expect(page.getByTestId("week-athletes")).toContainText("Ines Chart");
    });

    test("the athlete page's progression chart draws", async ({ page }) => {
      await page.goto(`/athletes/${world.athleteId}`);
      expect(await expectChartsDraw(page.locator("main"))).toBeGreaterThanOrEqual(1);
    });
  });
}
