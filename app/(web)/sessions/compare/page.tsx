import type { Metadata } from "next";
import { Uncertainty } from "@/app/_components/splits-table";
import Link from "next/link";
import { formatDuration, formatPace500, formatPaceAndSpeed, formatRate } from "@/app/_lib/format";
import { loadOr404 } from "@/app/_lib/params";
import { requireUser } from "@/server/auth/current-user";
import { getDb } from "@/server/db/client";
import { AppError } from "@/server/errors";
import { averageSpeedMS } from "@/server/results/figures";
import { COMPARE_LIMITS, compareSessions, type SessionComparison } from "@/server/sessions/compare-sessions";
import { getCrewSeenBy } from "@/server/sessions/read-session";
import { CompareCharts, SESSION_COLOURS } from "./compare-charts";
import { INT4_MAX } from "@/server/contract/values";
import { SPLIT_COUNT } from "@/server/svc/process/track";

export const metadata: Metadata = { title: "Compare sessions" };

/** `?ids=3&ids=5` (the log's checkboxes) or `?ids=3,5`: the ids, or a message saying what is wrong. */
function parseIds(raw: string | string[] | undefined): { ids: number[] } | { problem: string } {
  const parts = (Array.isArray(raw) ? raw : raw ? [raw] : [])
    .flatMap((v) => v.split(","))
    .map((v) => v.trim())
    .filter(Boolean);
  if (parts.some((p) => !/^[1-9]\d{0,9}$/.test(p) || Number(p) > INT4_MAX))
    return { problem: "The address holds something that is not a session." };
  const ids = parts.map(Number);
  if (new Set(ids).size !== ids.length) return { problem: "The same session is chosen twice: choose each session once." };
  if (ids.length < COMPARE_LIMITS.minSessions || ids.length > COMPARE_LIMITS.maxSessions)
    return { problem: `Choose ${COMPARE_LIMITS.minSessions} to ${COMPARE_LIMITS.maxSessions} sessions to compare (${ids.length} chosen).` };
  return { ids };
}

const secondsText = (s: number) => formatDuration(Math.round(s * 1000));
/** Average speed over the compared (common) distance: its distance ÷ the time to reach it; the session's own average when that is its whole distance. */
const commonSpeed = (s: SessionComparison["sessions"][number]) => {
  const last = s.splits[s.splits.length - 1];
  return Math.abs(last.distanceM - s.row.distanceM) < 1e-6
    ? averageSpeedMS(s.row.distanceM, s.row.durationMs)
    : averageSpeedMS(last.distanceM, last.elapsedS * 1000);
};
const deltaText = (s: number) => (Math.abs(s) < 0.05 ? "±0.0 s" : `${s > 0 ? "+" : "−"}${Math.abs(s).toFixed(1)} s`);

