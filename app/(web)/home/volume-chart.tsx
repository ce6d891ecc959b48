"use client";

import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

export interface VolumePoint {
  week: string;
  km: number;
  hours: number;
  workHours: number;
}

/** Weekly volume over the season: distance (km, left axis), time on the water and work-set time (h, right axis). */
export function VolumeChart({ points, summary }: { points: VolumePoint[]; summary: string }) {
  return (
    <figure className="card" aria-labelledby="chart-volume" aria-describedby="chart-volume-summary" data-testid="volume-chart">
      <figcaption id="chart-volume">Weekly volume</figcaption>
      <p id="chart-volume-summary" className="chart-summary">
        {summary}
      </p>
      <ResponsiveContainer width="100%" height={220}>
        <LineChart data={points} margin={{ top: 8, right: 8, bottom: 8, left: 0 }}>
          <CartesianGrid stroke="#eef1f4" />
          <XAxis dataKey="week" tickFormatter={(w: string) => w.slice(5)} minTickGap={16} />
          <YAxis yAxisId="km" width={44} tickFormatter={(v: number) => `${v} km`} allowDecimals={false} />
          <YAxis yAxisId="h" orientation="right" width={36} tickFormatter={(v: number) => `${v} h`} />
          <Tooltip labelFormatter={(w) => `Week of ${w}`} formatter={(value, name) => (typeof value === "number" ? [name === "Distance" ? `${value.toFixed(1)} km` : `${value.toFixed(2)} h`, name] : [String(value), name])} />
          <Legend iconSize={10} />
          <Line yAxisId="km" name="Distance" type="monotone" dataKey="km" stroke="#1d4ed8" strokeWidth={2} dot={false} isAnimationActive={false} />
          <Line yAxisId="h" name="Time on the water" type="monotone" dataKey="hours" stroke="#0f766e" dot={false} isAnimationActive={false} />
          <Line yAxisId="h" name="Work-set time" type="monotone" dataKey="workHours" stroke="#b45309" strokeDasharray="4 3" dot={false} isAnimationActive={false} />
        </LineChart>
      </ResponsiveContainer>
    </figure>
  );
}
