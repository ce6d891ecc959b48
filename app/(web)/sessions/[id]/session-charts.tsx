import { StrokeCharts } from "@/app/_components/stroke-charts";
import { sessionFigures, speedRange, speedRangeSentence } from "@/server/results/figures";
import type { SessionView } from "./load-session-view";

/** Speed, rate and distance per stroke along the distance. */
export function SessionCharts({ view }: { view: SessionView }) {
  const range = view.analysis ? speedRange(view.analysis.track, sessionFigures(view.analysis.summary)) : null;
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
        speedSummary={range ? speedRangeSentence(range) : null}
      />
    </section>
  );
}