export default async function ComparePage({ searchParams }: { searchParams: Promise<{ ids?: string | string[] }> }) {
  const user = await requireUser();
  const parsed = parseIds((await searchParams).ids);
  if ("problem" in parsed) return <CompareProblem message={parsed.problem} />;
  let comparison: SessionComparison;
  try {
    // The web app's boundary is the data surface's: every session the person may open.
    comparison = await loadOr404(() =>
      compareSessions(getDb(), { subjectId: user.id, surface: "data", applicationId: 0 }, parsed.ids, {
        points: 200,
        splits: SPLIT_COUNT.default,
      }),
    );
  } catch (error) {
    if (error instanceof AppError && error.code === "conflict")
      return <CompareProblem message={`${error.message}. Leave it out to compare the others.`} />;
    throw error;
  }
  // Each series is named by its crew and date (docs/web-app.md "Squad views"): the names the person may see, seat by seat.
  const audience = { subjectId: user.id, surface: "data" as const, applicationId: 0 };
  const crews = await Promise.all(comparison.sessions.map((s) => getCrewSeenBy(getDb(), audience, s.row.id)));
  const label = (k: number) => {
    const row = comparison.sessions[k].row;
    const names = crews[k].map((c) => c.athlete?.name).filter(Boolean);
    return `${k + 1}. ${names.length ? `${names.join(" / ")} · ` : ""}${row.date} · ${row.boatClass} ${row.distanceM} m`;
  };
  const first = comparison.sessions[0];
  return (
    <>
      <p>
        <Link href="/">← Sessions</Link>
      </p>
      <h1>Compare {comparison.sessions.length} sessions</h1>
      <p className="muted">
        Over the first {Math.round(comparison.distanceM)} m of each (the shortest session&apos;s distance); times and gaps are against
        session 1.
      </p>
      <ul className="compare-legend" aria-label="Sessions compared">
        {comparison.sessions.map((s, k) => (
          <li key={s.row.id}>
            <span className="compare-swatch" style={{ background: SESSION_COLOURS[k % SESSION_COLOURS.length] }} aria-hidden="true" />
            <Link href={`/sessions/${s.row.id}`}>{label(k)}</Link>
          </li>
        ))}
      </ul>
      <CompareCharts
        data={{
          grid: comparison.gridM,
          distanceM: comparison.distanceM,
          sessions: comparison.sessions.map((s, k) => ({
            key: `s${s.row.id}`,
            label: label(k),
            speed: s.speedMS,
            rate: s.rateSpm,
            avgSpeed: commonSpeed(s),
          })),
        }}
      />
      <h2 id="times-heading">Times</h2>
      {/* Wide tables scroll inside their card on a phone: focusable, so the keyboard can scroll them too. */}
      <div className="table-scroll table-card" tabIndex={0} role="region" aria-labelledby="times-heading">
        <table aria-labelledby="times-heading" data-testid="compare-times">
          <thead>
            <tr>
              <th scope="col">Session</th>
              <th scope="col" className="num">
                Time
              </th>
              <th scope="col" className="num">
                At {Math.round(comparison.distanceM)} m
              </th>
              <th scope="col" className="num">
                Gap
              </th>
              <th scope="col" className="num">
                Pace /500 m to {Math.round(comparison.distanceM)} m (m/s)
              </th>
              <th scope="col" className="num">
                Mean rate
              </th>
            </tr>
          </thead>
          <tbody>
            {comparison.sessions.map((s, k) => {
              const last = s.splits[s.splits.length - 1];
              return (
                <tr key={s.row.id}>
                  <th scope="row">{label(k)}</th>
                  <td className="num">{formatDuration(s.row.durationMs)}</td>
                  <td className="num">
                    {secondsText(last.elapsedS)}
                    <Uncertainty seconds={last.elapsedUncertaintyS} testId="compare-elapsed-uncertainty" />
                  </td>
                  <td className="num">
                    {k === 0 ? "—" : deltaText(last.elapsedDeltaS)}
                    {k > 0 && last.elapsedDeltaWithinNoise ? <NoiseMark /> : null}
                  </td>
                  <td className="num">{formatPaceAndSpeed(commonSpeed(s)).replace(" /500 m", "")}</td>
                  <td className="num">{s.analysis.summary.avg_rate !== null ? `${formatRate(s.analysis.summary.avg_rate)} spm` : "—"}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <h2 id="splits-heading">Splits</h2>
      <p className="muted" id="noise-hint">
        Each time carries its 95 % uncertainty (±, from each recording&apos;s own noise). A gap smaller than the two times&apos; combined
        uncertainty is marked <em>within the noise</em>: it is not evidence that either was faster.
      </p>
      <div className="table-scroll table-card" tabIndex={0} role="region" aria-labelledby="splits-heading">
        <table aria-labelledby="splits-heading" data-testid="compare-splits">
          <thead>
            <tr>
              <th scope="col">Split</th>
              {comparison.sessions.map((s, k) => (
                <th key={s.row.id} scope="col" className="num">
                  {k + 1}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {first.splits.map((split, j) => (
              <tr key={split.index}>
                <th scope="row">to {Math.round(split.distanceM)} m</th>
                {comparison.sessions.map((s, k) => (
                  <td key={s.row.id} className="num" data-testid={`compare-split-${j + 1}-${k + 1}`}>
                    {secondsText(s.splits[j].splitS)}
                    <Uncertainty seconds={s.splits[j].splitUncertaintyS} testId="compare-split-uncertainty" />
                    {k > 0 ? <span className="muted"> ({deltaText(s.splits[j].splitDeltaS)})</span> : null}
                    {k > 0 && s.splits[j].splitDeltaWithinNoise ? <NoiseMark /> : null}
                    <br />
                    <span className="muted">{formatPace500(s.splits[j].speedMS)} /500 m</span>
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

/** A difference the two recordings cannot tell apart (docs/processing.md "Split uncertainty"). */
function NoiseMark() {
  return (
    <span className="noise-mark" data-testid="within-noise">
      {" "}
      within the noise
    </span>
  );
}

function CompareProblem({ message }: { message: string }) {
  return (
    <>
      <h1>Compare sessions</h1>
      <div className="card empty" data-testid="compare-problem">
        <p role="alert">{message}</p>
        <p>
          <Link href="/">Back to the sessions log</Link> and tick 2 to 9 sessions.
        </p>
      </div>
    </>
  );
}
