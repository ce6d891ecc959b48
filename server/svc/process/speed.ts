import type { DecodedSvc } from "../types";
import type { Signals } from "./signals";

/**
 * Boat speed and distance at the IMU rate (docs/processing.md "Speed and
 * distance"). The integrated surge acceleration gives the speed's shape at
 * 100 Hz but drifts; GNSS Doppler speed is unbiased but noisy and only 10 Hz
 * (which aliases the 1–2 Hz stroke surge). So: integrate the surge, measure
 * its offset from each fix, smooth that offset over ±1 s of fixes, and add
 * it back. Fix losses are bridged by the same offset, interpolated.
 */
export interface Kinematics {
  /** m/s at each IMU sample. */
  speed: Float64Array;
  /** Metres travelled since the first IMU sample. */
  distance: Float64Array;
  /** GNSS fix losses (longer than one period), in seconds from the first sample. */
  fixGaps: { startS: number; endS: number }[];
}

const OFFSET_WINDOW_S = 1;

export function kinematics(decoded: DecodedSvc, signals: Signals): Kinematics {
  const { gnss } = decoded;
  const hz = signals.hz;
  const gnssHz = decoded.header.gnssHz;
  const n = signals.n;
  const speed = new Float64Array(n);
  const distance = new Float64Array(n);
  const fixGaps: Kinematics["fixGaps"] = [];

  const integrated = new Float64Array(n);
  for (let i = 1; i < n; i++) integrated[i] = integrated[i - 1] + signals.surge[i] / hz;

  const times: number[] = [];
  const offsets: number[] = [];
  let previous = -1;
  for (let j = 0; j < gnss.total; j++) {
    if (!gnss.fix[j]) continue;
    const index = (j * hz) / gnssHz;
    if (index > n - 1) break;
    if (previous >= 0 && j - previous > 1.5) fixGaps.push({ startS: previous / gnssHz, endS: j / gnssHz });
    previous = j;
    const i = Math.floor(index);
    const at = i + 1 < n ? integrated[i] + (integrated[i + 1] - integrated[i]) * (index - i) : integrated[i];
    times.push(index);
    offsets.push(gnss.speedMmS[j] / 1000 - at);
  }
  if (times.length === 0) return { speed, distance, fixGaps };

  // Centered moving average of the offsets over ±1 s of fixes (two pointers: O(fixes)).
  const smooth = new Float64Array(times.length);
  const half = OFFSET_WINDOW_S * hz;
  let lo = 0;
  let hi = 0;
  let sum = 0;
  for (let k = 0; k < times.length; k++) {
    while (hi < times.length && times[hi] <= times[k] + half) sum += offsets[hi++];
    while (times[lo] < times[k] - half) sum -= offsets[lo++];
    smooth[k] = sum / (hi - lo);
  }

  let k = 0;
  for (let i = 0; i < n; i++) {
    while (k + 1 < times.length && times[k + 1] <= i) k++;
    let offset: number;
    if (i <= times[0]) offset = smooth[0];
    else if (k + 1 >= times.length) offset = smooth[times.length - 1];
    else offset = smooth[k] + ((smooth[k + 1] - smooth[k]) * (i - times[k])) / (times[k + 1] - times[k]);
    speed[i] = Math.max(0, integrated[i] + offset);
  }
  for (let i = 1; i < n; i++) distance[i] = distance[i - 1] + (speed[i - 1] + speed[i]) / (2 * hz);
  return { speed, distance, fixGaps };
}
