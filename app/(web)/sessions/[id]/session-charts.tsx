import { StrokeCharts } from "@/app/_components/stroke-charts";
import { sessionFigures, speedRange, speedRangeSentence } from "@/server/results/figures";
import type { SessionView } from "./load-session-view";

/** Speed, rate and distance per stroke along the distance, with the page's split ends marked. */
export function SessionCharts({ view }: { view: SessionView }) {
  const range = view.analysis ? speedRange(view.analysis.track, sessionFigures(view.analysis.summary)) : null;
  const splits = view.splits;
  return (
    <section aria-labelledby="charts-heading">
      <h2 id="charts-heading">Along the distance</h2>
      <StrokeCharts
        distanceM={view.detail.summary.distanceM}
        splitsM={splits.map((s) => s.distance_m)}
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
