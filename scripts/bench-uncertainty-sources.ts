/**
 * `npm run bench:uncertainty-sources`: where the split error comes from (docs/benchmarks.md
 * "Split uncertainty calibration", "Where the noisy error comes from"). Instruments the
 * benchmark, not the product: every recording goes through the real container and processor;
 * the simulator's truth (start time, distance, its outage mask) splits each distance effort's
 * split error into
 *
 * - start: the detected start's error (a split's time runs from it);
 * - fixes: the fused distance's error accumulated where the simulator gave fixes (Doppler noise);
 * - outages: the error accumulated inside the simulator's GNSS outages (IMU-bridged speed);
 * - crossing: what is left (the interpolation of the split's crossing, non-linearity).
 *
 * and reruns each recording with one noise source switched off (no outages; Doppler noise
 * 0.005 m/s; accelerometer noise 0.002 g; and the accelerometer of the simulator before
 * 2026-12-02, which left part of the boat's acceleration out), so each source's share shows as the drop in the
 * 1.96 × RMS error. Development corpus only (seeds 60 001 on, its own settings stream); the
 * scored corpus of bench:uncertainty is never read here.
 * Env: BENCH_SEEDS (seeds per cell, default 2), BENCH_NOISE (clean|noisy|both, default noisy),
 * BENCH_WORST (print the as-drawn splits whose error exceeds this many seconds).
 */
import { decodeSvc, encodeSvc } from "../server/svc/container";
import { loadKeyring } from "../server/svc/keyring";
import { analyseRecording, processDecoded } from "../server/svc/process/process";
import { computeSplits } from "../server/svc/process/track";
import { Random } from "../server/svc/simulator/random";
import { simulateSession, type SensorNoise, type SimulateOptions } from "../server/svc/simulator/simulate";
import type { VesselType } from "../server/svc/types";
import { boundVariance, settingsFor, trueOutages, type Settings } from "./bench/uncertainty-corpus";

const VESSELS: VesselType[] = ["K1", "K2", "K4", "C1", "C2", "C4"];
const EFFORTS: Pick<SimulateOptions, "distanceM">[] = [{ distanceM: 200 }, { distanceM: 500 }, { distanceM: 1000 }];
const SPLITS = 4;
const keyring = loadKeyring({});
const seeds = Number(process.env.BENCH_SEEDS ?? 2);
const noises =
  (process.env.BENCH_NOISE ?? "noisy") === "both"
    ? (["clean", "noisy"] as const)
    : ([process.env.BENCH_NOISE ?? "noisy"] as ["clean" | "noisy"]);
const VARIANTS = [
  "as drawn",
  "no outages",
  "Doppler 0.005",
  "accel 0.002 g",
  "forces only (before 2026-12-02)",
  "forces only, Doppler 0.005",
] as const;
type Variant = (typeof VARIANTS)[number];

interface Row {
  vessel: VesselType;
  noise: "clean" | "noisy";
  variant: Variant;
  index: number;
  error: number;
  start: number;
  fixes: number;
  outages: number;
  crossing: number;
  stated: number;
  bound: number;
}

function variantNoise(settings: Settings, variant: Variant): SensorNoise {
  const base: SensorNoise = settings.sensorNoise ?? { dopplerMs: settings.dopplerMs, accelG: settings.accelG };
  if (variant === "no outages") return { ...base, outages: { count: 0, minS: 1, maxS: 1 } };
  if (variant === "Doppler 0.005") return { ...base, dopplerMs: 0.005 };
  if (variant === "accel 0.002 g") return { ...base, accelG: 0.002 };
  // The simulator's accelerometer before 2026-12-02: the modelled forces only (docs/benchmarks.md).
  if (variant === "forces only (before 2026-12-02)") return { ...base, recordedAcceleration: "forces" };
  if (variant === "forces only, Doppler 0.005") return { ...base, dopplerMs: 0.005, recordedAcceleration: "forces" };
  return base;
}

const rows: Row[] = [];
const settingsRng = new Random(6060);
let seed = 60_000;
for (const vessel of VESSELS) {
  for (const pace of ["race", "training"] as const) {
    for (const noise of noises) {
      for (const effort of EFFORTS) {
        for (let s = 0; s < seeds; s++) {
          seed++;
          const settings = settingsFor(noise, settingsRng, "scored-2");
          for (const variant of VARIANTS) measure(vessel, pace, noise, effort, settings, variant, seed);
        }
      }
    }
  }
}

