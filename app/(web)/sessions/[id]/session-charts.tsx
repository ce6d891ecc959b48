import { StrokeCharts } from "@/app/_components/stroke-charts";
import type { SessionView } from "./load-session-view";

/** Speed, rate and distance per stroke along the distance. */
export function SessionCharts({ view }: { view: SessionView }) {
  return (
    <section aria-labelledby="charts-heading">
      <h2 id="charts-heading">Along the distance</h2>
      <StrokeCharts
        points={view.detail.strokes.map((stroke) => ({
          distance: stroke.distanceM ?? 0,
          speed: stroke.filteredSpeedMS,
          rate: stroke.rateSpm,
          strokeDistance: stroke.strokeDistanceM ?? stroke.leftStrokeDistanceM ?? stroke.rightStrokeDistanceM,
        }))}
      />
    </section>
  );
}
