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

/** One table per analysis (docs/analytics.md): headers carry the units, cells plain numbers. */
const n = (value: number | null | undefined, digits = 2) => (value === null || value === undefined ? "–" : value.toFixed(digits));
const pct = (value: number | null | undefined) => (value === null || value === undefined ? "–" : `${value > 0 ? "+" : ""}${value.toFixed(1)} %`);
const pace = (seconds: number | null) => (seconds === null ? "–" : `${Math.floor(seconds / 60)}:${(seconds % 60).toFixed(1).padStart(4, "0")}`);
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

const Verdict = ({ children }: { children: ReactNode }) => <p className="analysis-verdict">{children}</p>;

export function AnalysisView({ name, result }: { name: AnalysisName; result: unknown }) {
  switch (name) {
    case "data-quality": {
      const r = result as DataQualityResult;
      return (
        <>
          <Verdict>
            Data quality: <strong>{r.grade}</strong>
            {r.reasons.length ? ` (${r.reasons.join("; ")})` : ""}
          </Verdict>
          <Table
            label="Data quality"
            head={["motion samples", "lost", "GNSS fixes", "missing", "GNSS lost in effort", "satellites", "HDOP", "heart-rate coverage"]}
            rows={[[r.imu_samples, pct(r.imu_lost_pct), r.gnss_fixes, pct(r.gnss_missing_pct), `${n(r.effort_fix_gap_s, 1)} s`, n(r.satellites_mean, 1), n(r.hdop_mean, 2), r.heart_rate_coverage === null ? "–" : `${Math.round(r.heart_rate_coverage * 100)} %`]]}
          />
        </>
      );
    }
    case "anomalies": {
      const r = result as AnomaliesResult;
      return (
        <>
          <Verdict>
            {r.anomalies.length} flagged values in {r.strokes_examined} strokes at cruising speed ({n(r.per_100_strokes, 1)} per 100), threshold |z| &gt; {n(r.threshold_z, 1)}.
          </Verdict>
          {r.anomalies.length > 0 && (
            <Table
              label="Anomalies"
              head={["stroke", "time (s)", "distance (m)", "metric", "value", "expected", "z"]}
              rows={r.anomalies.slice(0, 20).map((a) => [a.stroke_index + 1, n(a.time_s, 1), n(a.distance_m, 0), a.metric.replace("_", " "), n(a.value), n(a.expected), n(a.z, 1)])}
            />
          )}
        </>
      );
    }
    case "side-balance": {
      const r = result as SideBalanceResult;
      const side = (s: typeof r.left) => [s.strokes, n(s.stroke_distance), n(s.stroke_time, 3), n(s.peak_accel)];
      return (
        <>
          <Verdict>
            Stronger drive: <strong>{r.stronger_side ?? "balanced"}</strong> · longer stroke: <strong>{r.longer_side ?? "balanced"}</strong> (tolerance {n(r.tolerance_pct, 1)} %)
          </Verdict>
          <Table
            label="Side balance"
            head={["blade", "cruise strokes", "distance per stroke (m)", "stroke time (s)", "drive peak (m/s²)"]}
            rows={[["left", ...side(r.left)], ["right", ...side(r.right)], ["left − right", "", pct(r.asymmetry_pct.stroke_distance), pct(r.asymmetry_pct.stroke_time), pct(r.asymmetry_pct.peak_accel)]]}
          />
        </>
      );
    }
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
    case "pacing": {
      const r = result as PacingResult;
      const fastest = Math.max(...r.segments.map((s) => s.speed_m_s ?? 0));
      return (
        <>
          <Verdict>
            Profile: <strong>{r.profile}</strong> (second half {pct(r.second_half_change_pct)}), fade from the fastest segment {n(r.fade_pct, 1)} %.
          </Verdict>
          <Table
            label="Pacing"
            head={["segment", "time (s)", "pace (/500 m)", "speed (m/s)", "vs mean", "rate (spm)", ""]}
            rows={r.segments.map((s) => [
              range(s),
              n(s.time_s),
              pace(s.pace_500m_s),
              n(s.speed_m_s),
              pct(s.relative_speed_pct),
              n(s.rate_spm, 1),
              <span key="bar" className="analysis-bar" style={{ width: `${Math.round((100 * (s.speed_m_s ?? 0)) / fastest)}%` }} aria-hidden />,
            ])}
          />
        </>
      );
    }
    case "progression": {
      const r = result as ProgressionResult;
      const segments = r.metrics[0]?.by_segment.length ?? 0;
      return (
        <Table
          label="Progression through the effort"
          head={["metric", ...Array.from({ length: segments }, (_, i) => `segment ${i + 1}`), "trend per 100 m", "change"]}
          rows={r.metrics.map((m) => [m.metric.replace("_", " "), ...m.by_segment.map((v) => n(v)), n(m.trend_per_100m, 3), pct(m.change_pct)])}
        />
      );
    }
    case "stroke-phases": {
      const r = result as StrokePhasesResult;
      return (
        <Table
          label="Stroke phases"
          head={["", "cruise strokes", "drive peak (m/s²)", "check (m/s²)", "check ÷ drive", "stroke time (s)"]}
          rows={[r.overall, ...r.segments].map((s, i) => [i === 0 ? "cruising part" : range(s as StrokePhasesResult["segments"][number]), s.strokes, n(s.drive_peak_m_s2), n(s.check_m_s2), n(s.check_to_drive_ratio), n(s.stroke_time_s, 3)])}
        />
      );
    }
    case "consistency": {
      const r = result as ConsistencyResult;
      return (
        <>
          <Verdict>
            Consistency score <strong>{n(r.score, 0)}</strong> / 100 · rhythm RMSSD {n(r.rhythm_rmssd_ms, 0)} ms
          </Verdict>
          <Table
            label="Consistency (coefficient of variation)"
            head={["metric", "whole effort", ...(r.cv_pct[0]?.by_segment.map((_, i) => `segment ${i + 1}`) ?? [])]}
            rows={r.cv_pct.map((m) => [m.metric.replace("_", " "), `${n(m.overall, 1)} %`, ...m.by_segment.map((v) => `${n(v, 1)} %`)])}
          />
        </>
      );
    }
    case "start": {
      const r = result as StartResult;
      return (
        <>
          <Verdict>
            90 % of cruise speed ({n(r.cruise_speed_m_s)} m/s) after {n(r.time_to_90pct_cruise_s, 1)} s and {r.strokes_to_90pct_cruise ?? "–"} strokes; peak {n(r.peak_speed_m_s)} m/s at {n(r.time_to_peak_speed_s, 1)} s.
          </Verdict>
          <Table label="Start: time to distance" head={r.time_to_m.map((m) => `${m.distance_m} m (s)`)} rows={[r.time_to_m.map((m) => n(m.time_s))]} />
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
        <>
          <Verdict>
            Finish: <strong>{r.verdict}</strong> (speed {pct(r.speed_change_pct)}, rate {pct(r.rate_change_pct)}, distance per stroke {pct(r.stroke_distance_change_pct)})
          </Verdict>
          <Table label="Finish against the body" head={["", "from–to", "speed (m/s)", "rate (spm)", "distance per stroke (m)"]} rows={[row("body", r.body), row("finish", r.finish)]} />
        </>
      );
    }
    case "split-motion": {
      const r = result as SplitMotionResult;
      return (
        <Table
          label="Boat motion per segment"
          head={["segment", "pitch (°)", "roll (°)", "surge swing (m/s²)", "speed fluctuation"]}
          rows={r.segments.map((s) => [range(s) + (s.index === r.steadiest_segment ? " · steadiest" : s.index === r.roughest_segment ? " · roughest" : ""), n(s.pitch_deg), n(s.roll_deg), n(s.surge_range_m_s2), `${n(s.speed_fluctuation_pct, 1)} %`])}
        />
      );
    }
  }
}
