/**
 * `npm run bench:svc`: speed and memory of decode + full processing
 * (docs/benchmarks.md). Sessions are simulated with long training efforts,
 * encoded with the development key, then decoded and processed repeatedly.
 * Run with --expose-gc (the npm script does) for clean memory figures.
 * Then: how the cost per minute grows from 5 to 120 minutes (one run, so one
 * load), the peak memory of a process that only decodes and processes the
 * 120-minute file, and a 90-minute interval practice.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { decryptAndInflate } from "./bench-svc-floor";
import { decodeSvc, encodeSvc } from "../server/svc/container";
import { loadKeyring } from "../server/svc/keyring";
import { processSvc } from "../server/svc/process/process";
import { simulateSession } from "../server/svc/simulator/simulate";
import { parseTrainingSpec, simulateTraining } from "../server/svc/simulator/training";
import { processTrainingSvc } from "../server/svc/process/training";

const keyring = loadKeyring({});
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

// `--memory FILE MINUTES`: the child process of the peak-memory figure: decode and process one file, print peak RSS.
if (process.argv[2] === "--memory") {
  const bytes = new Uint8Array(readFileSync(process.argv[3]));
  const minutes = Number(process.argv[4]);
  gc();
  const before = process.memoryUsage().rss;
  for (let r = 0; r < 3; r++) processSvc(bytes, { vessel: "K1", durationMs: Math.max(30_000, minutes * 60_000 - 50_000) }, keyring);
  console.log(JSON.stringify({ beforeRss: before, peakRss: process.resourceUsage().maxRSS * 1024 }));
  process.exit(0);
}

/** A recording of about `minutes`: a duration effort plus the simulator's idle and cool-down. */
function recording(minutes: number): Uint8Array {
  const effortMs = Math.max(30_000, minutes * 60_000 - 50_000);
  return encodeSvc(simulateSession({ vessel: "K1", durationMs: effortMs, seed: 4242 + minutes, pace: "training" }).content, keyring);
}

