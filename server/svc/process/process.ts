import { decodeSvc } from "../container";
import { hardwareName } from "../hardware";
import type { DecodedSvc, Keyring, VesselType } from "../types";
import { detectEffortStart, effortEnd, sampleDistance } from "./effort";
import { ProcessingError } from "./errors";
import { windowMean } from "./filters";
import { dataQuality, strokeMetrics, summarize } from "./metrics";
import { buildReplay } from "./replay";
import { calibrate, sharpStrokeSignal, strokeSignal } from "./signals";
import { kinematics, type SpeedFusion } from "./speed";
import { assignSides, detectStrokes } from "./strokes";
import { round } from "./track";
import type { EffortTrack, ProcessedSession, ProcessingMeta } from "./types";
import { catchTimingSd, effortUncertainty } from "./uncertainty";

const TRACK_HZ = 10;

/** Internal choices that benchmarks compare; production uses the defaults. */
export interface ProcessingOptions {
  speedFusion?: SpeedFusion;
}

/** Decode and process a file (docs/processing.md). Throws InvalidSvcError or ProcessingError. */
export function processSvc(bytes: Uint8Array, meta: ProcessingMeta, keyring: Keyring, options: ProcessingOptions = {}): ProcessedSession {
  return processDecoded(decodeSvc(bytes, keyring), meta, options);
}

export function processDecoded(decoded: DecodedSvc, meta: ProcessingMeta, options: ProcessingOptions = {}): ProcessedSession {
  if ((meta.distanceM === undefined) === (meta.durationMs === undefined))
    throw new RangeError("give exactly one of distanceM and durationMs");
  const { kayak, signals, hz, kin, filtered, detected } = analyseRecording(decoded, meta.vessel, options);
  const startIndex = detectEffortStart(kin.speed, detected, hz, kayak, kin.speedSums);
  const endIndex = effortEnd(kin.distance, startIndex, hz, meta);

  const firstInEffort = detected.findIndex((s) => s.catchIndex >= startIndex - 1e-6);
  let lastInEffort = firstInEffort;
  while (lastInEffort + 1 < detected.length && detected[lastInEffort + 1].catchIndex < endIndex) lastInEffort++;
  if (firstInEffort < 0) throw new ProcessingError("no_effort", "no strokes in the effort");
  const effortStrokes = detected.slice(firstInEffort, lastInEffort + 1);
  // Sides need neighbours on both ends for their alternation evidence.
  const contextFrom = Math.max(0, firstInEffort - 4);
  const contextTo = Math.min(detected.length, lastInEffort + 5);
  const sides = kayak
    ? assignSides(detected.slice(contextFrom, contextTo), signals.yawRateDegS, signals.rollDeg, hz).slice(
        firstInEffort - contextFrom,
        firstInEffort - contextFrom + effortStrokes.length,
      )
    : effortStrokes.map(() => null);
  const strokes = strokeMetrics(
    effortStrokes,
    (k) => detected[firstInEffort + k + 1]?.catchIndex ?? null,
    sides,
    kin,
    signals,
    filtered,
    startIndex,
    kayak,
  );

  const startS = startIndex / hz;
  const endS = endIndex / hz;
  const durationMs = Math.round((endS - startS) * 1000);
  const startDistance = sampleDistance(kin.distance, startIndex);
  const dist = meta.distanceM ?? Math.round(sampleDistance(kin.distance, endIndex) - startDistance);
  const track = buildTrack(decoded, kin, startIndex, endIndex, hz, {
    endsAt: meta.distanceM !== undefined ? "distance" : "time",
    startSdS: catchTimingSd(filtered, startIndex, hz, kin.noise.accelMs2),
  });
  const heartRate = effortHeartRate(decoded, startS, endS);

  return {
    effort: { start_s: round(startS, 3), end_s: round(endS, 3), dist, duration_ms: durationMs },
    ...recordingClock(decoded, startS),
    strokes,
    summary: summarize(
      strokes,
      dist,
      durationMs,
      track.speed,
      heartRate.map(([, bpm]) => bpm),
      kayak,
    ),
    data_quality: dataQuality(decoded, kin, startS, endS, startDistance, kin.distance, hz),
    track,
    heart_rate: heartRate,
    replay: buildReplay(
      meta.vessel,
      signals,
      kin,
      startIndex,
      endIndex,
      effortStrokes.map((s, k) => ({ index: s.catchIndex, side: sides[k] })),
    ),
  };
}

/** What every kind of processing derives from a recording first: levelled signals, speed and distance, strokes. */
export function analyseRecording(decoded: DecodedSvc, vessel: VesselType, options: ProcessingOptions = {}) {
  const kayak = vessel.startsWith("K");
  const signals = calibrate(decoded);
  const hz = signals.hz;
  const kin = kinematics(decoded, signals, options.speedFusion);
  const filtered = strokeSignal(signals);
  const detected = detectStrokes(filtered, sharpStrokeSignal(signals), hz, kayak);
  return { kayak, signals, hz, kin, filtered, detected };
}

