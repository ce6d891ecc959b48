import type { AnalysisName } from ".";
import { formatPace500 } from "../results/figure-format";
import type { AnomaliesResult } from "./anomalies";
import type { ConsistencyResult } from "./consistency";
import type { DataQualityResult } from "./data-quality";
import type { FinishResult } from "./finish";
import type { MetricRelationshipsResult } from "./metric-relationships";
import type { PacingResult } from "./pacing";
import type { ProgressionResult } from "./progression";
import type { SideBalanceResult } from "./side-balance";
import type { SplitMotionResult } from "./split-motion";
import type { StartResult } from "./start";
import type { StrokePhasesResult } from "./stroke-phases";

/**
 * What an analysis found, in a coach's words (docs/web-app.md "Analysis"): a
 * lead sentence, the numbers for one small bar chart that shows it, and the
 * statistics behind it (z-scores, RMSSD, HDOP …) each with a plain
 * explanation, for the "details" disclosure. Pure: the web page renders it.
 */
export interface Finding {
  sentence: string;
  chart: FindingChart | null;
  details: { term: string; value: string; explanation: string }[];
}

export interface FindingChart {
  caption: string;
  unit: string;
  /** Whole-number axis bounds; null: fit the data (app/_lib/chart-axes.ts). */
  domain: [number, number] | null;
  bars: { label: string; value: number; text: string; highlight?: boolean }[];
}

export interface FindingContext {
  /** Seats in the boat: "the paddler" for one, "the crew" for more. */
  seats: number;
}

const METRIC_WORDS: Record<string, string> = {
  speed: "speed",
  rate: "stroke rate",
  stroke_distance: "distance per stroke",
  stroke_time: "stroke time",
  peak_accel: "drive peak",
  check_accel: "check",
  pitch: "pitch",
  roll: "roll",
};
const METRIC_UNITS: Record<string, string> = {
  speed: "m/s",
  rate: "spm",
  stroke_distance: "m",
  stroke_time: "s",
  peak_accel: "m/s²",
  check_accel: "m/s²",
  pitch: "°",
  roll: "°",
};
const METRIC_DIGITS: Record<string, number> = {
  speed: 2,
  rate: 0,
  stroke_distance: 2,
  stroke_time: 2,
  peak_accel: 1,
  check_accel: 1,
  pitch: 1,
  roll: 1,
};

const fixed = (v: number | null | undefined, digits: number) =>
  v === null || v === undefined || !Number.isFinite(v) ? "–" : v.toFixed(digits);
const wholePct = (v: number) => `${Math.abs(Math.round(v))} %`;
const metres = (v: number | null | undefined) => `${Math.round(v ?? 0)} m`;
const span = (s: { from_m: number | null; to_m: number | null }) => `${metres(s.from_m).replace(" m", "")}–${metres(s.to_m)}`;
const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
/** The one pace figure (server/results/figure-format.ts): a segment's pace reads the same in the sentence, the bar and the table. */
const pace500 = (speed: number | null) => formatPace500(speed);
const mean = (values: number[]) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : NaN);

export function findingOf(name: AnalysisName, result: unknown, context: FindingContext): Finding {
  const who = context.seats > 1 ? "the crew" : "the paddler";
  switch (name) {
    case "data-quality":
      return dataQualityFinding(result as DataQualityResult);
    case "anomalies":
      return anomaliesFinding(result as AnomaliesResult);
    case "side-balance":
      return sideBalanceFinding(result as SideBalanceResult);
    case "metric-relationships":
      return relationshipsFinding(result as MetricRelationshipsResult);
    case "pacing":
      return pacingFinding(result as PacingResult, who);
    case "progression":
      return progressionFinding(result as ProgressionResult);
    case "stroke-phases":
      return strokePhasesFinding(result as StrokePhasesResult);
    case "consistency":
      return consistencyFinding(result as ConsistencyResult);
    case "start":
      return startFinding(result as StartResult);
    case "finish":
      return finishFinding(result as FinishResult, who);
    case "split-motion":
      return splitMotionFinding(result as SplitMotionResult);
  }
}

