/**
 * `npm run bench:accuracy`: processing accuracy against the simulator's
 * ground truth (docs/benchmarks.md). Every session goes through the real
 * container: simulate → encode (development key) → decode → process.
 * Env: BENCH_SEEDS (single efforts per cell), BENCH_FUSION=window (the
 * previous speed fusion, for comparison), BENCH_TRAININGS=0 (skip the
 * trainings table), BENCH_TRAINING_SEEDS (trainings per cell).
 */
import { encodeSvc } from "../server/svc/container";
import { loadKeyring } from "../server/svc/keyring";
import { processSvc } from "../server/svc/process/process";
import { computeSplits } from "../server/svc/process/track";
import type { SpeedFusion } from "../server/svc/process/speed";
import { simulateSession, type Simulation } from "../server/svc/simulator/simulate";
import { trainingAccuracy } from "./bench/training-accuracy";
import type { VesselType } from "../server/svc/types";
import { CORPUS_EFFORTS as EFFORTS, CORPUS_VESSELS as VESSELS } from "./bench/svc-corpus";

const keyring = loadKeyring({});
const seedsPerCell = Number(process.env.BENCH_SEEDS ?? 1);
const speedFusion = (process.env.BENCH_FUSION ?? "smoother") as SpeedFusion;
const SPLIT_TOLERANCE_S = 0.1;

/**
 * The Doppler bound: split-time errors of an estimator with a perfect IMU
 * whose only error is the GNSS Doppler noise integrated from the start (the
 * low-frequency information about distance comes from Doppler alone; see
 * docs/processing.md "Speed and distance"). No fusion can be expected to
 * beat it on the same recording.
 */
function dopplerBoundErrors(sim: Simulation, isDuration: boolean): number[] {
  const { gnss } = sim.content;
  const d = sim.distanceFromStartM;
  const t0 = sim.truth.effort_start_s;
  const t1 = sim.truth.effort_end_s;
  const times: number[] = [];
  const cumulative: number[] = [];
  let sum = 0;
  for (let j = 0; j < gnss.total; j++) {
    const i = j * 10;
    if (i + 1 >= d.length) break;
    if (j / 10 < t0 || !gnss.fix[j]) continue;
    sum += (gnss.speedMmS[j] / 1000 - (d[i] - d[i - 1]) * 100) * 0.1;
    times.push(j / 10);
    cumulative.push(sum);
  }
  const errorAt = (t: number) => {
    let k = -1;
    while (k + 1 < times.length && times[k + 1] <= t) k++;
    return k < 0 ? 0 : cumulative[k];
  };
  return sim.truth.split_times_s["4"].map((elapsed, k) => {
    if (isDuration && k === 3) return 0;
    const t = t0 + elapsed;
    const i = Math.round(t * 100);
    const speed = (d[i] - d[i - 1]) * 100;
    const error = errorAt(t) - (isDuration ? ((k + 1) / 4) * errorAt(t1) : 0);
    return Math.abs(error / speed);
  });
}

interface Row {
  vessel: VesselType;
  noise: "clean" | "noisy";
  boundErrs: number[];
  startErr: number;
  countErr: number;
  rateErrs: number[];
  strokeDistErrs: number[];
  splitErrs: number[];
  finalDistErr: number;
  sideCorrect: number;
  sideTotal: number;
  failed?: string;
}

