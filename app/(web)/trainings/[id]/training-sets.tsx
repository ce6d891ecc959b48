"use client";

import { useState } from "react";
import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { SplitsTable, Uncertainty } from "@/app/_components/splits-table";
import { StrokeCharts } from "@/app/_components/stroke-charts";
import { distanceAxis, SERIES_TRIM, tickDigits, valueAxis } from "@/app/_lib/chart-axes";
import { formatDuration, formatPace500, formatUncertainty } from "@/app/_lib/format";
import { averageSpeedMS } from "@/server/results/figures";
import type { TrainingSetView } from "@/server/trainings/training-view";

/** Compared sets: 2 to 9 work sets of the training (the Data API's compare accepts the same). */
export const COMPARE_MIN = 2;
export const COMPARE_MAX = 9;
const COLOURS = ["#0b5cad", "#b42318", "#1a7f37", "#8250df", "#bc4c00", "#0a7c86", "#6e7781", "#bf3989", "#4d2d00"];

const fixed = (v: number | null | undefined, digits: number) => (v === null || v === undefined ? "—" : v.toFixed(digits));
/** The set's final time's uncertainty: its last split's elapsed one. */
const finalUncertainty = (s: TrainingSetView) => s.splits[s.splits.length - 1]?.time_uncertainty_s ?? null;
// Distance ÷ time unrounded (server/results/figures.ts), not the summary's 3-decimal value rounded again.
const speedOf = (s: TrainingSetView) => (s.durationMs > 0 ? averageSpeedMS(s.distanceM, s.durationMs) : null);