export function pacingFinding(r: PacingResult, who = "the paddler"): Finding {
  const speeds = r.segments.map((s) => s.speed_m_s);
  const sentence = paceSentence(r.segments, who);
  return {
    sentence,
    chart: {
      caption: "Speed per segment",
      unit: "m/s",
      domain: null,
      bars: r.segments.flatMap((s, i) =>
        speeds[i] === null
          ? []
          : [
              {
                label: span(s),
                value: speeds[i]!,
                text: `${pace500(speeds[i])} /500 m (${fixed(speeds[i], 2)} m/s)`,
                highlight: s.index === r.fastest_segment,
              },
            ],
      ),
    },
    details: [
      {
        term: "Profile",
        value: `${r.profile} (second half ${fixed(r.second_half_change_pct, 1)} %)`,
        explanation:
          "Positive: the second half was slower than the first (a fade); negative: faster; even: within the tolerance. The first segment, the start, is left out.",
      },
      {
        term: "Fade from the fastest segment",
        value: `${fixed(r.fade_pct, 1)} %`,
        explanation: "How much slower the last segment was than the fastest one.",
      },
    ],
  };
}

/**
 * The pacing sentence from equal-distance segments (the analysis' segments or
 * the session page's splits): the last segment against the body of the race
 * (the first, the standing start, left out with 3 or more), then the fastest.
 */
export function paceSentence(
  segments: { from_m: number | null; to_m: number | null; speed_m_s: number | null }[],
  who = "the paddler",
): string {
  if (segments.length < 2) return `${capital(who)}'s pace could not be compared across the effort.`;
  const last = segments[segments.length - 1];
  const body = segments.length >= 3 ? segments.slice(1, -1) : segments.slice(0, -1);
  const bodySpeed = mean(body.flatMap((s) => (s.speed_m_s === null ? [] : [s.speed_m_s])));
  const change = last.speed_m_s !== null && bodySpeed > 0 ? (100 * (last.speed_m_s - bodySpeed)) / bodySpeed : null;
  const lastSpan = `the last ${Math.round((last.to_m ?? 0) - (last.from_m ?? 0))} m`;
  let sentence: string;
  if (change === null) sentence = `${capital(who)}'s pace could not be compared across the effort.`;
  else if (Math.round(change) <= -1) sentence = `${capital(who)} faded ${wholePct(change)} over ${lastSpan}.`;
  else if (Math.round(change) >= 1)
    sentence = `${capital(who)} finished ${wholePct(change)} faster over ${lastSpan} than in the body of the race.`;
  else sentence = `${capital(who)} held the pace: ${lastSpan} were within 1 % of the body of the race.`;
  const fastest = segments.reduce<(typeof segments)[number] | null>(
    (best, s) => (s.speed_m_s !== null && (best === null || s.speed_m_s > (best.speed_m_s ?? 0)) ? s : best),
    null,
  );
  if (fastest && fastest.speed_m_s !== null) sentence += ` Fastest: ${span(fastest)} at ${pace500(fastest.speed_m_s)} /500 m.`;
  return sentence;
}

