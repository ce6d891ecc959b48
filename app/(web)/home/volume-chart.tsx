"use client";

import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

export interface VolumePoint {
  week: string;
  km: number;
  minutes: number;
  workMinutes: number;
}

/**
 * Weekly volume over the season, as two small charts side by side (one above
 * the other on a phone), each with its own axis: distance in km, and time on
 * the water with work-set time in hours. Straight segments between the weeks'
 * points (issue 28 §6): a smoothed curve drew bumps between weeks that are not
 * data, and two measures on two axes of one plot lay on top of each other.
 */
export function VolumeChart({ points, summary }: { points: VolumePoint[]; summary: string }) {
  const hours = points.map((p) => ({ week: p.week, water: p.minutes / 60, work: p.workMinutes / 60 }));
  return (
    <figure className="card" aria-labelledby="chart-volume" aria-describedby="chart-volume-summary" data-testid="volume-chart">
      <figcaption id="chart-volume">Weekly volume</figcaption>
      <p id="chart-volume-summary" className="chart-summary">
        {summary}
      </p>
      <div className="volume-charts">
        <div data-testid="volume-chart-distance">
          <p className="volume-chart-title">Distance (km)</p>
          <ResponsiveContainer width="100%" height={200}>
            <LineChart data={points} margin={{ top: 8, right: 12, bottom: 4, left: 0 }}>
              <CartesianGrid stroke="#eef1f4" />
              <XAxis dataKey="week" tickFormatter={(w: string) => w.slice(5)} minTickGap={16} />
              <YAxis width={36} allowDecimals={false} />
              <Tooltip labelFormatter={(w) => `Week of ${w}`} formatter={(v) => [`${Number(v).toFixed(1)} km`, "Distance"]} />
              <Line name="Distance" type="linear" dataKey="km" stroke="#1d4ed8" strokeWidth={2} dot={{ r: 2 }} isAnimationActive={false} />
            </LineChart>
          </ResponsiveContainer>
        </div>
        <div data-testid="volume-chart-time">
          <p className="volume-chart-title">Time (h)</p>
          <ResponsiveContainer width="100%" height={200}>
            <LineChart data={hours} margin={{ top: 8, right: 12, bottom: 4, left: 0 }}>
              <CartesianGrid stroke="#eef1f4" />
              <XAxis dataKey="week" tickFormatter={(w: string) => w.slice(5)} minTickGap={16} />
              <YAxis width={36} tickFormatter={(v: number) => String(Math.round(v * 10) / 10)} />
              <Tooltip labelFormatter={(w) => `Week of ${w}`} formatter={(v, name) => [`${Math.round(Number(v) * 60)} min`, name]} />
              <Legend iconSize={10} />
              <Line
                name="On the water"
                type="linear"
                dataKey="water"
                stroke="#0f766e"
                strokeWidth={2}
                dot={{ r: 2 }}
                isAnimationActive={false}
              />
              <Line
                name="Work sets"
                type="linear"
                dataKey="work"
                stroke="#b45309"
                strokeDasharray="4 3"
                dot={{ r: 2 }}
                isAnimationActive={false}
              />
            </LineChart>
          </ResponsiveContainer>
        </div>
      </div>
    </figure>
  );
}
