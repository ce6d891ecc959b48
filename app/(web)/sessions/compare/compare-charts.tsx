"use client";

import { DistanceChart } from "@/app/_components/distance-chart";
import { formatPace500, formatPaceAndSpeed } from "@/app/_lib/format";
import { distanceAxis, SERIES_TRIM, tickDigits, valueAxis } from "@/app/_lib/chart-axes";

/** Distinct on white and for common colour-vision deficiencies (Okabe–Ito), one per session. */
export const SESSION_COLOURS = ["#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000", "#7f5f00", "#5f3dc4"];

export interface CompareChartData {
  grid: number[];
  /** The common distance the grid covers (the shortest session's). */
  distanceM: number;
  /** `avgSpeed`: distance ÷ time over the common distance (server/results/figures.ts), what the speed chart's words quote with its pace. */
  sessions: { key: string; label: string; speed: number[]; rate: (number | null)[]; avgSpeed: number }[];
}

const CHARTS = [
  { field: "speed", title: "Speed (m/s)", digits: 2 },
  { field: "rate", title: "Stroke rate (spm)", digits: 1 },
] as const;

/** Speed and rate of every session over the common distance, overlaid, one colour per session, quarter marks dashed. */
export function CompareCharts({ data }: { data: CompareChartData }) {
  const x = distanceAxis(
    data.distanceM,
    [1, 2, 3, 4].map((k) => (data.distanceM * k) / 4),
  );
  const markers = x.ticks.slice(1, -1);
  return (
    <div className="charts">
      {CHARTS.map((chart) => {
        const y = valueAxis(
          data.sessions.flatMap((s) => s[chart.field]),
          SERIES_TRIM,
        );
        const rows = data.grid.map((distance, j) =>
          Object.fromEntries([["distance", distance], ...data.sessions.map((s) => [s.key, s[chart.field][j]])]),
        );
        return (
          <DistanceChart
            key={chart.field}
            id={`compare-${chart.field}`}
            title={chart.title}
            summary={
              chart.field === "speed"
                ? `Average pace over the common distance: ${data.sessions.map((s) => `${s.label}: ${formatPaceAndSpeed(s.avgSpeed)}`).join("; ")}.`
                : `${data.sessions.map((s) => `${s.label}: mean ${mean(s[chart.field]).toFixed(chart.digits)}`).join("; ")}.`
            }
            rows={rows}
            series={data.sessions.map((s, k) => ({
              dataKey: s.key,
              name: s.label,
              colour: SESSION_COLOURS[k % SESSION_COLOURS.length],
              connectNulls: true,
            }))}
            x={x}
            y={y}
            markers={markers}
            height={220}
            legend
            formatTick={(v) => v.toFixed(y ? tickDigits(y) : 1)}
            formatValue={(v) =>
              chart.field === "speed" ? `${v.toFixed(chart.digits)} (${formatPace500(v)} /500 m)` : v.toFixed(chart.digits)
            }
            figureProps={{ className: "card compare-chart" }}
          />
        );
      })}
    </div>
  );
}

function mean(values: (number | null)[]): number {
  const present = values.filter((v): v is number => v !== null);
  return present.length ? present.reduce((a, b) => a + b, 0) / present.length : 0;
}