export function anomaliesFinding(r: AnomaliesResult): Finding {
  const flagged = new Map<number, AnomaliesResult["anomalies"][number]>();
  for (const a of r.anomalies) if (!flagged.has(a.stroke_index)) flagged.set(a.stroke_index, a);
  const top = r.anomalies[0];
  const sentence = !top
    ? `No stroke broke from the rhythm of the strokes around it (${r.strokes_examined} strokes at cruising speed).`
    : `${flagged.size === 1 ? "One stroke" : `${flagged.size} strokes`} broke from the rhythm of the strokes around ${flagged.size === 1 ? "it" : "them"}; the clearest at ${metres(top.distance_m)} (stroke ${top.stroke_index + 1}): ${METRIC_WORDS[top.metric]} ${fixed(top.value, METRIC_DIGITS[top.metric])} ${METRIC_UNITS[top.metric]} where ${fixed(top.expected, METRIC_DIGITS[top.metric])} was expected.`;
  // Strokes flagged per quarter of the examined distance: where the breaks came.
  const distances = r.anomalies.map((a) => a.distance_m ?? 0);
  const end = Math.max(...distances, 1);
  const quarters = [0, 1, 2, 3].map((q) => ({ from: (end * q) / 4, to: (end * (q + 1)) / 4 }));
  return {
    sentence,
    chart: top
      ? {
          caption: "Strokes that broke the rhythm, by distance",
          unit: "strokes",
          domain: [0, Math.max(1, ...quarters.map((q) => countIn([...flagged.values()], q.from, q.to, q === quarters[3])))],
          bars: quarters.map((q, i) => {
            const count = countIn([...flagged.values()], q.from, q.to, i === 3);
            return { label: `${Math.round(q.from)}–${Math.round(q.to)} m`, value: count, text: `${count}` };
          }),
        }
      : null,
    details: [
      {
        term: "Threshold |z|",
        value: fixed(r.threshold_z, 1),
        explanation:
          "A stroke is flagged when it sits this many “usual scatters” away from the median of the 9 strokes around it (a robust z-score). A higher sensitivity lowers the bar.",
      },
      {
        term: "Flagged per 100 strokes",
        value: fixed(r.per_100_strokes, 1),
        explanation: "A missed catch or a crab shows here; a handful per 100 is the usual noise of a recording.",
      },
    ],
  };
}
function countIn(list: { distance_m: number | null }[], from: number, to: number, last: boolean) {
  return list.filter((a) => (a.distance_m ?? 0) >= from && ((a.distance_m ?? 0) < to || (last && (a.distance_m ?? 0) <= to))).length;
}

export function sideBalanceFinding(r: SideBalanceResult): Finding {
  const drive = r.asymmetry_pct.peak_accel;
  const reach = r.asymmetry_pct.stroke_distance;
  const parts: string[] = [];
  if (r.stronger_side && drive !== null) parts.push(`the ${r.stronger_side} blade drives ${wholePct(drive)} harder`);
  if (r.longer_side && reach !== null) parts.push(`the ${r.longer_side} stroke carries the boat ${wholePct(reach)} further`);
  const sentence = parts.length
    ? `${capital(parts.join(" and "))}.`
    : `Both blades pull evenly: left and right differ by less than ${fixed(r.tolerance_pct, 0)} %.`;
  return {
    sentence,
    chart: {
      caption: "Distance per stroke, left and right blade",
      unit: "m",
      domain: null,
      bars: (["left", "right"] as const).flatMap((side) =>
        r[side].stroke_distance === null
          ? []
          : [
              {
                label: side,
                value: r[side].stroke_distance!,
                text: `${fixed(r[side].stroke_distance, 2)} m`,
                highlight: r.longer_side === side,
              },
            ],
      ),
    },
    details: [
      {
        term: "Drive peak, left − right",
        value: `${fixed(drive, 1)} %`,
        explanation: "Difference of the peak acceleration of each blade's drive, against their mean: how much harder one side pushes.",
      },
      { term: "Tolerance", value: `${fixed(r.tolerance_pct, 1)} %`, explanation: "Differences smaller than this count as balanced." },
    ],
  };
}

