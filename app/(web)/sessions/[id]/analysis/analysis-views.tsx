import type { ReactNode } from "react";
import type { AnomaliesResult } from "@/server/analytics/anomalies";
import type { ConsistencyResult } from "@/server/analytics/consistency";
import type { DataQualityResult } from "@/server/analytics/data-quality";
import type { FinishResult } from "@/server/analytics/finish";
import type { MetricRelationshipsResult } from "@/server/analytics/metric-relationships";
import type { PacingResult } from "@/server/analytics/pacing";
import type { ProgressionResult } from "@/server/analytics/progression";
import type { SideBalanceResult } from "@/server/analytics/side-balance";
import type { SplitMotionResult } from "@/server/analytics/split-motion";
import type { StartResult } from "@/server/analytics/start";
import type { StrokePhasesResult } from "@/server/analytics/stroke-phases";
import type { AnalysisName } from "@/server/analytics";
import type { Finding } from "@/server/analytics/findings";
import { valueAxis } from "@/app/_lib/chart-axes";
import { formatPace500 } from "@/app/_lib/format";

/**
 * Each analysis as a coach reads it (docs/web-app.md "Analysis"): the finding's
 * sentence, its bar chart, the plain-number tables, and the statistics behind
 * it in a "details" disclosure with their explanations. Headers carry the
 * units, cells plain numbers.
 */
const n = (value: number | null | undefined, digits = 2) => (value === null || value === undefined ? "–" : value.toFixed(digits));
const pct = (value: number | null | undefined) =>
  value === null || value === undefined ? "–" : `${value > 0 ? "+" : ""}${value.toFixed(1)} %`;
const range = (s: { from_m: number | null; to_m: number | null }) => `${n(s.from_m, 0)}–${n(s.to_m, 0)} m`;

