/**
 * `npm run bench:uncertainty`: calibration of the split uncertainty
 * (docs/processing.md "Split uncertainty", docs/benchmarks.md).
 *
 * The scored corpus (default `scored-7`, the larger of the two drawn on 2026-12-02 after estimator
 * version 5 was frozen; its verdict in docs/benchmarks.md is with BENCH_SEEDS=30)
 * has noise, outage, start-strength and fade settings beyond those used while
 * developing (scripts/bench/uncertainty-corpus.ts; BENCH_CORPUS=scored-2 … scored-6 rerun the earlier
 * scored corpora, BENCH_CORPUS=dev-wide the development one estimator versions 3–5 were tuned on,
 * BENCH_CORPUS=dev the older development one: the simulator's default clean/noisy
 * settings, other seeds). Every recording goes through the real container. For each split: is
 * the true elapsed time within ± the stated value, and how wide is the stated value against the
 * bound from the simulator's own settings and truth (docs/benchmarks.md "The bound"): its
 * speed noise integrated over the elapsed time — the Doppler noise where fixes
 * exist, and over each true GNSS outage the IMU-integrated speed's error that
 * its accelerometer noise setting implies, bridged between the fixes on either
 * side — over the true speed, ×1.96 (a bridge tied at the end for timed
 * efforts). The former Doppler-only bound, 1.96·σ_sim·√(Δ·t)/v, is printed
 * beside it. BENCH_ACCEL=forces scores the same recordings with the simulator's accelerometer as it
 * was before 2026-12-02 (the modelled forces only; docs/benchmarks.md "Where the noisy error came from").
 * Also the single-effort split accuracy on the accuracy corpus (same seeds as
 * bench:accuracy): sessions with every split within 0.1 s (clean) and 0.25 s (noisy).
 * Env: BENCH_SEEDS (seeds per cell, default 2), BENCH_CORPUS (scored-7 | scored-6 | scored-5 | scored-4 | scored-3 | scored-2 | dev-wide | dev), BENCH_ACCEL=forces, BENCH_ACCURACY=0.
 */
import { encodeSvc } from "../server/svc/container";
import { loadKeyring } from "../server/svc/keyring";
import { processSvc } from "../server/svc/process/process";
import { computeSplits } from "../server/svc/process/track";
import { Random } from "../server/svc/simulator/random";
import { simulateSession, type SimulateOptions } from "../server/svc/simulator/simulate";
import type { VesselType } from "../server/svc/types";
import { boundVariance, settingsFor, trueOutages, type CorpusKind } from "./bench/uncertainty-corpus";

const VESSELS: VesselType[] = ["K1", "K2", "K4", "C1", "C2", "C4"];
const EFFORTS: Pick<SimulateOptions, "distanceM" | "durationMs">[] = [
  { distanceM: 200 },
  { distanceM: 500 },
  { distanceM: 1000 },
  { durationMs: 60_000 },
  { durationMs: 120_000 },
];
const SPLITS = 4;
const keyring = loadKeyring({});
const seeds = Number(process.env.BENCH_SEEDS ?? 2);
const corpus = (process.env.BENCH_CORPUS ?? "scored-7") as CorpusKind;
const dev = corpus === "dev" || corpus === "dev-wide";
// BENCH_ACCEL=forces: the same recordings with the simulator's accelerometer leaving out part of
// the boat's acceleration, as it did before 2026-12-02 (docs/benchmarks.md "Where the noisy error comes from").
const forcesOnly = process.env.BENCH_ACCEL === "forces";
/**
 * Seeds and settings stream of each corpus: scored-3 was drawn on 2026-12-01, after estimator version 2 had been frozen since
 * 2026-11-27; scored-4 on 2026-12-02 after version 3, scored-5 the same day after version 4, scored-6 after version 5.
 */
