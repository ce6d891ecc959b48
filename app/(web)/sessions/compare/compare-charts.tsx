"use client";

import { CartesianGrid, Legend, Line, LineChart, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatPace500, formatPaceAndSpeed } from "@/app/_lib/format";
import { distanceAxis, tickDigits, valueAxis } from "@/app/_lib/chart-axes";

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
        const y = valueAxis(data.sessions.flatMap((s) => s[chart.field]));
        const rows = data.grid.map((distance, j) =>
          Object.fromEntries([["distance", distance], ...data.sessions.map((s) => [s.key, s[chart.field][j]])]),
        );
        return (
          <figure
            key={chart.field}
            className="card compare-chart"
            aria-labelledby={`compare-${chart.field}`}
            aria-describedby={`compare-${chart.field}-summary`}
          >
            <figcaption id={`compare-${chart.field}`}>{chart.title}</figcaption>
            <p id={`compare-${chart.field}-summary`} className="chart-summary">
              {chart.field === "speed"
                ? `Average pace over the common distance: ${data.sessions.map((s) => `${s.label}: ${formatPaceAndSpeed(s.avgSpeed)}`).join("; ")}.`
                : `${data.sessions.map((s) => `${s.label}: mean ${mean(s[chart.field]).toFixed(chart.digits)}`).join("; ")}.`}
            </p>
            <ResponsiveContainer width="100%" height={220}>
              <LineChart data={rows} margin={{ top: 8, right: 8, bottom: 8, left: 0 }}>
                <CartesianGrid stroke="#eef1f4" />
                <XAxis
                  dataKey="distance"
                  type="number"
                  domain={x.domain}
                  ticks={x.ticks}
                  interval="preserveStartEnd"
                  allowDataOverflow
                  tickFormatter={(d: number) => `${Math.round(d)} m`}
                />
                <YAxis
                  domain={y?.domain ?? ["auto", "auto"]}
                  ticks={y?.ticks}
                  width={44}
                  tickFormatter={(v: number) => v.toFixed(y ? tickDigits(y) : 1)}
                />
                <Tooltip
                  formatter={(value) =>
                    typeof value !== "number"
                      ? String(value)
                      : chart.field === "speed"
                        ? `${value.toFixed(chart.digits)} (${formatPace500(value)} /500 m)`
                        : value.toFixed(chart.digits)
                  }
                  labelFormatter={(d) => `${Math.round(Number(d))} m`}
                />
                <Legend />
                {markers.map((d) => (
                  <ReferenceLine key={d} x={d} stroke="#8c959f" strokeDasharray="3 3" className="split-marker" />
                ))}
                {data.sessions.map((s, k) => (
                  <Line
                    key={s.key}
                    type="monotone"
                    dataKey={s.key}
                    name={s.label}
                    stroke={SESSION_COLOURS[k % SESSION_COLOURS.length]}
                    dot={false}
                    isAnimationActive={false}
                    connectNulls
                  />
                ))}
              </LineChart>
            </ResponsiveContainer>
          </figure>
        );
      })}
    </div>
  );
}

function mean(values: (number | null)[]): number {
  const present = values.filter((v): v is number => v !== null);
  return present.length ? present.reduce((a, b) => a + b, 0) / present.length : 0;
}