function Table({ label, head, rows }: { label: string; head: string[]; rows: ReactNode[][] }) {
  return (
    <div className="table-scroll" tabIndex={0} role="region" aria-label={label}>
      <table aria-label={label}>
        <thead>
          <tr>
            {head.map((h) => (
              <th key={h} scope="col">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, i) => (
            <tr key={i}>
              {row.map((cell, j) => (
                <td key={j}>{cell}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The finding's bars on an axis that fits them (or its fixed 0–N), the value written beside each bar. */
export function FindingChart({ name, chart }: { name: string; chart: NonNullable<Finding["chart"]> }) {
  const axis = chart.domain ?? valueAxis(chart.bars.map((b) => b.value))?.domain ?? [0, 1];
  const [low, high] = axis[1] > axis[0] ? axis : [axis[0], axis[0] + 1];
  const unit = chart.unit ? ` ${chart.unit}` : "";
  return (
    <figure className="finding-chart" aria-labelledby={`finding-${name}-caption`} data-testid={`finding-chart-${name}`}>
      <figcaption id={`finding-${name}-caption`}>
        {chart.caption}{" "}
        <span className="muted">
          (bars from {low}
          {unit} to {high}
          {unit})
        </span>
      </figcaption>
      <ul className="finding-bars">
        {chart.bars.map((bar) => (
          <li key={bar.label} className={bar.highlight ? "highlight" : undefined}>
            <span className="finding-bar-label">{bar.label}</span>
            <span className="finding-bar-track" aria-hidden="true">
              {/* A value at the axis' start (a correlation of "none") draws no bar, not a sliver. */}
              {bar.value > low ? (
                <span
                  className="analysis-bar"
                  style={{ width: `${Math.max(0, Math.min(100, (100 * (bar.value - low)) / (high - low))).toFixed(1)}%` }}
                />
              ) : null}
            </span>
            <span className="finding-bar-value">{bar.text}</span>
          </li>
        ))}
      </ul>
    </figure>
  );
}

/** The statistics behind the finding, each with what it means, folded away. */
export function FindingDetails({ name, finding, children }: { name: string; finding: Finding; children?: ReactNode }) {
  if (!finding.details.length && !children) return null;
  return (
    <details className="analysis-details" data-testid={`finding-details-${name}`}>
      <summary>Details: the statistics behind this</summary>
      <dl>
        {finding.details.map((d) => (
          <div key={d.term}>
            <dt>
              {d.term}: <strong>{d.value}</strong>
            </dt>
            <dd>{d.explanation}</dd>
          </div>
        ))}
      </dl>
      {children}
    </details>
  );
}

/** The tables a coach reads: plain figures, no statistics jargon. */
export function AnalysisTables({ name, result }: { name: AnalysisName; result: unknown }) {
  switch (name) {
    case "data-quality": {
      const r = result as DataQualityResult;
      return (
        <Table
          label="Data quality"
          head={["motion samples", "lost", "GNSS fixes", "missing", "GNSS lost in effort", "heart-rate coverage"]}
          rows={[
            [
              r.imu_samples,
              pct(r.imu_lost_pct),
              r.gnss_fixes,
              pct(r.gnss_missing_pct),
              `${n(r.effort_fix_gap_s, 1)} s`,
              r.heart_rate_coverage === null ? "–" : `${Math.round(r.heart_rate_coverage * 100)} %`,
            ],
          ]}
        />
      );
    }
    case "anomalies": {
      const r = result as AnomaliesResult;
      return r.anomalies.length > 0 ? (
        <Table
          label="Anomalies"
          head={["stroke", "time (s)", "distance (m)", "metric", "value", "expected"]}
          rows={r.anomalies
            .slice(0, 20)
            .map((a) => [a.stroke_index + 1, n(a.time_s, 1), n(a.distance_m, 0), a.metric.replace("_", " "), n(a.value), n(a.expected)])}
        />
      ) : null;
    }
    case "side-balance": {
      const r = result as SideBalanceResult;
      const side = (s: typeof r.left) => [s.strokes, n(s.stroke_distance), n(s.stroke_time, 3), n(s.peak_accel)];
      return (
        <Table
          label="Side balance"
          head={["blade", "cruise strokes", "distance per stroke (m)", "stroke time (s)", "drive peak (m/s²)"]}
          rows={[
            ["left", ...side(r.left)],
            ["right", ...side(r.right)],
            ["left − right", "", pct(r.asymmetry_pct.stroke_distance), pct(r.asymmetry_pct.stroke_time), pct(r.asymmetry_pct.peak_accel)],
          ]}
        />
      );
    }
    case "metric-relationships":
      // Correlations and slopes are statistics: their table sits in the details.
      return null;
    case "pacing": {
      const r = result as PacingResult;
      return (
        <Table
          label="Pacing"
          head={["segment", "time (s)", "pace (/500 m)", "speed (m/s)", "vs mean", "rate (spm)"]}
          rows={r.segments.map((s) => [
            range(s),
            n(s.time_s),
            // From the segment's speed, as the sentence and the bar above: one figure (server/results/figure-format.ts).
            formatPace500(s.speed_m_s),
            n(s.speed_m_s),
            pct(s.relative_speed_pct),
            n(s.rate_spm, 1),
          ])}
        />
      );
    }
    case "progression": {
      const r = result as ProgressionResult;
      const segments = r.metrics[0]?.by_segment.length ?? 0;
      return (
        <Table
          label="Progression through the effort"
          head={["metric", ...Array.from({ length: segments }, (_, i) => `segment ${i + 1}`), "change"]}
          rows={r.metrics.map((m) => [m.metric.replace("_", " "), ...m.by_segment.map((v) => n(v)), pct(m.change_pct)])}
        />
      );
    }
    case "stroke-phases": {
      const r = result as StrokePhasesResult;
      return (
        <Table
          label="Stroke phases"
          head={["", "cruise strokes", "drive peak (m/s²)", "check (m/s²)", "check ÷ drive", "stroke time (s)"]}
          rows={[r.overall, ...r.segments].map((s, i) => [
            i === 0 ? "cruising part" : range(s as StrokePhasesResult["segments"][number]),
            s.strokes,
            n(s.drive_peak_m_s2),
            n(s.check_m_s2),
            n(s.check_to_drive_ratio),
            n(s.stroke_time_s, 3),
          ])}
        />
      );
    }
    case "consistency":
      // Coefficients of variation are statistics: their table sits in the details.
      return null;
    case "start": {
      const r = result as StartResult;
      return (
        <>
          <Table
            label="Start: time to distance"
            head={r.time_to_m.map((m) => `${m.distance_m} m (s)`)}
            rows={[r.time_to_m.map((m) => n(m.time_s))]}
          />
          <Table
            label="First strokes"
            head={["stroke", "time (s)", "rate (spm)", "speed (m/s)", "distance per stroke (m)"]}
            rows={r.first_strokes.map((s) => [s.stroke_index + 1, n(s.time_s), n(s.rate_spm, 1), n(s.speed_m_s), n(s.stroke_distance_m)])}
          />
        </>
      );
    }
    case "finish": {
      const r = result as FinishResult;
      const row = (label: string, w: FinishResult["body"]) => [label, range(w), n(w.speed_m_s), n(w.rate_spm, 1), n(w.stroke_distance_m)];
      return (
        <Table
          label="Finish against the body"
          head={["", "from–to", "speed (m/s)", "rate (spm)", "distance per stroke (m)"]}
          rows={[row("body", r.body), row("finish", r.finish)]}
        />
      );
    }
    case "split-motion": {
      const r = result as SplitMotionResult;
      return (
        <Table
          label="Boat motion per segment"
          head={["segment", "pitch (°)", "roll (°)"]}
          rows={r.segments.map((s) => [
            range(s) + (s.index === r.steadiest_segment ? " · steadiest" : s.index === r.roughest_segment ? " · roughest" : ""),
            n(s.pitch_deg),
            n(s.roll_deg),
          ])}
        />
      );
    }
  }
}

/** Tables of statistics, shown inside the details disclosure. */
export function TechnicalTables({ name, result }: { name: AnalysisName; result: unknown }) {
  switch (name) {
    case "metric-relationships": {
      const r = result as MetricRelationshipsResult;
      return (
        <Table
          label="Metric relationships"
          head={["x", "y", "r", "strength", "slope (y per x)", "strokes"]}
          rows={r.pairs.map((p) => [p.x.replace("_", " "), p.y.replace("_", " "), n(p.pearson_r, 2), p.strength, n(p.slope, 4), p.n])}
        />
      );
    }
    case "consistency": {
      const r = result as ConsistencyResult;
      return (
        <Table
          label="Consistency (coefficient of variation)"
          head={["metric", "whole effort", ...(r.cv_pct[0]?.by_segment.map((_, i) => `segment ${i + 1}`) ?? [])]}
          rows={r.cv_pct.map((m) => [m.metric.replace("_", " "), `${n(m.overall, 1)} %`, ...m.by_segment.map((v) => `${n(v, 1)} %`)])}
        />
      );
    }
    case "anomalies": {
      const r = result as AnomaliesResult;
      return r.anomalies.length > 0 ? (
        <Table
          label="Anomalies: robust z-scores"
          head={["stroke", "metric", "z"]}
          rows={r.anomalies.slice(0, 20).map((a) => [a.stroke_index + 1, a.metric.replace("_", " "), n(a.z, 1)])}
        />
      ) : null;
    }
    default:
      return null;
  }
}