export function relationshipsFinding(r: MetricRelationshipsResult): Finding {
  const ranked = r.pairs.filter((p) => p.pearson_r !== null).sort((a, b) => Math.abs(b.pearson_r!) - Math.abs(a.pearson_r!));
  const best = ranked[0];
  const sentence =
    !best || best.strength === "none" || best.strength === "weak"
      ? "No strong link between the stroke measures: they moved independently of each other."
      : `${capital(METRIC_WORDS[best.y])} ${best.pearson_r! > 0 ? "rises" : "falls"} as ${METRIC_WORDS[best.x]} rises (a ${best.strength} link over ${best.n} strokes).`;
  return {
    sentence,
    chart: ranked.length
      ? {
          caption: "How closely each pair moves together (0 none, 1 in lockstep)",
          unit: "",
          domain: [0, 1],
          bars: ranked.map((p) => ({
            label: `${METRIC_WORDS[p.x]} · ${METRIC_WORDS[p.y]}`,
            // "none" (|r| < 0.2) is drawn as no bar: a visible bar would say there is a link.
            value: p.strength === "none" ? 0 : Math.abs(p.pearson_r!),
            text: `${p.strength}`,
            highlight: p === best,
          })),
        }
      : null,
    details: ranked.map((p) => ({
      term: `r (${METRIC_WORDS[p.x]}, ${METRIC_WORDS[p.y]})`,
      value: `${fixed(p.pearson_r, 2)}, slope ${fixed(p.slope, 4)}`,
      explanation:
        "Pearson's correlation: +1 both rise together, −1 one falls as the other rises, 0 no straight-line link. The slope is the change of the second per unit of the first.",
    })),
  };
}

export function progressionFinding(r: ProgressionResult): Finding {
  const moved = r.metrics.filter((m) => m.change_pct !== null && Math.abs(m.change_pct) >= 1);
  const sentence = moved.length
    ? `From the first segment to the last, ${moved.map((m) => `${METRIC_WORDS[m.metric]} ${m.change_pct! > 0 ? "rose" : "fell"} ${wholePct(m.change_pct!)}`).join(", ")}.`
    : "Speed, rate and distance per stroke stayed within 1 % from the first segment to the last.";
  const reach = r.metrics.find((m) => m.metric === "stroke_distance") ?? r.metrics[0];
  return {
    sentence,
    chart: reach
      ? {
          caption: `${capital(METRIC_WORDS[reach.metric])} per segment`,
          unit: METRIC_UNITS[reach.metric],
          domain: null,
          bars: reach.by_segment.flatMap((v, i) =>
            v === null ? [] : [{ label: `segment ${i + 1}`, value: v, text: `${fixed(v, 2)} ${METRIC_UNITS[reach.metric]}` }],
          ),
        }
      : null,
    details: r.metrics.map((m) => ({
      term: `Trend of ${METRIC_WORDS[m.metric]}`,
      value: `${fixed(m.trend_per_100m, 3)} ${METRIC_UNITS[m.metric]} per 100 m`,
      explanation: "The straight line through every cruise stroke against distance: its change per 100 m.",
    })),
  };
}

export function strokePhasesFinding(r: StrokePhasesResult): Finding {
  const ratio = r.overall.check_to_drive_ratio;
  const segs = r.segments.filter((s) => s.check_to_drive_ratio !== null);
  const first = segs[0]?.check_to_drive_ratio;
  const last = segs[segs.length - 1]?.check_to_drive_ratio;
  let sentence =
    ratio === null
      ? "The drive and the catch could not be measured."
      : ratio < 1
        ? `Each catch gives back ${Math.round(ratio * 100)} % of the drive's push (the check).`
        : `Each catch brakes the boat harder than the drive pushes it: the check is ${ratio.toFixed(1)} × the drive's peak.`;
  if (first != null && last != null && Math.abs(last - first) >= 0.02)
    sentence += ` It ${last > first ? "grew" : "shrank"} from ${Math.round(first * 100)} % to ${Math.round(last * 100)} % by the finish.`;
  return {
    sentence,
    chart: segs.length
      ? {
          caption: "Check as a share of the drive, per segment",
          unit: "%",
          domain: null,
          bars: segs.map((s) => ({
            label: span(s),
            value: s.check_to_drive_ratio! * 100,
            text: `${Math.round(s.check_to_drive_ratio! * 100)} %`,
          })),
        }
      : null,
    details: [
      {
        term: "Drive peak",
        value: `${fixed(r.overall.drive_peak_m_s2, 2)} m/s²`,
        explanation: "The boat's strongest forward acceleration during the pull.",
      },
      {
        term: "Check",
        value: `${fixed(r.overall.check_m_s2, 2)} m/s²`,
        explanation: "The boat's deepest deceleration around the catch: the recovery and the blade's entry braking the boat.",
      },
    ],
  };
}

