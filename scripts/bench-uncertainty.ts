/**
 * `npm run bench:uncertainty`: calibration of the split uncertainty
 * (docs/processing.md "Split uncertainty", docs/benchmarks.md).
 *
 * The scored corpus (default) was drawn after the estimator was frozen, with
 * noise, outage, start-strength and fade settings beyond those used while
 * developing it (BENCH_CORPUS=dev runs the development corpus: the
 * simulator's default clean/noisy settings, other seeds). Every recording goes
 * through the real container. For each split: is the true elapsed time within
 * ± the stated value, and how wide is the stated value against the bound from
 * the simulator's own settings and truth (docs/benchmarks.md "The bound"): its
 * speed noise integrated over the elapsed time — the Doppler noise where fixes
 * exist, and over each true GNSS outage the IMU-integrated speed's error that
 * its accelerometer noise setting implies, bridged between the fixes on either
 * side — over the true speed, ×1.96 (a bridge tied at the end for timed
 * efforts). The former Doppler-only bound, 1.96·σ_sim·√(Δ·t)/v, is printed
 * beside it.
 * Also the single-effort split accuracy on the accuracy corpus (same seeds as
 * bench:accuracy): sessions with every split within 0.1 s (clean) and 0.25 s (noisy).
 * Env: BENCH_SEEDS (seeds per cell, default 2), BENCH_CORPUS=dev, BENCH_ACCURACY=0.
 */
import { encodeSvc } from "../server/svc/container";
import { loadKeyring } from "../server/svc/keyring";
import { processSvc } from "../server/svc/process/process";
import { computeSplits } from "../server/svc/process/track";
import { Random } from "../server/svc/simulator/random";
import { simulateSession, type SensorNoise, type SimulateOptions } from "../server/svc/simulator/simulate";
import type { VesselType } from "../server/svc/types";

const VESSELS: VesselType[] = ["K1", "K2", "K4", "C1", "C2", "C4"];
const EFFORTS: Pick<SimulateOptions, "distanceM" | "durationMs">[] = [{ distanceM: 200 }, { distanceM: 500 }, { distanceM: 1000 }, { durationMs: 60_000 }, { durationMs: 120_000 }];
const SPLITS = 4;
const keyring = loadKeyring({});
const seeds = Number(process.env.BENCH_SEEDS ?? 2);
const dev = process.env.BENCH_CORPUS === "dev";

interface Settings {
  sensorNoise?: SensorNoise;
  fade: number;
  dopplerMs: number;
  /** Accelerometer white noise, g (the simulator's setting; its default when unset). */
  accelG: number;
}

/**
 * The scored corpus's settings reach beyond the development ones. Development (estimator
 * version 2, frozen 2026-11-27 23:15 UTC): the simulator's defaults (Doppler 0.05 / 0.1 m/s,
 * accelerometer 0.01 / 0.025 g, noisy: 1–3 outages of 1–3 s, no fade) plus probes of Doppler
 * 0.2 m/s, accelerometer 0.04 g, fade 0.2 and 3–5 outages of 3–8 s (the first scored corpus's
 * reach, which estimator version 1 failed: docs/benchmarks.md). Scored: beyond all of those.
 */
function settingsFor(noise: "clean" | "noisy", rng: Random): Settings {
  if (dev) return { fade: 0, dopplerMs: noise === "noisy" ? 0.1 : 0.05, accelG: noise === "noisy" ? 0.025 : 0.01 };
  const fade = rng.uniform(0, 0.25);
  if (noise === "clean") {
    const dopplerMs = rng.uniform(0.02, 0.09);
    const accelG = rng.uniform(0.004, 0.018);
    return { fade, dopplerMs, accelG, sensorNoise: { dopplerMs, accelG, outages: { count: Math.floor(rng.uniform(0, 3)), minS: 0.5, maxS: 3 } } };
  }
  const dopplerMs = rng.uniform(0.08, 0.25);
  const accelG = rng.uniform(0.02, 0.05);
  return { fade, dopplerMs, accelG, sensorNoise: { dopplerMs, accelG, outages: { count: Math.floor(rng.uniform(1, 7)), minS: 1, maxS: 12 } } };
}

const G = 9.80665;
const IMU_DT = 0.01; // the simulator's 100 Hz IMU
const FIX_DT = 0.1; // the simulator's 10 Hz GNSS

/**
 * The simulator's GNSS outages in s from the effort start: the fix slots it left empty (its loss
 * mask, written as fix = 0 before any encoding; nothing the processor measured), as [start, end).
 */
