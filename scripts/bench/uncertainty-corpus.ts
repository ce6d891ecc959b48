/**
 * The split-uncertainty benchmarks' corpora and bound (docs/benchmarks.md "Split uncertainty
 * calibration", "The bound"): shared by bench:uncertainty and bench:uncertainty-sources.
 */
import type { Random } from "../../server/svc/simulator/random";
import type { SensorNoise } from "../../server/svc/simulator/simulate";

export interface Settings {
  sensorNoise?: SensorNoise;
  fade: number;
  dopplerMs: number;
  /** Accelerometer white noise, g (the simulator's setting; its default when unset). */
  accelG: number;
}

/**
 * `dev`: the simulator's defaults (Doppler 0.05 / 0.1 m/s, accelerometer 0.01 / 0.025 g, noisy:
 * 1–3 outages of 1–3 s, no fade). `scored-2`: the corpus that scored estimator version 2
 * (frozen 2026-11-27), beyond the development ranges of then; estimator version 3 was developed
 * on these ranges with other seeds (bench:uncertainty-sources). `scored-3`: drawn after
 * estimator version 3 was frozen, beyond `scored-2` in every setting.
 */
export type CorpusKind = "dev" | "scored-2" | "scored-3";

export function settingsFor(noise: "clean" | "noisy", rng: Random, kind: CorpusKind): Settings {
  if (kind === "dev") return { fade: 0, dopplerMs: noise === "noisy" ? 0.1 : 0.05, accelG: noise === "noisy" ? 0.025 : 0.01 };
  const wide = kind === "scored-3";
  const fade = rng.uniform(0, wide ? 0.3 : 0.25);
  if (noise === "clean") {
    const dopplerMs = rng.uniform(wide ? 0.015 : 0.02, wide ? 0.1 : 0.09);
    const accelG = rng.uniform(wide ? 0.003 : 0.004, wide ? 0.02 : 0.018);
    return {
      fade,
      dopplerMs,
      accelG,
      sensorNoise: { dopplerMs, accelG, outages: { count: Math.floor(rng.uniform(0, wide ? 4 : 3)), minS: 0.5, maxS: wide ? 4 : 3 } },
    };
  }
  const dopplerMs = rng.uniform(wide ? 0.07 : 0.08, wide ? 0.3 : 0.25);
  const accelG = rng.uniform(wide ? 0.018 : 0.02, wide ? 0.06 : 0.05);
  return {
    fade,
    dopplerMs,
    accelG,
    sensorNoise: { dopplerMs, accelG, outages: { count: Math.floor(rng.uniform(1, wide ? 8 : 7)), minS: 1, maxS: wide ? 15 : 12 } },
  };
}

const G = 9.80665;
const IMU_DT = 0.01; // the simulator's 100 Hz IMU
const FIX_DT = 0.1; // the simulator's 10 Hz GNSS

/**
 * The simulator's GNSS outages in s from the effort start: the fix slots it left empty (its loss
 * mask, written as fix = 0 before any encoding; nothing the processor measured), as [start, end).
 */
export function trueOutages(fix: Uint8Array, effortStartS: number): [number, number][] {
  const out: [number, number][] = [];
  for (let j = 0; j < fix.length; j++) {
    if (fix[j] !== 0) continue;
    const a = j;
    while (j < fix.length && fix[j] === 0) j++;
    out.push([a * FIX_DT - effortStartS, j * FIX_DT - effortStartS]);
  }
  return out;
}

/**
 * Variance (m²) of the distance from the start at t (s) that the simulator's own noise settings
 * imply for the best fusion of its signals (docs/benchmarks.md "The bound"): Doppler white noise
 * R = σ_d²·Δ per second of fixes; over an outage of length L the speed is the IMU's, tied to the
 * fixes on either side: a Brownian bridge of the accelerometer's velocity random walk
 * q = σ_a²·δt integrates to q·L³/12, and each edge's speed carries the steady-state filter
 * variance P = √(q·R) with weight L/2 (L²·P/2). Before t: the outage's share s of that term.
 */
export function boundVariance(t: number, outages: [number, number][], settings: Settings): number {
  const R = settings.dopplerMs ** 2 * FIX_DT;
  const q = (settings.accelG * G) ** 2 * IMU_DT;
  const P = Math.sqrt(q * R);
  let lost = 0;
  let outageTerm = 0;
  for (const [a0, b] of outages) {
    const a = Math.max(0, a0);
    if (b <= a || a >= t) continue;
    const L = b - a;
    const before = Math.min(b, t) - a;
    lost += before;
    outageTerm += (before / L) * ((q * L ** 3) / 12 + (L ** 2 * P) / 2);
  }
  return R * (t - lost) + outageTerm;
}
