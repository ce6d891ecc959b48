import { formatHeartRate, formatPaceAndSpeed, formatRate, formatStrokeDistance } from "@/app/_lib/format";
import { sessionFigures } from "@/server/results/figures";
import type { SessionView } from "./load-session-view";

/**
 * The result at a glance, the page's first card: the effort's averages (pace per 500 m first). Two columns on a phone,
 * so the splits below it are on the first screen too (docs/web-app.md "The session page: data first").
 */
export function SessionResult({ view }: { view: SessionView }) {
  const summary = view.analysis?.summary;
  const figures = summary ? sessionFigures(summary) : null;
  if (!figures) return null;
  return (
    <dl className="card result-facts" aria-label="Result">
      <div>
        <dt>Average pace</dt>
        <dd data-testid="average-pace">{formatPaceAndSpeed(figures.avgSpeedMS)}</dd>
      </div>
      <div>
        <dt>Top speed</dt>
        <dd data-testid="top-speed">{formatPaceAndSpeed(figures.topSpeedMS)}</dd>
      </div>
      <div>
        <dt>Strokes</dt>
        <dd data-testid="stroke-count">{figures.strokeCount}</dd>
      </div>
      <div>
        <dt>Average rate</dt>
        <dd data-testid="average-rate">{formatRate(figures.avgRateSpm)} spm</dd>
      </div>
      <div>
        <dt>Distance per stroke</dt>
        <dd data-testid="distance-per-stroke">{formatStrokeDistance(figures.avgStrokeDistanceM)} m</dd>
      </div>
      {view.heartRate ? (
        <div>
          <dt>Heart rate (yours)</dt>
          <dd data-testid="heart-rate-facts">
            average {formatHeartRate(view.heartRate.avg)} · max {formatHeartRate(view.heartRate.max)} bpm
          </dd>
        </div>
      ) : null}
    </dl>
  );
}