function measure(
  vessel: VesselType,
  pace: "race" | "training",
  noise: "clean" | "noisy",
  effort: { distanceM?: number },
  settings: Settings,
  variant: Variant,
  seed: number,
) {
  const sensorNoise = variantNoise(settings, variant);
  const sim = simulateSession({ vessel, seed, pace, noise, fade: settings.fade, sensorNoise, ...effort });
  const decoded = decodeSvc(encodeSvc(sim.content, keyring), keyring);
  let p;
  try {
    p = processDecoded(decoded, { vessel, ...effort });
  } catch {
    return;
  }
  const { kin, hz } = analyseRecording(decoded, vessel);
  const splits = computeSplits(p.track, p.strokes, SPLITS);
  const truth = sim.truth.split_times_s["4"];
  const d = sim.distanceFromStartM;
  const t0 = sim.truth.effort_start_s;
  const outages = trueOutages(sim.content.gnss.fix, t0);
  // ε(t): fused distance minus true distance, both from the recording's first sample (s from the true start).
  const fusedAt = (t: number) => sampleAt(kin.distance, (t0 + t) * hz);
  const trueAt = (t: number) => sampleAt(d, (t0 + t) * 100);
  const eps = (t: number) => fusedAt(t) - trueAt(t);
  const startError = p.effort.start_s - t0;
  const used = { ...settings, dopplerMs: sensorNoise.dopplerMs ?? settings.dopplerMs, accelG: sensorNoise.accelG ?? settings.accelG };
  splits.forEach((split, k) => {
    const t = truth[k];
    const v = (trueAt(t + 0.5) - trueAt(t - 0.5)) / 1;
    const total = eps(t) - eps(0);
    let inOutages = 0;
    for (const [a0, b0] of outages) {
      const a = Math.max(0, a0);
      const b = Math.min(t, b0);
      if (b > a) inOutages += eps(b) - eps(a);
    }
    const error = split.time_s - t;
    const start = -startError;
    const fixes = -(total - inOutages) / v;
    const out = -inOutages / v;
    if (process.env.BENCH_WORST && variant === "as drawn" && Math.abs(error) > Number(process.env.BENCH_WORST))
      console.log(
        `worst: ${vessel} ${pace} ${effort.distanceM} m seed ${seed} split ${k + 1}: error ${error.toFixed(3)} (start ${start.toFixed(3)}, outages ${out.toFixed(3)}) stated ${split.time_uncertainty_s} σd ${used.dopplerMs.toFixed(3)} σa ${used.accelG.toFixed(3)} outages ${JSON.stringify(outages.map(([a, b]) => [a.toFixed(1), b.toFixed(1)]))}`,
      );
    rows.push({
      vessel,
      noise,
      variant,
      index: k + 1,
      error,
      start,
      fixes,
      outages: out,
      crossing: error - start - fixes - out,
      stated: split.time_uncertainty_s ?? NaN,
      bound: (1.96 * Math.sqrt(boundVariance(t, outages, used))) / v,
    });
  });
}

function sampleAt(series: Float64Array, index: number): number {
  const i = Math.max(0, Math.min(series.length - 2, Math.floor(index)));
  return series[i] + (series[i + 1] - series[i]) * (index - i);
}

const mean = (values: number[]) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : NaN);
const w = (values: number[]) => 1.96 * Math.sqrt(mean(values.map((v) => v * v)));
const f = (v: number, digits = 3) => (Number.isNaN(v) ? "—" : v.toFixed(digits));
const cover = (set: Row[]) => (100 * set.filter((r) => Math.abs(r.error) <= r.stated).length) / set.length;
const line = (label: string, set: Row[]) =>
  `| ${label} | ${set.length} | ${f(w(set.map((r) => r.error)))} | ${f(w(set.map((r) => r.start)))} | ${f(w(set.map((r) => r.fixes)))} | ${f(w(set.map((r) => r.outages)))} | ${f(w(set.map((r) => r.crossing)))} | ${f(mean(set.map((r) => r.bound)))} | ${f(mean(set.map((r) => r.stated)))} | ${f(cover(set), 1)} % |`;
console.log(
  `${rows.length / SPLITS} recordings per variant × ${VARIANTS.length} variants (development corpus, seeds 60001–${seed}; distance efforts 200/500/1000 m; ${seeds} seeds per cell)\n`,
);
console.log("Each column is 1.96 × the RMS of that part of the elapsed-time error (s).\n");
const head = "| splits | total | start | fixes (Doppler) | outages (IMU) | crossing | mean bound | mean stated | coverage |";
for (const noise of noises) {
  const table = [`| ${noise}: variant ${head}`, "|---|---|---|---|---|---|---|---|---|---|"];
  for (const variant of VARIANTS)
    table.push(
      line(
        variant,
        rows.filter((r) => r.noise === noise && r.variant === variant),
      ),
    );
  console.log(table.join("\n") + "\n");
  const byClass = [`| ${noise}, as drawn: class ${head}`, "|---|---|---|---|---|---|---|---|---|---|"];
  for (const vessel of VESSELS)
    byClass.push(
      line(
        vessel,
        rows.filter((r) => r.noise === noise && r.variant === "as drawn" && r.vessel === vessel),
      ),
    );
  for (let k = 1; k <= SPLITS; k++)
    byClass.push(
      line(
        `split ${k}`,
        rows.filter((r) => r.noise === noise && r.variant === "as drawn" && r.index === k),
      ),
    );
  console.log(byClass.join("\n") + "\n");
}
