"use client";

import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatPace500 } from "@/app/_lib/format";
import { dateAxis, valueAxis } from "@/app/_lib/chart-axes";

/** Okabe–Ito, as the compare view: told apart with colour-vision deficiencies. */
export const SERIES_COLOURS = ["#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000", "#7f5f00", "#5f3dc4"];

export interface HistorySeriesPoints {
  key: string;
  name: string;
  colour: string;
  /** One point per time the set was rowed: noon UTC of its date, and the set's average pace (s/500 m, server/results/figures.ts). */
  points: { t: number; pace: number }[];
}

const day = (t: number) => new Date(t).toISOString().slice(0, 10);

/** The set's average pace over the season, a line per athlete or crew; faster is higher (the pace axis runs downwards). */
export function SetHistoryChart({ series, summary }: { series: HistorySeriesPoints[]; summary: string }) {
  const paces = series.flatMap((s) => s.points.map((p) => p.pace));
  const y = valueAxis(paces);
  const x = dateAxis(series.flatMap((s) => s.points.map((p) => p.t)));
  return (
    <figure className="card" aria-labelledby="history-chart" aria-describedby="history-chart-summary" data-testid="set-history-chart">
      <figcaption id="history-chart">Average pace per set (/500 m)</figcaption>
      <p id="history-chart-summary" className="chart-summary">
        {summary}.
      </p>
      <ResponsiveContainer width="100%" height={240}>
        <LineChart margin={{ top: 8, right: 12, bottom: 8, left: 0 }}>
          <CartesianGrid stroke="#eef1f4" />
          <XAxis
            dataKey="t"
            type="number"
            domain={x.domain}
            ticks={x.ticks}
            tickFormatter={(t: number) => day(t).slice(5)}
            allowDuplicatedCategory={false}
          />
          <YAxis
            dataKey="pace"
            reversed
            domain={y?.domain ?? ["auto", "auto"]}
            ticks={y?.ticks}
            width={52}
            tickFormatter={(p: number) => formatPace500(500 / p)}
          />
          <Tooltip
            labelFormatter={(t) => day(Number(t))}
            formatter={(value, name) => [typeof value === "number" ? formatPace500(500 / value) : String(value), name]}
          />
          <Legend iconSize={10} />
          {series.map((s) => (
            <Line
              key={s.key}
              data={s.points}
              dataKey="pace"
              name={s.name}
              stroke={s.colour}
              strokeWidth={2}
              dot={{ r: 3 }}
              isAnimationActive={false}
              className="history-series"
            />
          ))}
        </LineChart>
      </ResponsiveContainer>
    </figure>
  );
}
