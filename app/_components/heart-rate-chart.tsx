"use client";

import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

/** Heart rate (bpm) along the effort's distance, with its title and a text summary. */
export function HeartRateChart({ points, summary }: { points: { distance: number; bpm: number }[]; summary: string }) {
  return (
    <figure className="card" aria-labelledby="chart-heart-rate" aria-describedby="chart-heart-rate-summary" data-testid="heart-rate-chart">
      <figcaption id="chart-heart-rate">Heart rate (bpm)</figcaption>
      <p id="chart-heart-rate-summary" className="chart-summary">
        {summary}
      </p>
      <ResponsiveContainer width="100%" height={180}>
        <LineChart data={points} margin={{ top: 8, right: 8, bottom: 8, left: 0 }}>
          <CartesianGrid stroke="#eef1f4" />
          <XAxis dataKey="distance" type="number" domain={["dataMin", "dataMax"]} tickFormatter={(d: number) => `${Math.round(d)} m`} />
          <YAxis domain={["auto", "auto"]} width={40} tickFormatter={(v: number) => v.toFixed(0)} />
          <Tooltip formatter={(value) => (typeof value === "number" ? `${Math.round(value)} bpm` : String(value))} labelFormatter={(d) => `${Math.round(Number(d))} m`} />
          <Line type="monotone" dataKey="bpm" stroke="#a4133c" dot={false} isAnimationActive={false} />
        </LineChart>
      </ResponsiveContainer>
    </figure>
  );
}
