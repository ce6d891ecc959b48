"use client";

import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

export interface VolumePoint {
  week: string;
  km: number;
  minutes: number;
  workMinutes: number;
}

/** Weekly volume over the season: distance (km, left axis), time on the water and work-set time (minutes, right axis). */
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
          <YAxis yAxisId="km" width={56} tickFormatter={(v: number) => `${v} km`} allowDecimals={false} />
          <YAxis yAxisId="min" orientation="right" width={60} tickFormatter={(v: number) => `${v} min`} allowDecimals={false} />
          <Tooltip
            labelFormatter={(w) => `Week of ${w}`}
            formatter={(value, name) =>
              typeof value === "number"
                ? [name === "Distance" ? `${value.toFixed(1)} km` : `${Math.round(value)} min`, name]
                : [String(value), name]
            }
          />
          <Legend iconSize={10} />
          <Line
            yAxisId="km"
            name="Distance"
            type="monotone"
            dataKey="km"
            stroke="#1d4ed8"
            strokeWidth={2}
            dot={false}
            isAnimationActive={false}
          />
          <Line
            yAxisId="min"
            name="Time on the water"
            type="monotone"
            dataKey="minutes"
            stroke="#0f766e"
            dot={false}
            isAnimationActive={false}
          />
          <Line
            yAxisId="min"
            name="Work-set time"
            type="monotone"
            dataKey="workMinutes"
            stroke="#b45309"
            strokeDasharray="4 3"
            dot={false}
            isAnimationActive={false}
          />
        </LineChart>
      </ResponsiveContainer>
    </figure>
  );
}