function median(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const rows: string[] = [];
const perMinute: Record<number, { wall: number; cpu: number; floor: number }> = {};
let longFile: Uint8Array = new Uint8Array();
for (const minutes of [1, 5, 30, 120]) {
  const bytes = recording(minutes);
  const samples = Math.round((minutes * 60_000) / 10); // 100 Hz
  const effortMs = Math.max(30_000, minutes * 60_000 - 50_000);
  const runs = minutes <= 5 ? 15 : 5;
  gc();
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const times: number[] = [];
  const cpuTimes: number[] = [];
  const floors: number[] = [];
  for (let r = 0; r < runs; r++) {
    let t0 = performance.now();
    decryptAndInflate(bytes, keyring);
    floors.push(performance.now() - t0);
    const c0 = cpuMs();
    t0 = performance.now();
    processSvc(bytes, { vessel: "K1", durationMs: effortMs }, keyring);
    times.push(performance.now() - t0);
    cpuTimes.push(cpuMs() - c0);
    peak = Math.max(peak, process.memoryUsage().rss);
  }
  const total = median(times);
  const floor = median(floors);
  perMinute[minutes] = { wall: total / minutes, cpu: median(cpuTimes) / minutes, floor: floor / minutes };
  if (minutes === 120) longFile = bytes;
  const imuSamples = samples;
  rows.push(
    `| ${minutes} min | ${(bytes.length / 1024).toFixed(0)} KiB | ${total.toFixed(1)} ms | ${(((imuSamples / total) * 1000) / 1e6).toFixed(2)} M/s | ${floor.toFixed(1)} ms | ${(((imuSamples / floor) * 1000) / 1e6).toFixed(1)} M/s | ${(total / minutes).toFixed(2)} ms | ${((peak - baseline) / 1048576).toFixed(0)} MiB | ${(peak / 1048576).toFixed(0)} MiB |`,
  );
  console.log(rows.at(-1));
}
console.log(`
| recording | file | decode + process (median) | IMU samples/s | decrypt + inflate only (floor) | floor samples/s | per minute of recording | RSS growth | peak RSS |
|---|---|---|---|---|---|---|---|---|
${rows.join("\n")}`);

// Growth of the cost per minute of recording, 5 → 120 minutes, within this one run (so at one load).
const growth = (key: "wall" | "cpu" | "floor") => (perMinute[120][key] / perMinute[5][key]).toFixed(2);
console.log(`
| per minute of recording | 5 min | 120 min | 120 min ÷ 5 min |
|---|---|---|---|
| decode + process, wall (median) | ${perMinute[5].wall.toFixed(2)} ms | ${perMinute[120].wall.toFixed(2)} ms | ${growth("wall")} × |
| decode + process, CPU of the process (median) | ${perMinute[5].cpu.toFixed(2)} ms | ${perMinute[120].cpu.toFixed(2)} ms | ${growth("cpu")} × |
| decrypt + inflate floor, wall (median) | ${perMinute[5].floor.toFixed(2)} ms | ${perMinute[120].floor.toFixed(2)} ms | ${growth("floor")} × |`);

// Peak memory of decoding and processing the 120-minute file alone: a fresh process that does only that (three times).
{
  const dir = mkdtempSync(path.join(os.tmpdir(), "bench-svc-"));
  try {
    const file = path.join(dir, "120.svc");
    writeFileSync(file, longFile);
    const child = JSON.parse(
      execFileSync(process.execPath, [...process.execArgv, process.argv[1], "--memory", file, "120"], { encoding: "utf8" })
        .trim()
        .split("\n")
        .at(-1)!,
    ) as { beforeRss: number; peakRss: number };
    const mib = (bytes: number) => `${(bytes / 1048576).toFixed(0)} MiB`;
    console.log(`
| 120-minute file, a process that only decodes and processes it (3 times) | RSS before | peak RSS | growth |
|---|---|---|---|
| ${(longFile.length / 1024).toFixed(0)} KiB | ${mib(child.beforeRss)} | ${mib(child.peakRss)} | ${mib(child.peakRss - child.beforeRss)} |`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// A 90-minute training (20 min warm-up, 10 × 1000 m with 3 min rests, 10 min cool-down), noisy, segmented with its template.
{
  const steps = parseTrainingSpec("10x1000m/180s")!;
  const bytes = encodeSvc(
    simulateTraining({ vessel: "K1", steps, seed: 90, noise: "noisy", warmupS: 1200, cooldownS: 600 }).content,
    keyring,
  );
  const minutes = decodeSvc(bytes, keyring).imu.total / 100 / 60;
  gc();
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const times: number[] = [];
  let sets = 0;
  // Seven runs: the first is the process's first training (segmentation not yet compiled), the median of the
  // last five is a server's steady state (two runs to warm up, as the sessions above get from their own runs).
  for (let r = 0; r < 7; r++) {
    const t0 = performance.now();
    sets = processTrainingSvc(bytes, { vessel: "K1", steps }, keyring).sets.length;
    times.push(performance.now() - t0);
    peak = Math.max(peak, process.memoryUsage().rss);
  }
  const steady = median(times.slice(2));
  console.log(`
| training recording | file | sets found | first run (cold) | decode + segment + process (median of 5 after 2 warm-up runs) | per minute of recording | RSS growth | peak RSS |
|---|---|---|---|---|---|---|---|
| ${minutes.toFixed(0)} min, 10x1000m/180s, noisy | ${(bytes.length / 1024).toFixed(0)} KiB | ${sets} | ${times[0].toFixed(0)} ms | ${steady.toFixed(0)} ms | ${(steady / minutes).toFixed(2)} ms | ${((peak - baseline) / 1048576).toFixed(0)} MiB | ${(peak / 1048576).toFixed(0)} MiB |`);
}
