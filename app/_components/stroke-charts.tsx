"use client";

import { DistanceChart } from "./distance-chart";
import { formatPace500 } from "@/app/_lib/format";
import { distanceAxis, tickDigits, valueAxis } from "@/app/_lib/chart-axes";

export interface ChartPoint {
  distance: number;
  speed: number | null;
  rate: number | null;
  strokeDistance: number | null;
}

const CHARTS = [
  { key: "speed", title: "Speed (m/s)", color: "#0b5cad", digits: 2 },
  { key: "rate", title: "Stroke rate (spm)", color: "#b42318", digits: 1 },
  { key: "strokeDistance", title: "Distance per stroke (m)", color: "#1a7f37", digits: 2 },
] as const;

/**
 * Speed, rate and distance per stroke along the effort's distance, one small
 * chart each. The distance axis ends at `distanceM` (the effort's, not the
 * last stroke's) with a dashed marker at every split end in `splitsM`; each
 * value axis fits its data (app/_lib/chart-axes.ts). `idPrefix` keeps ids
 * unique when a page shows several. `speedSummary` is the speed chart in words
 * from the effort's own figures (server/results/figures.ts): a session's top
 * speed is the effort's, not the fastest stroke's mean, and its slowest leaves
 * out the standing start.
 */
export function StrokeCharts({
  points,
  distanceM,
  splitsM = [],
  idPrefix = "",
  speedSummary = null,
}: {
  points: ChartPoint[];
  distanceM: number;
  splitsM?: readonly number[];
  idPrefix?: string;
  speedSummary?: string | null;
}) {
  const x = distanceAxis(distanceM, splitsM);
  const markers = splitsM.filter((d) => d > 0 && d < x.domain[1] - 0.5);
  return (
    <div className="charts">
      {CHARTS.map((chart) => {
        const y = valueAxis(points.map((p) => p[chart.key]));
        const digits = y ? tickDigits(y) : 1;
        return (
          <DistanceChart
            key={chart.key}
            id={`${idPrefix}chart-${chart.key}`}
            title={chart.title}
            summary={chart.key === "speed" && speedSummary ? speedSummary : summaryOf(points, chart.key, chart.digits)}
            rows={points}
            series={[{ dataKey: chart.key, colour: chart.color, connectNulls: true }]}
            x={x}
            y={y}
            markers={markers}
            formatTick={(v) => v.toFixed(digits)}
            formatValue={(v) =>
              chart.key === "speed" ? `${v.toFixed(chart.digits)} (${formatPace500(v)} /500 m)` : v.toFixed(chart.digits)
            }
            figureProps={{ "data-chart": chart.key }}
          />
        );
      })}
    </div>
  );
}

/** The chart in words: its range over every stroke and mean, and where along the distance the highest value came. */
function summaryOf(points: ChartPoint[], key: "speed" | "rate" | "strokeDistance", digits: number): string {
  const values = points.flatMap((p) => (p[key] === null ? [] : [{ v: p[key] as number, at: p.distance }]));
  if (!values.length) return "No data.";
  const max = values.reduce((a, b) => (b.v > a.v ? b : a));
  const min = values.reduce((a, b) => (b.v < a.v ? b : a));
  const mean = values.reduce((sum, x) => sum + x.v, 0) / values.length;
  // Extremes in words say what they span (docs/processing.md "Figures"): every stroke, a standing start's included.
  return `From ${min.v.toFixed(digits)} to ${max.v.toFixed(digits)} over every stroke, the start's included; mean ${mean.toFixed(digits)}; highest at ${Math.round(max.at)} m.`;
}