const STREAMS: Record<CorpusKind, { settings: number; seed: number }> = {
  dev: { settings: 4242, seed: 50_000 },
  "dev-wide": { settings: 6161, seed: 61_000 },
  "scored-2": { settings: 31337, seed: 80_000 },
  "scored-3": { settings: 271_828, seed: 90_000 },
  "scored-4": { settings: 141_421, seed: 97_000 },
  "scored-5": { settings: 173_205, seed: 99_000 },
  "scored-6": { settings: 223_606, seed: 101_000 },
  "scored-7": { settings: 244_948, seed: 110_000 },
};

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
const settingsRng = new Random(STREAMS[corpus].settings);
let seed = STREAMS[corpus].seed;
for (const vessel of VESSELS) {
  for (const pace of ["race", "training"] as const) {
    for (const noise of ["clean", "noisy"] as const) {
      for (const effort of EFFORTS) {
        for (let s = 0; s < seeds; s++) {
          seed++;
          const settings = settingsFor(noise, settingsRng, corpus);
          const sensorNoise = forcesOnly
            ? { dopplerMs: settings.dopplerMs, accelG: settings.accelG, ...settings.sensorNoise, recordedAcceleration: "forces" as const }
            : settings.sensorNoise;
          const sim = simulateSession({ vessel, seed, pace, noise, fade: settings.fade, sensorNoise, start: settings.start, ...effort });
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
              const v =
                (d[Math.min(d.length - 1, i + 50)] - d[Math.max(0, i - 50)]) /
                ((Math.min(d.length - 1, i + 50) - Math.max(0, i - 50)) / 100);
              const t = truth[k];
              const variance = settings.dopplerMs ** 2 * 0.1 * (timed ? t * (1 - t / total) : t);
              // Timed efforts: split k ends at the share f = k/n of the measured total, e(t) − f·e(T).
              const share = (k + 1) / SPLITS;
              const full = timed
                ? boundVariance(t, outages, settings) * (1 - 2 * share) + share ** 2 * boundVariance(total, outages, settings)
                : boundVariance(t, outages, settings);
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

console.log(
  `${rows.length / SPLITS} sessions (${dev ? `development corpus ${corpus}, seeds ${STREAMS[corpus].seed + 1}–${seed}` : `scored corpus ${corpus}, drawn after the estimator was frozen; seeds ${STREAMS[corpus].seed + 1}–${seed}, settings stream ${STREAMS[corpus].settings}`}${forcesOnly ? "; accelerometer records the modelled forces only (the simulator before 2026-12-02)" : ""}; 6 classes × race/training × clean/noisy × 200/500/1000 m, 60/120 s; ${seeds} seeds per cell); ${SPLITS} splits; ${rows.length - scored.length} timed final splits (exact, not scored)\n`,
);
// 1.96 × the RMS of the actual errors: the width an exactly calibrated normal statement would need on this set.
const needed = (set: SplitRow[]) => 1.96 * Math.sqrt(mean(set.map((r) => r.error * r.error)));
const HEAD =
  "| coverage (elapsed) | coverage (split's own time) | mean stated (s) | mean bound (s) | stated ÷ bound | Doppler-only bound (s) | stated ÷ Doppler-only | 1.96 × RMS error (s) | needed ÷ bound |";
const RULE = "|---|---|---|---|---|---|---|---|---|---|---|---|";
const ratioOf = (set: SplitRow[], key: "bound" | "dopplerBound" = "bound") => mean(set.map((r) => r.stated)) / mean(set.map((r) => r[key]));
const cells = (set: SplitRow[]) =>
  `${f(pct(set.map(covered)))} % | ${f(pct(set.map(splitCovered)))} % | ${f(mean(set.map((r) => r.stated)), 3)} | ${f(mean(set.map((r) => r.bound)), 3)} | ${f(ratioOf(set), 2)} | ${f(mean(set.map((r) => r.dopplerBound)), 3)} | ${f(ratioOf(set, "dopplerBound"), 2)} | ${f(needed(set), 3)} | ${f(needed(set) / mean(set.map((r) => r.bound)), 2)} |`;
const table = [`| class | noise | splits ${HEAD}`, RULE];
const line = (label: string, noise: string, set: SplitRow[]) => table.push(`| ${label} | ${noise} | ${set.length} | ${cells(set)}`);
for (const noise of ["clean", "noisy"] as const) {
  for (const vessel of VESSELS)
    line(
      vessel,
      noise,
      scored.filter((r) => r.vessel === vessel && r.noise === noise),
    );
  line(
    "all",
    noise,
    scored.filter((r) => r.noise === noise),
  );
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
console.log(
  `${ratio <= 1.5 ? "met   " : "MISSED"} mean stated ≤ 1.5 × the bound (${f(ratio, 2)}; Doppler-only bound: ${f(ratioOf(scored, "dopplerBound"), 2)})`,
);
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
console.log(
  `${cellsMissed.length ? "MISSED" : "met   "} every noise × split-index cell within 93–97 % and ≤ 1.5 × the bound${cellsMissed.length ? `: not ${cellsMissed.join(", ")}` : ""}`,
);

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
  console.log(
    `\nSingle-effort table (bench:accuracy's 120 sessions, 4 splits): clean sessions with every split within 0.1 s: ${f(clean)} %; noisy within 0.25 s: ${f(noisy)} %`,
  );
  console.log(`${clean >= 95 ? "met   " : "MISSED"} clean: every split within 0.1 s in ≥ 95 % of sessions`);
  console.log(`${noisy >= 95 ? "met   " : "MISSED"} noisy: every split within 0.25 s in ≥ 95 % of sessions`);
}
