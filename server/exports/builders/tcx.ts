import type { ExportModel } from "../export-model";
import { EXPORT_TEXT, lapLabel } from "./export-text";
import type { ExportLang } from "./export-text";

/**
 * The TCX activity (docs/exports.md "TCX"): TrainingCenterDatabase v2,
 * Sport="Other" (TCX knows only Running, Biking and Other), one lap per split,
 * one trackpoint per point of the bounded series (time, position, distance,
 * heart rate when included, cadence = stroke rate) with the speed in Garmin's
 * ActivityExtension v2 (`TPX/Speed`), which TCX readers understand.
 * A training's laps are its sets: each lap's Notes names the set ("Set 2 ·
 * rest"), rests are `Intensity` Resting, and the trigger is Manual (sets
 * are found in the recording; TCX has no trigger for that); the activity's
 * Notes start with "Training" and its title.
 */
const TCX_NS = "http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2";
const AX_NS = "http://www.garmin.com/xmlschemas/ActivityExtension/v2";

export function buildTcxExport(model: ExportModel, lang: ExportLang): Uint8Array {
  const start = model.startUnixMs;
  const time = (seconds: number) => new Date(start + Math.round(seconds * 1000)).toISOString();
  const { series } = model;
  const lines: string[] = [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<TrainingCenterDatabase xmlns="${TCX_NS}" xmlns:ax="${AX_NS}">`,
    `  <Activities>`,
    `    <Activity Sport="Other">`,
    `      <Id>${time(0)}</Id>`,
  ];
  let point = 0;
  let previous = { elapsedS: 0, distanceM: 0 };
  const splits = model.splits;
  const training = model.facts.kind === "training";
  splits.forEach((split, i) => {
    const last = i === splits.length - 1;
    const points: number[] = [];
    // Points up to and including the split's end belong to it; the last lap takes the rest.
    while (point < series.t_s.length && (last || series.t_s[point] <= split.elapsed_s)) points.push(point++);
    const speeds = points.map((p) => series.speed_m_s?.[p]).filter((v): v is number => typeof v === "number");
    lines.push(`      <Lap StartTime="${time(previous.elapsedS)}">`);
    // A session's laps are differences of the elapsed times, so a reader's sum of them is the session's time to the hundredth,
    // not the sum of separately rounded split times (which drifted by 0.01 s).
    lines.push(`        <TotalTimeSeconds>${training ? split.split_s : round(split.elapsed_s - previous.elapsedS, 3)}</TotalTimeSeconds>`);
    lines.push(`        <DistanceMeters>${round(split.distance_m - previous.distanceM, 2)}</DistanceMeters>`);
    if (speeds.length) lines.push(`        <MaximumSpeed>${Math.max(...speeds)}</MaximumSpeed>`);
    lines.push(`        <Calories>0</Calories>`);
    lines.push(`        <Intensity>${split.set?.kind === "rest" ? "Resting" : "Active"}</Intensity>`);
    if (split.rate_spm !== null) lines.push(`        <Cadence>${cadence(split.rate_spm)}</Cadence>`);
    lines.push(`        <TriggerMethod>${training ? "Manual" : "Distance"}</TriggerMethod>`);
    if (points.length) {
      lines.push(`        <Track>`);
      for (const p of points) lines.push(trackpoint(model, p, time(series.t_s[p])));
      lines.push(`        </Track>`);
    }
    if (split.set) lines.push(`        <Notes>${escapeXml(lapLabel(split, lang))}</Notes>`);
    lines.push(`      </Lap>`);
    previous = { elapsedS: split.elapsed_s, distanceM: split.distance_m };
  });
  const source = training ? [`${EXPORT_TEXT[lang].source.training}: ${model.facts.title || `#${model.facts.id}`}`] : [];
  const notes = [...source, ...model.facts.notes].join(" · ");
  if (notes) lines.push(`      <Notes>${escapeXml(notes)}</Notes>`);
  lines.push(`    </Activity>`, `  </Activities>`, `</TrainingCenterDatabase>`, ``);
  return new TextEncoder().encode(lines.join("\n"));
}

function trackpoint(model: ExportModel, p: number, time: string): string {
  const { series } = model;
  const position = model.positions[p];
  const distance = series.distance_m?.[p];
  const bpm = model.heartRateIncluded ? series.heart_rate_bpm?.[p] : null;
  const rate = series.rate_spm?.[p];
  const speed = series.speed_m_s?.[p];
  const parts = [`<Time>${time}</Time>`];
  if (position)
    parts.push(`<Position><LatitudeDegrees>${position[0]}</LatitudeDegrees><LongitudeDegrees>${position[1]}</LongitudeDegrees></Position>`);
  if (typeof distance === "number") parts.push(`<DistanceMeters>${distance}</DistanceMeters>`);
  if (typeof bpm === "number" && bpm >= 1) parts.push(`<HeartRateBpm><Value>${Math.round(bpm)}</Value></HeartRateBpm>`);
  if (typeof rate === "number") parts.push(`<Cadence>${cadence(rate)}</Cadence>`);
  if (typeof speed === "number") parts.push(`<Extensions><ax:TPX><ax:Speed>${speed}</ax:Speed></ax:TPX></Extensions>`);
  return `          <Trackpoint>${parts.join("")}</Trackpoint>`;
}

const cadence = (rate: number) => Math.min(254, Math.max(0, Math.round(rate)));
const round = (v: number, digits: number) => Math.round(v * 10 ** digits) / 10 ** digits;
// Control characters are not allowed in XML 1.0 at all; the markup characters become entities.
const escapeXml = (text: string) =>
  text
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, "")
    .replace(/[<>&"']/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&apos;" })[c]!);