export function consistencyFinding(r: ConsistencyResult): Finding {
  const cv = (metric: string) => r.cv_pct.find((m) => m.metric === metric)?.overall ?? null;
  const speed = cv("speed");
  const rate = cv("rate");
  const word = r.score === null ? "" : r.score >= 80 ? "Steady" : r.score >= 60 ? "Fairly steady" : "Uneven";
  const sentence =
    speed === null && rate === null
      ? "Too few strokes to judge the rhythm."
      : `${word ? `${word}: ` : ""}from stroke to stroke, speed varied by ${fixed(speed, 1)} % and rate by ${fixed(rate, 1)} % (score ${fixed(r.score, 0)} / 100).`;
  const speedBySegment = r.cv_pct.find((m) => m.metric === "speed")?.by_segment ?? [];
  return {
    sentence,
    chart: speedBySegment.some((v) => v !== null)
      ? {
          caption: "Stroke-to-stroke variation of speed, per segment",
          unit: "%",
          domain: null,
          bars: speedBySegment.flatMap((v, i) => (v === null ? [] : [{ label: `segment ${i + 1}`, value: v, text: `${fixed(v, 1)} %` }])),
        }
      : null,
    details: [
      {
        term: "Rhythm RMSSD",
        value: `${fixed(r.rhythm_rmssd_ms, 0)} ms`,
        explanation:
          "Root mean square of the differences between successive stroke times: how much one stroke's length differs from the next. Lower is a steadier rhythm.",
      },
      ...r.cv_pct.map((m) => ({
        term: `CV of ${METRIC_WORDS[m.metric]}`,
        value: `${fixed(m.overall, 1)} %`,
        explanation: "Coefficient of variation: the standard deviation as a percentage of the mean. Lower is steadier.",
      })),
    ],
  };
}

export function startFinding(r: StartResult): Finding {
  const hundred = r.time_to_m.find((m) => m.distance_m === 100)?.time_s;
  const sentence =
    r.time_to_90pct_cruise_s === null
      ? "The boat never reached 90 % of its cruising speed."
      : `The boat reached cruising speed (90 % of ${fixed(r.cruise_speed_m_s, 2)} m/s) in ${fixed(r.time_to_90pct_cruise_s, 1)} s and ${r.strokes_to_90pct_cruise} strokes${hundred != null ? `; 100 m came at ${fixed(hundred, 1)} s` : ""}.`;
  const marks = r.time_to_m.filter((m) => m.time_s !== null);
  return {
    sentence,
    chart: marks.length
      ? {
          caption: "Time to each mark",
          unit: "s",
          domain: [0, Math.ceil(Math.max(...marks.map((m) => m.time_s!)))],
          bars: marks.map((m) => ({ label: `${m.distance_m} m`, value: m.time_s!, text: `${fixed(m.time_s, 2)} s` })),
        }
      : null,
    details: [
      {
        term: "Peak speed",
        value: `${fixed(r.peak_speed_m_s, 2)} m/s at ${fixed(r.time_to_peak_speed_s, 1)} s`,
        explanation: "The fastest the boat went in the whole effort, and when.",
      },
      {
        term: "Highest rate in the first 10 strokes",
        value: `${fixed(r.peak_rate_first_10_spm, 1)} spm`,
        explanation: "How high the crew took the rate off the line.",
      },
    ],
  };
}

