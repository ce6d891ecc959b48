/**
 * `npm run bench:analytics`: time of each session analysis (docs/analytics.md)
 * on a simulated 5-minute and 60-minute effort, median of repeated runs after
 * a warm-up. The analyses are pure, so this is their whole cost; reading the
 * strokes from the database is the Data API's fixed per-request part.
 */
import { ANALYSIS_NAMES, DEFAULT_OPTIONS, runAnalysis } from "../../server/analytics";
import { analysisInputFromProcessed } from "../../server/analytics/load-input";
import { encodeSvc } from "../../server/svc/container";
import { loadKeyring } from "../../server/svc/keyring";
import { processSvc } from "../../server/svc/process/process";
import { simulateSession } from "../../server/svc/simulator/simulate";

const keyring = loadKeyring({});
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const columns: { minutes: number; strokes: number; times: Map<string, number> }[] = [];
for (const minutes of [5, 60]) {
  const durationMs = minutes * 60_000;
  const simulation = simulateSession({ vessel: "K1", durationMs, seed: 700 + minutes, pace: "training", noise: "noisy" });
  const processed = processSvc(encodeSvc(simulation.content, keyring), { vessel: "K1", durationMs }, keyring);
  const input = analysisInputFromProcessed(processed, true);
  const times = new Map<string, number>();
  const runs = minutes <= 5 ? 50 : 10;
  for (const name of ANALYSIS_NAMES) {
    for (let w = 0; w < 3; w++) runAnalysis(name, input, DEFAULT_OPTIONS);
    const samples: number[] = [];
    for (let r = 0; r < runs; r++) {
      const t0 = performance.now();
      const outcome = runAnalysis(name, input, DEFAULT_OPTIONS);
      samples.push(performance.now() - t0);
      if (outcome.status !== "ok") throw new Error(`${name} on ${minutes} min: ${outcome.reason}`);
    }
    times.set(name, median(samples));
  }
  columns.push({ minutes, strokes: input.strokes.length, times });
}

console.log(`| analysis | ${columns.map((c) => `${c.minutes} min (${c.strokes} strokes), ms`).join(" | ")} |`);
console.log(`|---|${columns.map(() => "---:").join("|")}|`);
for (const name of ANALYSIS_NAMES) console.log(`| ${name} | ${columns.map((c) => c.times.get(name)!.toFixed(2)).join(" | ")} |`);
const worst5 = Math.max(...columns[0].times.values());
console.log(`\nslowest analysis on 5 minutes: ${worst5.toFixed(2)} ms (target < 50 ms): ${worst5 < 50 ? "met" : "NOT met"}`);
