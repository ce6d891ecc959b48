import type { DecodedSvc } from "../types";
import type { Kinematics } from "./speed";
import type { Signals } from "./signals";
import type { DetectedStroke } from "./strokes";
import { round } from "./track";
import type { DataQuality, ProcessedStroke, SessionSummary } from "./types";
import { sampleDistance } from "./effort";

/** Per-stroke metrics (docs/processing.md "Stroke metrics"), from each catch to the next. */
export function strokeMetrics(
  effortStrokes: DetectedStroke[],
  nextCatchIndex: (k: number) => number | null,
  sides: ("left" | "right" | null)[],
  kinematics: Kinematics,
  signals: Signals,
  filtered: Float64Array,
  startIndex: number,
  kayak: boolean,
): ProcessedStroke[] {
  const hz = signals.hz;
  const startDistance = sampleDistance(kinematics.distance, startIndex);
  let previousInterval = kayak ? 0.5 * hz : hz;
  return effortStrokes.map((stroke, k) => {
    const next = nextCatchIndex(k);
    const interval = next !== null && next - stroke.catchIndex < 2.5 * previousInterval ? next - stroke.catchIndex : previousInterval;
    previousInterval = interval;
    const end = stroke.catchIndex + interval;
    const from = Math.ceil(stroke.catchIndex);
    const to = Math.min(signals.n - 1, Math.floor(end));
    let maxAccel = -Infinity;
    let minAccel = Infinity;
    let maxPitch = 0;
    let maxRoll = 0;
    for (let i = from; i <= to; i++) {
      maxAccel = Math.max(maxAccel, filtered[i]);
      minAccel = Math.min(minAccel, filtered[i]);
      maxPitch = Math.max(maxPitch, Math.abs(signals.pitchDeg[i]));
      maxRoll = Math.max(maxRoll, Math.abs(signals.rollDeg[i]));
    }
    const d0 = sampleDistance(kinematics.distance, stroke.catchIndex);
    const d1 = sampleDistance(kinematics.distance, end);
    const strokeDistance = round(d1 - d0, 3);
    const side = sides[k];
    const metrics: ProcessedStroke = {
      catch_s: round(stroke.catchIndex / hz, 4),
      side,
      distance: round(d0 - startDistance, 2),
      filtered_speed: round(((d1 - d0) * hz) / interval, 3),
      rate: round((60 * hz) / interval, 2),
      max_accel_x: round(maxAccel, 2),
      min_accel_x: round(minAccel, 2),
      max_pitch: round(maxPitch, 2),
      max_roll: round(maxRoll, 2),
    };
    if (kayak) {
      metrics.left_stroke_distance = side === "left" ? strokeDistance : null;
      metrics.right_stroke_distance = side === "right" ? strokeDistance : null;
    } else {
      metrics.stroke_distance = strokeDistance;
    }
    return metrics;
  });
}

export function summarize(
  strokes: ProcessedStroke[],
  distanceM: number,
  durationMs: number,
  trackSpeed: number[],
  heartRates: number[],
  kayak: boolean,
): SessionSummary {
  const mean = (values: number[]) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : null);
  const side = (name: "left" | "right") => {
    const own = strokes.filter((s) => s.side === name);
    const distances = own.map((s) => (name === "left" ? s.left_stroke_distance : s.right_stroke_distance) ?? 0);
    return { strokes: own.length, avg_stroke_distance: own.length ? round(mean(distances)!, 3) : null };
  };
  const avgRate = mean(strokes.map((s) => s.rate));
  return {
    distance_m: distanceM,
    duration_ms: durationMs,
    avg_speed: round(distanceM / (durationMs / 1000), 3),
    max_speed: round(largest(trackSpeed, 0), 3),
    stroke_count: strokes.length,
    avg_rate: avgRate === null ? null : round(avgRate, 1),
    max_rate: strokes.length ? round(largest(strokes.map((s) => s.rate)), 1) : null,
    avg_stroke_distance: strokes.length ? round(distanceM / strokes.length, 3) : null,
    left: kayak ? side("left") : null,
    right: kayak ? side("right") : null,
    avg_heart_rate: heartRates.length ? Math.round(mean(heartRates)!) : null,
    max_heart_rate: heartRates.length ? largest(heartRates) : null,
  };
}

/**
 * `Math.max(from, ...values)` without spreading: an argument list that long overflows the stack
 * (a track of more than about 13,000 s at 10 Hz did), and the spread copies the array first.
 */
function largest(values: number[], from = Number.NEGATIVE_INFINITY): number {
  let max = from;
  for (const value of values) max = Math.max(max, value);
  return max;
}

export function dataQuality(
  decoded: DecodedSvc,
  kinematics: Kinematics,
  startS: number,
  endS: number,
  startDistance: number,
  distance: Float64Array,
  hz: number,
): DataQuality {
  const { imu, gnss, hrBpm, header } = decoded;
  let gaps = 0;
  let longest = 0;
  let run = 0;
  for (let i = 0; i < imu.total; i++) {
    if (imu.present[i]) {
      if (run) gaps++;
      longest = Math.max(longest, run);
      run = 0;
    } else run++;
  }
  if (run) gaps++;
  longest = Math.max(longest, run);
  let fixes = 0;
  let satMin = Infinity;
  let satSum = 0;
  let hdopSum = 0;
  let hdopMax = 0;
  for (let j = 0; j < gnss.total; j++) {
    if (!gnss.fix[j]) continue;
    fixes++;
    satMin = Math.min(satMin, gnss.satellites[j]);
    satSum += gnss.satellites[j];
    hdopSum += gnss.hdopC[j] / 100;
    hdopMax = Math.max(hdopMax, gnss.hdopC[j] / 100);
  }
  const effortGaps = kinematics.fixGaps.filter((g) => g.endS > startS && g.startS < endS);
  const warnings = effortGaps.map((g) => {
    const at = sampleDistance(distance, Math.max(startS, g.startS) * hz) - startDistance;
    return `GNSS lost for ${(g.endS - g.startS).toFixed(1)} s at ${Math.max(0, Math.round(at))} m; speed bridged with the IMU`;
  });
  if (longest / header.imuHz > 0.5) warnings.push(`IMU lost ${(longest / header.imuHz).toFixed(2)} s of samples in one gap`);
  const readings = hrBpm.reduce((count, bpm) => count + (bpm > 0 ? 1 : 0), 0);
  return {
    imu_samples: imu.total,
    imu_lost_samples: decoded.imuLostSamples,
    imu_gaps: gaps,
    longest_imu_gap_ms: Math.round((longest * 1000) / header.imuHz),
    gnss_fixes: fixes,
    gnss_missing_fixes: gnss.total - fixes,
    effort_fix_gaps: effortGaps.length,
    effort_fix_gap_s: round(
      effortGaps.reduce((sum, g) => sum + Math.min(endS, g.endS) - Math.max(startS, g.startS), 0),
      2,
    ),
    satellites_min: fixes ? satMin : null,
    satellites_mean: fixes ? round(satSum / fixes, 1) : null,
    hdop_mean: fixes ? round(hdopSum / fixes, 2) : null,
    hdop_max: fixes ? round(hdopMax, 2) : null,
    heart_rate_coverage: hrBpm.length ? round(readings / hrBpm.length, 3) : 0,
    warnings,
  };
}
