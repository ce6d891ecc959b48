import type { Kinematics } from "./speed";
import type { Signals } from "./signals";
import { sampleDistance } from "./effort";
import type { ReplayArtifact } from "./types";

/**
 * Replay frames, schema 1 (docs/processing.md "Replay"): 30 Hz visual
 * transforms of the boat over the effort. No time stamps, positions, metrics
 * or identities: x along the course, roll, pitch, yaw about the mean course,
 * and the paddle's phase, quantized.
 */
export const REPLAY_HZ = 30;
const QUANTIZATION = { position_m: 0.01, orientation_deg: 0.1 };
/** A frame: [x, 0, 0, roll, pitch, yaw, paddle phase]. */
const FRAME_FIELDS = 7;

export function buildReplay(
  modelClass: string,
  signals: Signals,
  kinematics: Kinematics,
  startIndex: number,
  endIndex: number,
  catches: { index: number; side: "left" | "right" | null }[],
): ReplayArtifact {
  const hz = signals.hz;
  const durationS = (endIndex - startIndex) / hz;
  const frameCount = Math.floor(durationS * REPLAY_HZ) + 1;
  const startDistance = sampleDistance(kinematics.distance, startIndex);
  let headingMean = 0;
  const from = Math.floor(startIndex);
  const to = Math.min(signals.n - 1, Math.ceil(endIndex));
  for (let i = from; i <= to; i++) headingMean += signals.headingDeg[i];
  headingMean /= Math.max(1, to - from + 1);
  const at = (series: Float64Array, index: number) => sampleDistance(series, index);
  const q = (value: number, quantum: number) => Math.round(value / quantum);
  // The frames are computed here, into one typed array; the list of small arrays the artifact
  // holds is made from it when `frames` is first read. Only the replay job reads it, and a
  // two-hour effort's 216,000 arrays kept alive cost processing six times more per frame than a
  // short one's (garbage collection), for every upload and reprocessing.
  const packed = new Float64Array(frameCount * FRAME_FIELDS);
  let stroke = 0;
  for (let f = 0; f < frameCount; f++) {
    const index = Math.min(endIndex, startIndex + (f / REPLAY_HZ) * hz);
    while (stroke + 1 < catches.length && catches[stroke + 1].index <= index) stroke++;
    let phase = 0;
    if (catches.length && catches[stroke].index <= index) {
      const next =
        stroke + 1 < catches.length
          ? catches[stroke + 1].index
          : catches[stroke].index + (stroke > 0 ? catches[stroke].index - catches[stroke - 1].index : hz);
      phase = Math.min(0.999, (index - catches[stroke].index) / (next - catches[stroke].index));
      if (catches[stroke].side === "right") phase += 1;
    }
    const p = f * FRAME_FIELDS;
    packed[p] = q(sampleDistance(kinematics.distance, index) - startDistance, QUANTIZATION.position_m);
    // packed[p + 1], packed[p + 2]: 0 (no sideways or vertical motion).
    packed[p + 3] = q(at(signals.rollDeg, index), QUANTIZATION.orientation_deg);
    packed[p + 4] = q(at(signals.pitchDeg, index), QUANTIZATION.orientation_deg);
    packed[p + 5] = q(at(signals.headingDeg, index) - headingMean, QUANTIZATION.orientation_deg);
    packed[p + 6] = Math.round(phase * 1000) / 1000;
  }
  let frames: number[][] | undefined;
  return {
    schema: 1,
    frame_count: frameCount,
    model_class: modelClass,
    quantization: QUANTIZATION,
    get frames() {
      return (frames ??= unpack(packed, frameCount));
    },
  };
}

function unpack(packed: Float64Array, frameCount: number): number[][] {
  const frames = new Array<number[]>(frameCount);
  for (let f = 0, p = 0; f < frameCount; f++, p += FRAME_FIELDS)
    frames[f] = [packed[p], packed[p + 1], packed[p + 2], packed[p + 3], packed[p + 4], packed[p + 5], packed[p + 6]];
  return frames;
}
