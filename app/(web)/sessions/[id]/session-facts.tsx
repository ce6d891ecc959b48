import { formatHeartRate, formatPaceAndSpeed, formatRate, formatStrokeDistance } from "@/app/_lib/format";
import { sessionFigures } from "@/server/results/figures";
import { crewMemberName, type SessionView } from "./load-session-view";

/** The session at a glance: when, where, who, and the effort's averages (pace per 500 m first). */
export function SessionFacts({ view }: { view: SessionView }) {
  const s = view.detail.summary;
  const summary = view.analysis?.summary;
  const figures = summary ? sessionFigures(summary) : null;
  return (
    <dl className="card facts">
      <div>
        <dt>Date</dt>
        <dd>
          {s.date} {s.timeOfDay.slice(0, 5)}
        </dd>
      </div>
      <div>
        <dt>Track</dt>
        <dd>{s.trackName}</dd>
      </div>
      <div>
        <dt>Crew</dt>
        <dd>{view.detail.crew.map(crewMemberName).join(", ")}</dd>
      </div>
      <div>
        <dt>Category · pace</dt>
        <dd>
          {s.categoryName} · {s.paceName}
        </dd>
      </div>
      {figures ? (
        <>
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
        </>
      ) : null}
      {s.important ? (
        <div>
          <dt>Flag</dt>
          <dd>
            <span className="badge warn">Important</span>
          </dd>
        </div>
      ) : null}
      {s.competition || s.description ? (
        <div>
          <dt>Notes</dt>
          <dd>{[s.competition, s.description].filter(Boolean).join(" · ")}</dd>
        </div>
      ) : null}
    </dl>
  );
}
