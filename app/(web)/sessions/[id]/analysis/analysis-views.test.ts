import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { pacingFinding, relationshipsFinding } from "@/server/analytics/findings";
import type { MetricRelationshipsResult } from "@/server/analytics/metric-relationships";
import type { PacingResult } from "@/server/analytics/pacing";
import { AnalysisTables, FindingChart } from "./analysis-views";

/**
 * Issue 28 §6: the first segment's pace read 1:29.3 in the sentence and bar
 * (from the stored speed) and 1:29.2 in the table (from the stored pace); a
 * correlation labelled "none" was drawn as a bar.
 */
describe("the analysis page's figures", () => {
  it("state a segment's pace once: the sentence, the bar and the table agree", () => {
    // 500 / 5.60231 = 89.249 s (1:29.2), but the stored speed is 5.602 m/s: 500 / 5.602 = 89.254 s (1:29.3).
    const segment = (index: number, from: number, to: number, speed: number, pace: number) => ({
      index,
      from_m: from,
      to_m: to,
      time_s: (to - from) / speed,
      speed_m_s: speed,
      pace_500m_s: pace,
      relative_speed_pct: 0,
      rate_spm: 110,
    });
    const r: PacingResult = {
      segments: [segment(1, 0, 250, 5.602, 89.2), segment(2, 250, 500, 5.4, 92.6)],
      second_half_change_pct: -3.6,
      profile: "positive",
      tolerance_pct: 3,
      fade_pct: 3.6,
      fastest_segment: 1,
      slowest_segment: 2,
    };
    const finding = pacingFinding(r);
    expect(finding.sentence).toContain("at 1:29.3 /500 m");
    expect(finding.chart!.bars[0].text).toMatch(/^1:29\.3 \/500 m/);
    const table = renderToStaticMarkup(createElement(AnalysisTables, { name: "pacing", result: r }));
    expect(table).toContain("<td>1:29.3</td>");
    expect(table).not.toContain("1:29.2");
  });

  it("draw no bar for a correlation of none", () => {
    const pair = (x: string, y: string, r: number, strength: "none" | "weak" | "moderate" | "strong") => ({
      x,
      y,
      n: 200,
      pearson_r: r,
      slope: r,
      intercept: 0,
      strength,
    });
    const result = {
      pairs: [pair("rate", "speed", 0.55, "moderate"), pair("rate", "stroke_distance", -0.12, "none")],
    } as unknown as MetricRelationshipsResult;
    const finding = relationshipsFinding(result);
    const none = finding.chart!.bars.find((b) => b.text === "none")!;
    expect(none.value).toBe(0);
    const html = renderToStaticMarkup(createElement(FindingChart, { name: "metric-relationships", chart: finding.chart! }));
    // Two rows, one bar: the moderate link's.
    expect(html.match(/<li/g)).toHaveLength(2);
    expect(html.match(/class="analysis-bar"/g)).toHaveLength(1);
  });
});