export function finishFinding(r: FinishResult, who = "the paddler"): Finding {
  const finishSpan = `the last ${Math.round((r.finish.to_m ?? 0) - (r.finish.from_m ?? 0))} m`;
  const speed = r.speed_change_pct;
  const rate = r.rate_change_pct === null ? "" : ` (rate ${r.rate_change_pct >= 0 ? "+" : "−"}${fixed(Math.abs(r.rate_change_pct), 0)} %)`;
  const sentence =
    speed === null
      ? "The finish could not be compared with the body of the race."
      : r.verdict === "kick"
        ? `${capital(who)} lifted the speed ${wholePct(speed)} over ${finishSpan}${rate}.`
        : r.verdict === "fade"
          ? `${capital(who)} lost ${wholePct(speed)} of speed over ${finishSpan}${rate}.`
          : `${capital(who)} held the speed over ${finishSpan}, within ${fixed(r.tolerance_pct, 1)} %${rate}.`;
  const bars = (
    [
      ["body", r.body],
      ["finish", r.finish],
    ] as const
  ).flatMap(([label, w]) =>
    w.speed_m_s === null
      ? []
      : [{ label: `${label} ${span(w)}`, value: w.speed_m_s, text: `${pace500(w.speed_m_s)} /500 m (${fixed(w.speed_m_s, 2)} m/s)` }],
  );
  return {
    sentence,
    chart: bars.length ? { caption: "Speed: body of the race and finish", unit: "m/s", domain: null, bars } : null,
    details: [
      { term: "Tolerance", value: `${fixed(r.tolerance_pct, 1)} %`, explanation: "A change of speed smaller than this counts as holding." },
    ],
  };
}

export function splitMotionFinding(r: SplitMotionResult): Finding {
  const steadiest = r.segments.find((s) => s.index === r.steadiest_segment);
  const roughest = r.segments.find((s) => s.index === r.roughest_segment);
  const sentence =
    steadiest && roughest && steadiest !== roughest
      ? `The boat sat steadiest in ${span(steadiest)} and rolled most in ${span(roughest)} (${fixed(roughest.roll_deg, 1)}° against ${fixed(steadiest.roll_deg, 1)}°).`
      : "The boat rolled about as much in every segment.";
  return {
    sentence,
    chart: {
      caption: "Roll per segment",
      unit: "°",
      domain: null,
      bars: r.segments.flatMap((s) =>
        s.roll_deg === null
          ? []
          : [{ label: span(s), value: s.roll_deg, text: `${fixed(s.roll_deg, 1)}°`, highlight: s.index === r.roughest_segment }],
      ),
    },
    details: [
      {
        term: "Surge swing",
        value: r.segments.map((s) => fixed(s.surge_range_m_s2, 1)).join(" · ") + " m/s²",
        explanation: "Per segment, the drive's peak minus the check: how much the boat surges and brakes within each stroke.",
      },
      {
        term: "Speed fluctuation",
        value: r.segments.map((s) => fixed(s.speed_fluctuation_pct, 1)).join(" · ") + " %",
        explanation: "Per segment, the variation of the boat's speed within the strokes (coefficient of variation).",
      },
    ],
  };
}

export function dataQualityFinding(r: DataQualityResult): Finding {
  const sentence =
    r.grade === "good"
      ? "The recording is complete: the figures on this page can be trusted."
      : `The recording is ${r.grade}: ${r.reasons.join("; ")}. Read the figures with care.`;
  const bars = [
    { label: "motion samples", value: r.imu_lost_pct === null ? null : 100 - r.imu_lost_pct },
    { label: "GNSS fixes", value: r.gnss_missing_pct === null ? null : 100 - r.gnss_missing_pct },
    { label: "heart rate", value: r.heart_rate_coverage === null ? null : 100 * r.heart_rate_coverage },
  ].flatMap((b) => (b.value === null ? [] : [{ label: b.label, value: b.value, text: `${fixed(b.value, 1)} %` }]));
  return {
    sentence,
    chart: bars.length ? { caption: "Share of the recording received", unit: "%", domain: [0, 100], bars } : null,
    details: [
      {
        term: "HDOP",
        value: fixed(r.hdop_mean, 2),
        explanation:
          "Horizontal dilution of precision: how well the satellites were spread across the sky. Below 2 the positions are good; above 5 they wander.",
      },
      { term: "Satellites", value: fixed(r.satellites_mean, 1), explanation: "Satellites in view on average; 8 or more is comfortable." },
      {
        term: "GNSS gaps in the effort",
        value: `${r.effort_fix_gaps} (${fixed(r.effort_fix_gap_s, 1)} s)`,
        explanation: "Stretches with no position fix during the effort; distances there are filled in from the motion sensor.",
      },
    ],
  };
}
