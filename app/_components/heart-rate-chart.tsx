"use client";

import { distanceAxis, valueAxis } from "@/app/_lib/chart-axes";
import { DistanceChart } from "./distance-chart";

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
  return (
    <DistanceChart
      id="chart-heart-rate"
      title="Heart rate (bpm)"
      summary={summary}
      rows={points}
      series={[{ dataKey: "bpm", colour: "#a4133c" }]}
      x={distanceAxis(distanceM)}
      y={valueAxis(points.map((p) => p.bpm))}
      yAxisWidth={40}
      formatTick={(v) => v.toFixed(0)}
      formatValue={(v) => `${Math.round(v)} bpm`}
      figureProps={{ "data-testid": "heart-rate-chart" }}
    />
  );
}
