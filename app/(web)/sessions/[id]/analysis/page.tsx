import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { loadOr404, parseId } from "@/app/_lib/params";
import { ANALYSIS_NAMES, runAnalysis } from "@/server/analytics";
import { loadAnalysisInputFor } from "@/server/analytics/load-input";
import { cruiseStrokes } from "@/server/analytics/segments";
import { requireUser } from "@/server/auth/current-user";
import { getDb } from "@/server/db/client";
import { getStoredAnalysis } from "@/server/results/result-analysis";
import { getResultDetail } from "@/server/results/result-detail";
import { sessionFigures } from "@/server/results/figures";
import { findingOf } from "@/server/analytics/findings";
import { AnalysisTables, FindingChart, FindingDetails, TechnicalTables } from "./analysis-views";

export const metadata: Metadata = { title: "Session analysis" };

const TITLES: Record<(typeof ANALYSIS_NAMES)[number], string> = {
  "data-quality": "Data quality",
  anomalies: "Anomalies",
  "side-balance": "Side balance",
  "metric-relationships": "Metric relationships",
  pacing: "Pacing",
  progression: "Progression through the effort",
  "stroke-phases": "Stroke phases",
  consistency: "Consistency",
  start: "Start",
  finish: "Finish",
  "split-motion": "Boat motion per segment",
};

const clamp = (value: string | undefined, min: number, max: number, fallback: number) => {
  const n = Number(value);
  return Number.isFinite(n) && value !== "" ? Math.min(max, Math.max(min, n)) : fallback;
};

/**
 * The eleven analyses of one session (docs/analytics.md), each leading with
 * what it found in a sentence, then its chart and figures, the statistics in a
 * "details" disclosure (docs/web-app.md "Analysis"); segment count and
 * sensitivity in the URL.
 */
export default async function SessionAnalysisPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | undefined>>;
}) {
  const user = await requireUser();
  const id = parseId((await params).id) ?? notFound();
  const query = await searchParams;
  const options = {
    segments: Math.round(clamp(query.segments, 2, 20, 4)),
    sensitivity: clamp(query.sensitivity, 0.5, 10, 2),
    metrics: null,
  };
  const db = getDb();
  const detail = await loadOr404(() => getResultDetail(db, user.id, id));
  const stored = await getStoredAnalysis(db, id);
  const heading = `${detail.summary.vesselType} · ${detail.summary.distanceM} m · ${detail.summary.date}`;
  if (!stored) {
    return (
      <>
        <h1>Analysis · {heading}</h1>
        <p className="card">This session has no processed data (its processing failed), so there is nothing to analyse.</p>
      </>
    );
  }
  // Heart-rate facts are the seat-1 paddler's health data: the input carries them only for that paddler.
  const input = await loadAnalysisInputFor(db, user.id, id, stored);
  // The session's stroke count is the effort's (server/results/figures.ts); the analyses read its cruising part, and say so.
  const strokeCount = sessionFigures(stored.summary).strokeCount;
  const cruise = cruiseStrokes(input);
  const startStrokes = input.strokes.length - 1 - cruise.length;
  return (
    <>
      <div className="page-header">
        <h1>Analysis · {heading}</h1>
        <Link href={`/sessions/${id}`}>Back to the session</Link>
      </div>
      <form className="card form-inline" method="get">
        <label>
          Segments <input type="number" name="segments" min={2} max={20} defaultValue={options.segments} />
        </label>{" "}
        <label>
          Sensitivity <input type="number" name="sensitivity" min={0.5} max={10} step={0.5} defaultValue={options.sensitivity} />
        </label>{" "}
        <button type="submit">Apply</button>
        <p className="muted">Segments cut the effort into equal distances; a higher sensitivity flags smaller anomalies and asymmetries.</p>
      </form>
      <p className="card" data-testid="analysis-strokes">
        The effort has {strokeCount} strokes.{" "}
        {cruise.length
          ? `Stroke by stroke, the analyses read the ${cruise.length} at cruising speed: they leave out the standing start's first ${startStrokes} strokes (until the boat first reaches 90 % of its cruising speed) and the last stroke, which ends past the finish.`
          : "Too few strokes reach cruising speed for the stroke-by-stroke analyses."}
      </p>
      {ANALYSIS_NAMES.map((name) => {
        const outcome = runAnalysis(name, input, options);
        return (
          <section key={name} className="card" aria-labelledby={`analysis-${name}`}>
            <h2 id={`analysis-${name}`}>{TITLES[name]}</h2>
            {outcome.status === "ok" ? (
              <AnalysisSection name={name} result={outcome.result} seats={detail.crew.length} />
            ) : (
              <p className="muted">Not enough data: {outcome.reason}.</p>
            )}
          </section>
        );
      })}
    </>
  );
}

function AnalysisSection({ name, result, seats }: { name: (typeof ANALYSIS_NAMES)[number]; result: unknown; seats: number }) {
  const finding = findingOf(name, result, { seats });
  return (
    <>
      <p className="analysis-finding" data-testid={`finding-${name}`}>
        {finding.sentence}
      </p>
      {finding.chart ? <FindingChart name={name} chart={finding.chart} /> : null}
      <AnalysisTables name={name} result={result} />
      <FindingDetails name={name} finding={finding}>
        <TechnicalTables name={name} result={result} />
      </FindingDetails>
    </>
  );
}
