import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { SplitsTable } from "@/app/_components/splits-table";
import { StrokeCharts } from "@/app/_components/stroke-charts";
import { SessionReplay } from "@/app/_components/replay-player/session-replay";
import { formatDuration, formatPaceAndSpeed, formatRate, formatStrokeDistance } from "@/app/_lib/format";
import { getDb } from "@/server/db/client";
import { getSharedSessionView } from "@/server/shares/shared-session";

// The token is the credential: keep the page out of search engines and out of Referer headers.
export const metadata: Metadata = { title: "Shared session", robots: { index: false, follow: false }, referrer: "no-referrer" };
export const dynamic = "force-dynamic";

export default async function SharedSessionPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const view = await getSharedSessionView(getDb(), token);
  if (!view) notFound();
  return (
    <main className="page">
      <p className="muted">Paddle Results · shared session (read-only)</p>
      <h1>
        {view.vesselType} · {view.distanceM} m · {formatDuration(view.durationMs)}
      </h1>
      <dl className="card facts">
        <div>
          <dt>Date</dt>
          <dd>
            {view.date} {view.timeOfDay.slice(0, 5)}
          </dd>
        </div>
        <div>
          <dt>Track</dt>
          <dd>{view.trackName}</dd>
        </div>
        {view.figures ? (
          <>
            <div>
              <dt>Average pace</dt>
              <dd data-testid="average-pace">{formatPaceAndSpeed(view.figures.avgSpeedMS)}</dd>
            </div>
            <div>
              <dt>Top speed</dt>
              <dd data-testid="top-speed">{formatPaceAndSpeed(view.figures.topSpeedMS)}</dd>
            </div>
            <div>
              <dt>Strokes</dt>
              <dd data-testid="stroke-count">{view.figures.strokeCount}</dd>
            </div>
            <div>
              <dt>Average rate</dt>
              <dd data-testid="average-rate">{formatRate(view.figures.avgRateSpm)} spm</dd>
            </div>
            <div>
              <dt>Distance per stroke</dt>
              <dd data-testid="distance-per-stroke">{formatStrokeDistance(view.figures.avgStrokeDistanceM)} m</dd>
            </div>
          </>
        ) : null}
      </dl>
      {view.splits.length ? (
        <>
          <h2>Splits</h2>
          <div className="table-scroll" tabIndex={0} role="region" aria-label="Splits table, scrolls sideways">
            <SplitsTable splits={view.splits} />
          </div>
        </>
      ) : null}
      <h2>Along the distance</h2>
      <StrokeCharts
        points={view.points}
        distanceM={view.distanceM}
        splitsM={view.splits.map((s) => s.distance_m)}
        speedSummary={view.speedSentence}
      />
      <SessionReplay resultId={view.resultId} modelClass={view.vesselType} artifactUrl={`/share/${encodeURIComponent(token)}/replay`} />
    </main>
  );
}