/** The sets table, the charts of one chosen work set, and the side-by-side comparison of the work sets ticked in the table. */
export function TrainingSets({ sets, hasTemplate, who }: { sets: TrainingSetView[]; hasTemplate: boolean; who?: string }) {
  const work = sets.filter((s) => s.kind === "work");
  const [chartedId, setChartedId] = useState<number | null>(work[0]?.id ?? null);
  const [compared, setCompared] = useState<number[]>([]);
  const charted = work.find((s) => s.id === chartedId) ?? work[0];
  const toggle = (id: number, on: boolean) => setCompared((old) => (on ? [...old, id].slice(0, COMPARE_MAX) : old.filter((x) => x !== id)));
  const chosen = work.filter((s) => compared.includes(s.id));

  return (
    <>
      <section className="card" aria-labelledby="sets-heading">
        <h2 id="sets-heading">Sets</h2>
        <p className="hint" id="compare-hint">
          Tick {COMPARE_MIN} to {COMPARE_MAX} work sets to compare them side by side. Pace is per 500 m, with the speed beside it.
        </p>
        <div className="table-scroll table-card">
          <table aria-label="Sets" data-testid="sets-table">
            <thead>
              <tr>
                <th scope="col">Compare</th>
                <th scope="col">Set</th>
                <th scope="col">Distance</th>
                <th scope="col">Time</th>
                <th scope="col">Pace /500 m (m/s)</th>
                <th scope="col">Rate (spm)</th>
                <th scope="col">Distance per stroke (m)</th>
                <th scope="col">Strokes</th>
                {hasTemplate ? <th scope="col">Template step</th> : null}
              </tr>
            </thead>
            <tbody>
              {sets.map((s) =>
                s.kind === "work" ? (
                  <tr key={s.id} data-kind="work" id={`work-${s.workNumber}`} className="moment-row">
                    <td>
                      <input
                        type="checkbox"
                        aria-label={`Compare work set ${s.workNumber}`}
                        aria-describedby="compare-hint"
                        checked={compared.includes(s.id)}
                        disabled={!compared.includes(s.id) && compared.length >= COMPARE_MAX}
                        onChange={(e) => toggle(s.id, e.target.checked)}
                      />
                    </td>
                    <th scope="row">
                      Work {s.workNumber}
                      {s.corrected ? <span className="muted"> (corrected)</span> : null}
                    </th>
                    <td>
                      {s.distanceM} m{s.complete ? "" : " (incomplete)"}
                    </td>
                    <td>
                      {formatDuration(s.durationMs)}
                      <Uncertainty seconds={finalUncertainty(s)} testId="set-time-uncertainty" />
                    </td>
                    <td>
                      {formatPace500(speedOf(s))} ({fixed(speedOf(s), 2)})
                    </td>
                    <td>{fixed(s.summary?.avg_rate, 1)}</td>
                    <td>{fixed(s.summary?.avg_stroke_distance, 2)}</td>
                    <td>{s.strokeCount}</td>
                    {hasTemplate ? <td>{s.stepLabel ? `work ${s.stepWorkNumber}: ${s.stepLabel}` : s.extra ? "extra set" : "—"}</td> : null}
                  </tr>
                ) : (
                  <tr key={s.id} data-kind="rest" className="rest-row">
                    <td />
                    <th scope="row">Rest{s.corrected ? <span className="muted"> (corrected)</span> : null}</th>
                    <td>{s.distanceM} m</td>
                    <td>{formatDuration(s.durationMs)}</td>
                    <td>—</td>
                    <td>—</td>
                    <td>—</td>
                    <td>{s.strokeCount}</td>
                    {hasTemplate ? <td /> : null}
                  </tr>
                ),
              )}
            </tbody>
          </table>
        </div>
      </section>

      {chosen.length >= COMPARE_MIN ? (
        <CompareSets sets={chosen} who={who} />
      ) : compared.length === 1 ? (
        <p className="card muted" role="status">
          Tick one more work set to compare.
        </p>
      ) : null}

      {charted ? (
        <section className="card" aria-labelledby="set-charts-heading">
          <h2 id="set-charts-heading">Set charts</h2>
          <div className="field">
            <label htmlFor="charted-set">Work set shown</label>
            <select id="charted-set" value={charted.id} onChange={(e) => setChartedId(Number(e.target.value))}>
              {work.map((s) => (
                <option key={s.id} value={s.id}>
                  Work {s.workNumber}: {s.distanceM} m in {formatDuration(s.durationMs)}
                </option>
              ))}
            </select>
          </div>
          <StrokeCharts
            points={charted.points}
            distanceM={charted.distanceM}
            splitsM={charted.splits.map((s) => s.distance_m)}
            idPrefix="set-"
          />
          {charted.splits.length ? (
            <>
              <h3 id="set-splits-heading">Splits of work {charted.workNumber}</h3>
              <div className="table-scroll" tabIndex={0} role="region" aria-labelledby="set-splits-heading">
                <SplitsTable splits={charted.splits} />
              </div>
            </>
          ) : null}
        </section>
      ) : null}
    </>
  );
}