const rows: Row[] = [];
let seed = 1000;
for (const vessel of VESSELS) {
  for (const pace of ["race", "training"] as const) {
    for (const noise of ["clean", "noisy"] as const) {
      for (const effort of EFFORTS) {
        for (let s = 0; s < seedsPerCell; s++) {
          seed++;
          const sim = simulateSession({ vessel, seed, pace, noise, ...effort });
          const bytes = encodeSvc(sim.content, keyring);
          const row: Row = {
            vessel,
            noise,
            boundErrs: dopplerBoundErrors(sim, effort.durationMs !== undefined),
            startErr: NaN,
            countErr: NaN,
            rateErrs: [],
            strokeDistErrs: [],
            splitErrs: [],
            finalDistErr: NaN,
            sideCorrect: 0,
            sideTotal: 0,
          };
          try {
            const p = processSvc(bytes, { vessel, ...effort }, keyring, { speedFusion });
            const truth = sim.truth;
            row.startErr = Math.abs(p.effort.start_s - truth.effort_start_s);
            row.countErr = p.strokes.length - truth.catches.length;
            // Match strokes to truth catches by time (nearest within 0.15 s).
            let j = 0;
            for (let k = 0; k < p.strokes.length; k++) {
              const stroke = p.strokes[k];
              while (
                j + 1 < truth.catches.length &&
                Math.abs(truth.catches[j + 1].t_s - stroke.catch_s) < Math.abs(truth.catches[j].t_s - stroke.catch_s)
              )
                j++;
              if (Math.abs(truth.catches[j].t_s - stroke.catch_s) > 0.15) continue;
              if (j + 1 < truth.catches.length) {
                const interval = truth.catches[j + 1].t_s - truth.catches[j].t_s;
                row.rateErrs.push(Math.abs(stroke.rate - 60 / interval));
                const d0 = sim.distanceFromStartM[Math.round(truth.catches[j].t_s * 100)];
                const d1 = sim.distanceFromStartM[Math.round(truth.catches[j + 1].t_s * 100)];
                const measured = stroke.stroke_distance ?? stroke.left_stroke_distance ?? stroke.right_stroke_distance ?? 0;
                row.strokeDistErrs.push(Math.abs(measured - (d1 - d0)));
              }
              if (truth.catches[j].side) {
                row.sideTotal++;
                if (truth.catches[j].side === stroke.side) row.sideCorrect++;
              }
            }
            const splits = computeSplits(p.track, p.strokes, 4);
            row.splitErrs = splits.map((split, k) => Math.abs(split.time_s - truth.split_times_s["4"][k]));
            row.finalDistErr = Math.abs(p.effort.dist - truth.distance_m);
          } catch (error) {
            row.failed = (error as Error).message;
          }
          rows.push(row);
        }
      }
    }
  }
}

const pct = (values: boolean[]) => (values.length ? (100 * values.filter(Boolean).length) / values.length : NaN);
const mean = (values: number[]) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : NaN);
const p95 = (values: number[]) => (values.length ? [...values].sort((a, b) => a - b)[Math.floor(0.95 * (values.length - 1))] : NaN);
const f = (v: number, d = 2) => (Number.isNaN(v) ? "—" : v.toFixed(d));

