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
  // Sized once: a two-hour effort has 216,000 frames, and growing the list copied it again and again.
  const frames: number[][] = new Array<number[]>(frameCount);
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
    frames[f] = [
      q(sampleDistance(kinematics.distance, index) - startDistance, QUANTIZATION.position_m),
      0,
      0,
      q(at(signals.rollDeg, index), QUANTIZATION.orientation_deg),
      q(at(signals.pitchDeg, index), QUANTIZATION.orientation_deg),
      q(at(signals.headingDeg, index) - headingMean, QUANTIZATION.orientation_deg),
      Math.round(phase * 1000) / 1000,
    ];
  }
  return { schema: 1, frame_count: frames.length, model_class: modelClass, quantization: QUANTIZATION, frames };
}