/** Chosen work sets side by side: a table of their figures and speed and rate over distance, overlaid. */
/** `who`: the crew's names and the date ("Ana Vega · 2026-10-01"): every compared set is theirs, so the heading says it once. */
function CompareSets({ sets, who }: { sets: TrainingSetView[]; who?: string }) {
  const rows: { label: string; value: (s: TrainingSetView) => string }[] = [
    { label: "Distance", value: (s) => `${s.distanceM} m` },
    { label: "Time", value: (s) => `${formatDuration(s.durationMs)} ${formatUncertainty(finalUncertainty(s))}`.trim() },
    { label: "Pace /500 m (m/s)", value: (s) => `${formatPace500(speedOf(s))} (${fixed(speedOf(s), 2)})` },
    { label: "Top speed (m/s)", value: (s) => fixed(s.summary?.max_speed, 2) },
    { label: "Rate (spm)", value: (s) => fixed(s.summary?.avg_rate, 1) },
    { label: "Top rate (spm)", value: (s) => fixed(s.summary?.max_rate, 1) },
    { label: "Distance per stroke (m)", value: (s) => fixed(s.summary?.avg_stroke_distance, 2) },
    { label: "Strokes", value: (s) => String(s.strokeCount) },
  ];
  // Present only when the heart rate is the viewer's own (server/health/health-projection.ts decides, not this component).
  if (sets.some((s) => s.ownHeartRate)) rows.push({ label: "Heart rate (bpm)", value: (s) => fixed(s.ownHeartRate?.avgBpm, 0) });
  const fastest = sets.reduce((a, b) => ((speedOf(b) ?? 0) > (speedOf(a) ?? 0) ? b : a));
  return (
    <section className="card" aria-labelledby="compare-heading" data-testid="set-compare">
      <h2 id="compare-heading">
        Compare {sets.length} work sets{who ? <span className="muted"> · {who}</span> : null}
      </h2>
      <p className="chart-summary">
        Fastest: work {fastest.workNumber} at {formatPace500(speedOf(fastest))} /500 m.
      </p>
      <div className="table-scroll table-card">
        <table aria-label="Compared sets">
          <thead>
            <tr>
              <th scope="col">Figure</th>
              {sets.map((s) => (
                <th scope="col" key={s.id}>
                  Work {s.workNumber}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.label}>
                <th scope="row">{row.label}</th>
                {sets.map((s) => (
                  <td key={s.id}>{row.value(s)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="charts">
        <OverlaidChart sets={sets} metric="speed" title="Speed over distance (m/s)" digits={2} />
        <OverlaidChart sets={sets} metric="rate" title="Stroke rate over distance (spm)" digits={1} />
      </div>
    </section>
  );
}

function OverlaidChart({
  sets,
  metric,
  title,
  digits,
}: {
  sets: TrainingSetView[];
  metric: "speed" | "rate";
  title: string;
  digits: number;
}) {
  const id = `compare-${metric}`;
  const means = sets.map((s) => {
    const values = s.points.flatMap((p) => (p[metric] === null ? [] : [p[metric] as number]));
    return values.length ? values.reduce((a, b) => a + b, 0) / values.length : null;
  });
  const x = distanceAxis(Math.max(...sets.map((s) => s.distanceM)));
  const y = valueAxis(
    sets.flatMap((s) => s.points.map((p) => p[metric])),
    SERIES_TRIM,
  );
  return (
    <figure aria-labelledby={id} aria-describedby={`${id}-summary`}>
      <figcaption id={id}>{title}</figcaption>
      <p id={`${id}-summary`} className="chart-summary">
        Means: {sets.map((s, k) => `work ${s.workNumber} ${fixed(means[k], digits)}`).join(", ")}.
      </p>
      <ul className="set-compare-legend" aria-hidden="true">
        {sets.map((s, k) => (
          <li key={s.id}>
            <span style={{ background: COLOURS[k % COLOURS.length] }} />
            Work {s.workNumber}
          </li>
        ))}
      </ul>
      <ResponsiveContainer width="100%" height={220}>
        <LineChart margin={{ top: 8, right: 8, bottom: 8, left: 0 }}>
          <CartesianGrid stroke="#eef1f4" />
          <XAxis
            dataKey="distance"
            type="number"
            domain={x.domain}
            ticks={x.ticks}
            interval="preserveStartEnd"
            allowDataOverflow
            allowDuplicatedCategory={false}
            tickFormatter={(d: number) => `${Math.round(d)} m`}
          />
          <YAxis
            domain={y?.domain ?? ["auto", "auto"]}
            ticks={y?.ticks}
            interval={0}
            allowDataOverflow
            width={44}
            tickFormatter={(v: number) => v.toFixed(y ? tickDigits(y) : 1)}
          />
          <Tooltip
            formatter={(value) => (typeof value === "number" ? value.toFixed(digits) : String(value))}
            labelFormatter={(d) => `${Math.round(Number(d))} m`}
          />
          {sets.map((s, k) => (
            <Line
              key={s.id}
              data={s.points}
              name={`Work ${s.workNumber}`}
              type="monotone"
              dataKey={metric}
              stroke={COLOURS[k % COLOURS.length]}
              dot={false}
              isAnimationActive={false}
              connectNulls
            />
          ))}
        </LineChart>
      </ResponsiveContainer>
    </figure>
  );
}