function trueOutages(fix: Uint8Array, effortStartS: number): [number, number][] {
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
function boundVariance(t: number, outages: [number, number][], settings: Settings): number {
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

interface SplitRow {
  vessel: VesselType;
  noise: "clean" | "noisy";
  index: number;
  error: number;
  stated: number;
  /** Doppler noise and outages (the simulator's settings and truth). */
  bound: number;
  /** The former bound: Doppler noise only, no outage. */
  dopplerBound: number;
  splitError: number;
  splitStated: number;
}

const rows: SplitRow[] = [];
const failures: string[] = [];
const settingsRng = new Random(dev ? 4242 : 31337);
let seed = dev ? 50_000 : 80_000;
for (const vessel of VESSELS) {
  for (const pace of ["race", "training"] as const) {
    for (const noise of ["clean", "noisy"] as const) {
      for (const effort of EFFORTS) {
        for (let s = 0; s < seeds; s++) {
          seed++;
          const settings = settingsFor(noise, settingsRng);
          const sim = simulateSession({ vessel, seed, pace, noise, fade: settings.fade, sensorNoise: settings.sensorNoise, ...effort });
          try {
            const p = processSvc(encodeSvc(sim.content, keyring), { vessel, ...effort }, keyring);
            const splits = computeSplits(p.track, p.strokes, SPLITS);
            const truth = sim.truth.split_times_s["4"];
            const d = sim.distanceFromStartM;
            const t0 = sim.truth.effort_start_s;
            const total = truth[SPLITS - 1];
            const timed = effort.durationMs !== undefined;
            const outages = trueOutages(sim.content.gnss.fix, t0);
            splits.forEach((split, k) => {
              const i = Math.round((t0 + truth[k]) * 100);
              const v = (d[Math.min(d.length - 1, i + 50)] - d[Math.max(0, i - 50)]) / ((Math.min(d.length - 1, i + 50) - Math.max(0, i - 50)) / 100);
              const t = truth[k];
              const variance = settings.dopplerMs ** 2 * 0.1 * (timed ? t * (1 - t / total) : t);
              // Timed efforts: split k ends at the share f = k/n of the measured total, e(t) − f·e(T).
              const share = (k + 1) / SPLITS;
              const full = timed ? boundVariance(t, outages, settings) * (1 - 2 * share) + share ** 2 * boundVariance(total, outages, settings) : boundVariance(t, outages, settings);
              rows.push({
                vessel,
                noise,
                index: k + 1,
                error: Math.abs(split.time_s - t),
                stated: split.time_uncertainty_s ?? NaN,
                bound: (1.96 * Math.sqrt(Math.max(0, full))) / v,
                dopplerBound: (1.96 * Math.sqrt(Math.max(0, variance))) / v,
                splitError: Math.abs(split.split_time_s - (t - (k ? truth[k - 1] : 0))),
                splitStated: split.split_uncertainty_s ?? NaN,
              });
            });
          } catch (error) {
            failures.push(`${vessel} ${noise} seed ${seed}: ${(error as Error).message}`);
          }
        }
      }
    }
  }
}

const pct = (values: boolean[]) => (values.length ? (100 * values.filter(Boolean).length) / values.length : NaN);
const mean = (values: number[]) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : NaN);
const f = (v: number, d = 1) => (Number.isNaN(v) ? "—" : v.toFixed(d));
// A timed effort's last split ends at the duration exactly (stated 0): nothing to cover.
const scored = rows.filter((r) => r.stated > 0);
const covered = (r: SplitRow) => r.error <= r.stated;
const splitCovered = (r: SplitRow) => r.splitError <= r.splitStated;

console.log(`${rows.length / SPLITS} sessions (${dev ? "development corpus" : "scored corpus, drawn after the estimator was frozen"}; 6 classes × race/training × clean/noisy × 200/500/1000 m, 60/120 s; ${seeds} seeds per cell); ${SPLITS} splits; ${rows.length - scored.length} timed final splits (exact, not scored)\n`);
// 1.96 × the RMS of the actual errors: the width an exactly calibrated normal statement would need on this set.
const needed = (set: SplitRow[]) => 1.96 * Math.sqrt(mean(set.map((r) => r.error * r.error)));
const HEAD = "| coverage (elapsed) | coverage (split's own time) | mean stated (s) | mean bound (s) | stated ÷ bound | Doppler-only bound (s) | stated ÷ Doppler-only | 1.96 × RMS error (s) | needed ÷ bound |";
const RULE = "|---|---|---|---|---|---|---|---|---|---|---|---|";
const ratioOf = (set: SplitRow[], key: "bound" | "dopplerBound" = "bound") => mean(set.map((r) => r.stated)) / mean(set.map((r) => r[key]));
const cells = (set: SplitRow[]) =>
  `${f(pct(set.map(covered)))} % | ${f(pct(set.map(splitCovered)))} % | ${f(mean(set.map((r) => r.stated)), 3)} | ${f(mean(set.map((r) => r.bound)), 3)} | ${f(ratioOf(set), 2)} | ${f(mean(set.map((r) => r.dopplerBound)), 3)} | ${f(ratioOf(set, "dopplerBound"), 2)} | ${f(needed(set), 3)} | ${f(needed(set) / mean(set.map((r) => r.bound)), 2)} |`;
const table = [`| class | noise | splits ${HEAD}`, RULE];
const line = (label: string, noise: string, set: SplitRow[]) => table.push(`| ${label} | ${noise} | ${set.length} | ${cells(set)}`);
for (const noise of ["clean", "noisy"] as const) {
  for (const vessel of VESSELS) line(vessel, noise, scored.filter((r) => r.vessel === vessel && r.noise === noise));
  line("all", noise, scored.filter((r) => r.noise === noise));
}
line("all", "both", scored);
console.log(table.join("\n"));
console.log("\nPer split index:\n");
const byIndex = [`| noise | split | splits ${HEAD}`, RULE];
for (const noise of ["clean", "noisy"] as const) {
  for (let k = 1; k <= SPLITS; k++) {
    const set = scored.filter((r) => r.noise === noise && r.index === k);
    byIndex.push(`| ${noise} | ${k} | ${set.length} | ${cells(set)}`);
  }
}
console.log(byIndex.join("\n"));
for (const failure of failures) console.log(`failed: ${failure}`);
const coverage = pct(scored.map(covered));
const ratio = ratioOf(scored);
console.log("");
console.log(`${coverage >= 93 && coverage <= 97 ? "met   " : "MISSED"} coverage 93–97 % (${f(coverage)} %)`);
console.log(`${ratio <= 1.5 ? "met   " : "MISSED"} mean stated ≤ 1.5 × the bound (${f(ratio, 2)}; Doppler-only bound: ${f(ratioOf(scored, "dopplerBound"), 2)})`);
// The issue asks for both per split index: every noise level × index cell.
const cellsMissed: string[] = [];
for (const noise of ["clean", "noisy"] as const) {
  const set = scored.filter((r) => r.noise === noise);
  const c = pct(set.map(covered));
  const q = ratioOf(set);
  console.log(`${c >= 93 && c <= 97 && q <= 1.5 ? "met   " : "MISSED"} ${noise}: coverage ${f(c)} %, stated ÷ bound ${f(q, 2)}`);
  for (let k = 1; k <= SPLITS; k++) {
    const cell = set.filter((r) => r.index === k);
    const ck = pct(cell.map(covered));
    const qk = ratioOf(cell);
    if (!(ck >= 93 && ck <= 97 && qk <= 1.5)) cellsMissed.push(`${noise} split ${k} (${f(ck)} %, ${f(qk, 2)})`);
  }
}
console.log(`${cellsMissed.length ? "MISSED" : "met   "} every noise × split-index cell within 93–97 % and ≤ 1.5 × the bound${cellsMissed.length ? `: not ${cellsMissed.join(", ")}` : ""}`);

if (process.env.BENCH_ACCURACY !== "0") {
  // The single-effort table's corpus: bench:accuracy's seeds and cells, default sensor settings.
  const sessions: { noise: "clean" | "noisy"; worst: number }[] = [];
  let accuracySeed = 1000;
  for (const vessel of VESSELS) {
    for (const pace of ["race", "training"] as const) {
      for (const noise of ["clean", "noisy"] as const) {
        for (const effort of EFFORTS) {
          accuracySeed++;
          const sim = simulateSession({ vessel, seed: accuracySeed, pace, noise, ...effort });
          try {
            const p = processSvc(encodeSvc(sim.content, keyring), { vessel, ...effort }, keyring);
            const errors = computeSplits(p.track, p.strokes, 4).map((s, k) => Math.abs(s.time_s - sim.truth.split_times_s["4"][k]));
            sessions.push({ noise, worst: Math.max(...errors) });
          } catch {
            sessions.push({ noise, worst: Infinity });
          }
        }
      }
    }
  }
  const clean = pct(sessions.filter((s) => s.noise === "clean").map((s) => s.worst <= 0.1));
  const noisy = pct(sessions.filter((s) => s.noise === "noisy").map((s) => s.worst <= 0.25));
  console.log(`\nSingle-effort table (bench:accuracy's 120 sessions, 4 splits): clean sessions with every split within 0.1 s: ${f(clean)} %; noisy within 0.25 s: ${f(noisy)} %`);
  console.log(`${clean >= 95 ? "met   " : "MISSED"} clean: every split within 0.1 s in ≥ 95 % of sessions`);
  console.log(`${noisy >= 95 ? "met   " : "MISSED"} noisy: every split within 0.25 s in ≥ 95 % of sessions`);
}