const lines = [
  "| class | sessions | failed | start ≤ 0.15 s | start p95 (s) | strokes exact | strokes ±1 | rate MAE (spm) | stroke distance MAE (m) | splits ≤ 0.1 s | split p95 (s) | final distance MAE (m) | side accuracy |",
  "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
];
for (const group of [...VESSELS, "all"] as const) {
  const set = rows.filter((r) => group === "all" || r.vessel === group);
  const ok = set.filter((r) => !r.failed);
  const splits = ok.flatMap((r) => r.splitErrs);
  const sideTotal = ok.reduce((s, r) => s + r.sideTotal, 0);
  lines.push(
    `| ${group} | ${set.length} | ${set.length - ok.length} | ${f(pct(set.map((r) => r.startErr <= 0.15)), 1)} % | ${f(p95(ok.map((r) => r.startErr)), 3)} | ${f(pct(set.map((r) => r.countErr === 0)), 1)} % | ${f(pct(set.map((r) => Math.abs(r.countErr) <= 1)), 1)} % | ${f(mean(ok.flatMap((r) => r.rateErrs)))} | ${f(mean(ok.flatMap((r) => r.strokeDistErrs)), 3)} | ${f(pct(splits.map((e) => e <= 0.1)), 1)} % | ${f(p95(splits), 3)} | ${f(mean(ok.map((r) => r.finalDistErr)))} | ${sideTotal ? `${f((100 * ok.reduce((s, r) => s + r.sideCorrect, 0)) / sideTotal, 2)} %` : "n/a"} |`,
  );
}
const within = (errors: number[]) => errors.map((e) => e <= SPLIT_TOLERANCE_S);
const splitLines = [
  "| noise | sessions | splits ≤ 0.1 s | sessions with all splits ≤ 0.1 s | split p95 (s) | Doppler bound: splits ≤ 0.1 s | Doppler bound: sessions all ≤ 0.1 s |",
  "|---|---|---|---|---|---|---|",
];
for (const noise of ["clean", "noisy", "all"] as const) {
  const set = rows.filter((r) => noise === "all" || r.noise === noise);
  const ok = set.filter((r) => !r.failed);
  splitLines.push(
    `| ${noise} | ${set.length} | ${f(pct(within(ok.flatMap((r) => r.splitErrs))), 1)} % | ${f(pct(set.map((r) => !r.failed && r.splitErrs.every((e) => e <= SPLIT_TOLERANCE_S))), 1)} % | ${f(p95(ok.flatMap((r) => r.splitErrs)), 3)} | ${f(pct(within(set.flatMap((r) => r.boundErrs))), 1)} % | ${f(pct(set.map((r) => r.boundErrs.every((e) => e <= SPLIT_TOLERANCE_S))), 1)} % |`,
  );
}
console.log(
  `${rows.length} simulated sessions (6 classes × race/training × clean/noisy × 200/500/1000 m, 60/120 s; ${seedsPerCell} seed per cell; speed fusion: ${speedFusion})\n`,
);
console.log(lines.join("\n"));
console.log("\nSplit times (4 splits) by noise, and the Doppler bound on the same recordings:\n");
console.log(splitLines.join("\n"));
for (const r of rows.filter((r) => r.failed)) console.log(`failed: ${r.vessel}: ${r.failed}`);
const all = rows;
const targets = [
  ["start within 0.15 s in ≥ 95 % of sessions", pct(all.map((r) => r.startErr <= 0.15)) >= 95],
  ["stroke count exact in ≥ 90 %", pct(all.map((r) => r.countErr === 0)) >= 90],
  ["stroke count within ±1 in ≥ 99 %", pct(all.map((r) => Math.abs(r.countErr) <= 1)) >= 99],
  ["rate MAE < 0.5 spm", mean(all.filter((r) => !r.failed).flatMap((r) => r.rateErrs)) < 0.5],
  [
    "split times within 0.1 s in ≥ 95 %",
    pct(
      all
        .filter((r) => !r.failed)
        .flatMap((r) => r.splitErrs)
        .map((e) => e <= 0.1),
    ) >= 95,
  ],
  [
    "noisy half: split times within 0.1 s in ≥ 97 %",
    pct(within(rows.filter((r) => r.noise === "noisy" && !r.failed).flatMap((r) => r.splitErrs))) >= 97,
  ],
  [
    "noisy half: sessions with all splits within 0.1 s ≥ 95 %",
    pct(rows.filter((r) => r.noise === "noisy").map((r) => !r.failed && r.splitErrs.every((e) => e <= SPLIT_TOLERANCE_S))) >= 95,
  ],
  [
    "side accuracy ≥ 99 %",
    (() => {
      const ok = all.filter((r) => !r.failed);
      const total = ok.reduce((s, r) => s + r.sideTotal, 0);
      return (100 * ok.reduce((s, r) => s + r.sideCorrect, 0)) / total >= 99;
    })(),
  ],
] as const;
console.log("");
for (const [name, met] of targets) console.log(`${met ? "met   " : "MISSED"} ${name}`);

// Trainings (interval practices): BENCH_TRAININGS=0 skips them, BENCH_TRAINING_SEEDS multiplies them.
if (process.env.BENCH_TRAININGS !== "0") {
  console.log("\n## Trainings\n");
  console.log(trainingAccuracy(Number(process.env.BENCH_TRAINING_SEEDS ?? 1)).join("\n"));
}