/** Device and local time of an instant on the recording clock (seconds from the first sample). */
export function recordingClock(decoded: DecodedSvc, atS: number) {
  const { header } = decoded;
  const startUnixMs = header.startUnixMs + Math.round(atS * 1000);
  const local = new Date(startUnixMs + header.utcOffsetMin * 60_000).toISOString();
  const offset = `${header.utcOffsetMin < 0 ? "-" : "+"}${String(Math.floor(Math.abs(header.utcOffsetMin) / 60)).padStart(2, "0")}:${String(Math.abs(header.utcOffsetMin) % 60).padStart(2, "0")}`;
  return {
    date: local.slice(0, 10),
    time_of_day: `${local.slice(11, 19)}${offset}`,
    start_unix_ms: startUnixMs,
    utc_offset_min: header.utcOffsetMin,
    device: {
      hardware_model: header.hardwareModel,
      hardware: hardwareName(header.hardwareModel),
      firmware: `${header.firmware.major}.${header.firmware.minor}.${header.firmware.patch}`,
      serial: header.deviceSerial,
      /** Keyring key the file was sealed with (0: the published development key). */
      key_id: header.keyId,
    },
  };
}

/**
 * The effort at 10 Hz, ending exactly at the effort's end, plus a route of about one fix per
 * second and, given how the effort ends and its start's timing error, what its split
 * uncertainty needs.
 */
export function buildTrack(
  decoded: DecodedSvc,
  kin: ReturnType<typeof kinematics>,
  startIndex: number,
  endIndex: number,
  hz: number,
  uncertainty?: { endsAt: "distance" | "time"; startSdS: number },
): EffortTrack {
  // The ½ s moving average of the speed, read where the track samples it (`sampleDistance` on
  // the whole series, from the prefix sums: a set of a long practice costs its own length).
  const window = Math.round(hz / 2) | 1;
  const last = kin.speed.length - 1;
  const smoothAt = (index: number) => {
    const i = Math.min(last - 1, Math.max(0, Math.floor(index)));
    const at = windowMean(kin.speedSums, window, i);
    return at + (windowMean(kin.speedSums, window, i + 1) - at) * (index - i);
  };
  const step = hz / TRACK_HZ;
  const startDistance = sampleDistance(kin.distance, startIndex);
  const { hrBpm, header, gnss } = decoded;
  // The lists are sized once, from the same walk of the sample positions: growing four lists of
  // 72,000 numbers (a two-hour effort) by push cost ten times more per sample than filling them.
  let count = 1;
  for (let index = startIndex; index < endIndex - 1e-9; index += step) count++;
  const track: EffortTrack = {
    step_s: 1 / TRACK_HZ,
    t: new Array<number>(count),
    distance: new Array<number>(count),
    speed: new Array<number>(count),
    heart_rate: new Array<number | null>(count),
    route: [],
  };
  let k = 0;
  const put = (index: number) => {
    const tAbs = index / hz;
    track.t[k] = round((index - startIndex) / hz, 3);
    track.distance[k] = round(sampleDistance(kin.distance, index) - startDistance, 3);
    track.speed[k] = round(smoothAt(index), 3);
    const bpm = hrBpm[Math.floor((tAbs * 1000) / header.hrPeriodMs)] ?? 0;
    track.heart_rate[k++] = bpm > 0 ? bpm : null;
  };
  for (let index = startIndex; index < endIndex - 1e-9; index += step) put(index);
  put(endIndex);
  for (
    let j = Math.ceil((startIndex / hz) * header.gnssHz);
    j <= Math.floor((endIndex / hz) * header.gnssHz) && j < gnss.total;
    j += header.gnssHz
  ) {
    if (gnss.fix[j]) track.route.push([round(gnss.latE7[j] / 1e7, 6), round(gnss.lonE7[j] / 1e7, 6)]);
  }
  if (uncertainty) track.uncertainty = effortUncertainty(kin, startIndex, endIndex, hz, uncertainty);
  return track;
}

export function effortHeartRate(decoded: DecodedSvc, startS: number, endS: number): [number, number][] {
  const periodS = decoded.header.hrPeriodMs / 1000;
  const out: [number, number][] = [];
  for (let k = Math.ceil(startS / periodS); k * periodS <= endS && k < decoded.hrBpm.length; k++) {
    if (decoded.hrBpm[k] > 0) out.push([round(k * periodS - startS, 3), decoded.hrBpm[k]]);
  }
  return out;
}
