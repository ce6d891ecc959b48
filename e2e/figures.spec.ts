import { createKeyPair, trpcMutation } from "./api-helpers";
import { expectNoPageOverflow, PHONE } from "./a11y";
import { expect, test } from "./fixtures";
import { newAccount, signUpInBrowser } from "./helpers";
import { simulatedSvc } from "./svc-files";
import { loadKeyring } from "../server/svc/keyring";
import { processSvc } from "../server/svc/process/process";
import { computeSplits } from "../server/svc/process/track";
import { sessionFigures, speedRange, speedRangeSentence } from "../server/results/figures";
import { formatPace500, formatPaceAndSpeed, formatRate, formatSpeed, formatStrokeDistance } from "../server/results/figure-format";

/**
 * One figure per fact, as a person reads it (docs/processing.md "Figures: one
 * value per fact"): a K2 1000 m (whose stored 3-decimal average once made the
 * log and the page disagree by a tenth of pace) and a K1 500 m go up through
 * the results API; the figures expected are the processing core's own, run
 * here on the same bytes. The log, the session page (facts, course text,
 * speed chart's words, splits with pace), the analysis page, the share page
 * and the compare view must say exactly the same, and the pages never
 * scroll sideways at 390 px. Exports and APIs: server/results/figures.test.ts.
 */
test("the same figures on the log, session, analysis, share and compare pages, pace beside every speed", async ({
  page,
  baseURL,
  request,
}) => {
  const coach = newAccount("figures-coach");
  await signUpInBrowser(page, coach);
  const key = await createKeyPair(baseURL!, coach);
  const track = await trpcMutation<{ id: number }>(key.context, "tracks.create", { name: "Figures basin" });
  const ana = await trpcMutation<{ id: number }>(key.context, "athletes.create", {
    name: "Ana",
    surname: "Figures",
    subscriptionActiveUntil: "2099-12-31",
  });
  const bea = await trpcMutation<{ id: number }>(key.context, "athletes.create", {
    name: "Bea",
    surname: "Figures",
    subscriptionActiveUntil: "2099-12-31",
  });
  const sessions: { id: number; figures: ReturnType<typeof sessionFigures>; processed: ReturnType<typeof processSvc>; sentence: string }[] =
    [];
  for (const c of [
    { vessel: "K2" as const, vesselId: 2, distanceM: 1000, seed: 1, athletes: [ana.id, bea.id] },
    { vessel: "K1" as const, vesselId: 1, distanceM: 500, seed: 5, athletes: [ana.id] },
  ]) {
    const bytes = simulatedSvc({ vessel: c.vessel, distanceM: c.distanceM, seed: c.seed });
    const upload = await request.post("/api/v1/results", {
      multipart: {
        file: { name: `${c.vessel}.svc`, mimeType: "application/octet-stream", buffer: bytes },
        metadata: JSON.stringify({
          distance: c.distanceM,
          vessel_id: c.vesselId,
          track_id: track.id,
          category_id: 1,
          pace_id: 1,
          athletes: c.athletes,
        }),
      },
      headers: { authorization: key.authorization, "x-forwarded-proto": "https" },
    });
    expect(upload.status(), await upload.text()).toBe(201);
    const processed = processSvc(bytes, { vessel: c.vessel, distanceM: c.distanceM }, loadKeyring({}));
    const figures = sessionFigures(processed.summary);
    sessions.push({
      id: (await upload.json()).data.id as number,
      figures,
      processed,
      sentence: speedRangeSentence(speedRange(processed.track, figures)!),
    });
  }
  const [k2, k1] = sessions;
  const share = await trpcMutation<{ url: string }>(key.context, "sessions.createShareLink", { resultId: k2.id });
  await key.context.dispose();
  const f = k2.figures;

  // The log: the K2's row shows the pace and speed of distance ÷ time.
  await page.goto("/");
  await expect(page.getByRole("row").filter({ has: page.locator(`a[href="/sessions/${k2.id}"]`) })).toContainText(
    `${formatPace500(f.avgSpeedMS)} (${formatSpeed(f.avgSpeedMS)} m/s)`,
  );

  // The session page: the facts, the course text and the speed chart's words; each split with its pace.
  await page.goto(`/sessions/${k2.id}`);
  await expect(page.getByTestId("average-pace")).toHaveText(formatPaceAndSpeed(f.avgSpeedMS));
  await expect(page.getByTestId("top-speed")).toHaveText(formatPaceAndSpeed(f.topSpeedMS));
  await expect(page.getByTestId("stroke-count")).toHaveText(String(f.strokeCount));
  await expect(page.getByTestId("average-rate")).toHaveText(`${formatRate(f.avgRateSpm)} spm`);
  await expect(page.getByTestId("distance-per-stroke")).toHaveText(`${formatStrokeDistance(f.avgStrokeDistanceM)} m`);
  await expect(page.getByTestId("course-summary")).toContainText(k2.sentence);
  await expect(page.locator("#chart-speed-summary")).toHaveText(k2.sentence);
  const splits = computeSplits(k2.processed.track, k2.processed.strokes, 4);
  const splitRows = page.getByRole("table", { name: "Splits" }).locator("tbody tr");
  await expect(splitRows).toHaveCount(4);
  for (const [k, split] of splits.entries())
    await expect(splitRows.nth(k)).toContainText(`${formatPace500(split.speed)} (${formatSpeed(split.speed)})`);
  await page.setViewportSize(PHONE);
  await expectNoPageOverflow(page);

  // The analysis page names the effort's count and the cruising part it reads.
  await page.goto(`/sessions/${k2.id}/analysis`);
  await expect(page.getByTestId("analysis-strokes")).toContainText(`The effort has ${f.strokeCount} strokes.`);

  // The share page: the same facts and sentence, no heart rate.
  await page.goto(new URL(share.url).pathname);
  await expect(page.getByTestId("average-pace")).toHaveText(formatPaceAndSpeed(f.avgSpeedMS));
  await expect(page.getByTestId("top-speed")).toHaveText(formatPaceAndSpeed(f.topSpeedMS));
  await expect(page.getByTestId("stroke-count")).toHaveText(String(f.strokeCount));
  await expect(page.locator("#chart-speed-summary")).toHaveText(k2.sentence);
  await expectNoPageOverflow(page);

  // The compare view: pace to the common distance (the K1's 500 m) and each split's pace.
  await page.goto(`/sessions/compare?ids=${k2.id},${k1.id}`);
  const common = (s: (typeof sessions)[number]) => computeSplits(s.processed.track, s.processed.strokes, 4);
  await expect(page.getByTestId("compare-times").locator("tbody tr").nth(1)).toContainText(
    formatPaceAndSpeed(k1.figures.avgSpeedMS).replace(" /500 m", ""),
  );
  const firstSplitPaces = page.getByTestId("compare-splits").locator("tbody tr").first();
  await expect(firstSplitPaces).toContainText(`${formatPace500(common(k1)[0].speed)} /500 m`);
  await expect(page.locator("#compare-speed-summary")).toContainText(`Average pace over the common distance`);
  await expectNoPageOverflow(page);
});
