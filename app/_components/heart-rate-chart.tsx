"use client";

import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { distanceAxis, valueAxis } from "@/app/_lib/chart-axes";

/** Heart rate (bpm) along the effort's distance (axis to `distanceM`), with its title and a text summary. */
export function HeartRateChart({
  points,
  summary,
  distanceM,
}: {
  points: { distance: number; bpm: number }[];
  summary: string;
  distanceM: number;
}) {
  const x = distanceAxis(distanceM);
  const y = valueAxis(points.map((p) => p.bpm));
  return (
    <figure className="card" aria-labelledby="chart-heart-rate" aria-describedby="chart-heart-rate-summary" data-testid="heart-rate-chart">
      <figcaption id="chart-heart-rate">Heart rate (bpm)</figcaption>
      <p id="chart-heart-rate-summary" className="chart-summary">
        {summary}
      </p>
      <ResponsiveContainer width="100%" height={180}>
        <LineChart data={points} margin={{ top: 8, right: 8, bottom: 8, left: 0 }}>
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
          <YAxis domain={y?.domain ?? ["auto", "auto"]} ticks={y?.ticks} width={40} tickFormatter={(v: number) => v.toFixed(0)} />
          <Tooltip
            formatter={(value) => (typeof value === "number" ? `${Math.round(value)} bpm` : String(value))}
            labelFormatter={(d) => `${Math.round(Number(d))} m`}
          />
          <Line type="monotone" dataKey="bpm" stroke="#a4133c" dot={false} isAnimationActive={false} />
        </LineChart>
      </ResponsiveContainer>
    </figure>
  );
}
