/**
 * The trainings table of `npm run bench:accuracy` (docs/benchmarks.md):
 * interval practices simulated for every class, clean and noisy, processed
 * with their template and on the signal alone, against the truth per set.
 */
import { encodeSvc } from "../../server/svc/container";
import { loadKeyring } from "../../server/svc/keyring";
import { processTrainingSvc, type ProcessedTraining } from "../../server/svc/process/training";
import { parseTrainingSpec, simulateTraining, type TrainingSetTruth } from "../../server/svc/simulator/training";
import type { VesselType } from "../../server/svc/types";

const VESSELS: VesselType[] = ["K1", "K2", "K4", "C1", "C2", "C4"];
export const TRAINING_SPECS = ["6x500m/120s", "10x60s/60s", "3x1000m/200m", "8x100m/45s"];

interface Outcome {
  vessel: VesselType;
  mode: "template" | "signal";
  countExact: boolean;
  /** Per truth work set: both boundaries within 1 s, start within 0.15 s, strokes within ±1 (false when no set was found for it). */
  boundaries: boolean[];
  starts: boolean[];
  strokes: boolean[];
  restStrokes: boolean[];
  failed?: string;
}

function score(vessel: VesselType, mode: Outcome["mode"], truth: TrainingSetTruth[], run: () => ProcessedTraining): Outcome {
  const outcome: Outcome = { vessel, mode, countExact: false, boundaries: [], starts: [], strokes: [], restStrokes: [] };
  const truthWork = truth.filter((s) => s.kind === "work");
  try {
    const sets = run().sets;
    const work = sets.filter((s) => s.kind === "work");
    outcome.countExact = work.length === truthWork.length;
    for (const expected of truthWork) {
      const found = work.find((s) => Math.abs(s.start_s - expected.start_s) < 5);
      outcome.boundaries.push(!!found && Math.abs(found.start_s - expected.start_s) <= 1 && Math.abs(found.end_s - expected.end_s) <= 1);
      outcome.starts.push(!!found && Math.abs(found.start_s - expected.start_s) <= 0.15);
      outcome.strokes.push(!!found && Math.abs(found.stroke_count - expected.stroke_count) <= 1);
    }
    for (const expected of truth.filter((s) => s.kind === "rest")) {
      const found = sets.find((s) => s.kind === "rest" && Math.abs(s.start_s - expected.start_s) < 5);
      outcome.restStrokes.push(!!found && Math.abs(found.stroke_count - expected.stroke_count) <= 1);
    }
  } catch (error) {
    outcome.failed = (error as Error).message;
    outcome.boundaries = truthWork.map(() => false);
    outcome.starts = truthWork.map(() => false);
    outcome.strokes = truthWork.map(() => false);
  }
  return outcome;
}

export function trainingAccuracy(seedsPerCell: number): string[] {
  const keyring = loadKeyring({});
  const outcomes: Outcome[] = [];
  let seed = 5000;
  const started = performance.now();
  for (const vessel of VESSELS) {
    for (const noise of ["clean", "noisy"] as const) {
      for (const spec of TRAINING_SPECS) {
        for (let s = 0; s < seedsPerCell; s++) {
          const steps = parseTrainingSpec(spec)!;
          const sim = simulateTraining({ vessel, steps, seed: ++seed, noise });
          const bytes = encodeSvc(sim.content, keyring);
          outcomes.push(score(vessel, "template", sim.truth.sets, () => processTrainingSvc(bytes, { vessel, steps }, keyring)));
          outcomes.push(score(vessel, "signal", sim.truth.sets, () => processTrainingSvc(bytes, { vessel }, keyring)));
        }
      }
    }
  }
  const pct = (values: boolean[]) => (values.length ? `${((100 * values.filter(Boolean).length) / values.length).toFixed(1)} %` : "—");
  const lines = [
    `${outcomes.length / 2} simulated trainings (6 classes × clean/noisy × ${TRAINING_SPECS.join(", ")}; ${seedsPerCell} seed per cell), each processed with its template and on the signal alone; ${((performance.now() - started) / 1000).toFixed(0)} s`,
    "",
    "| class | mode | trainings | failed | set count exact | work sets | boundaries ≤ 1 s | start ≤ 0.15 s | set strokes ±1 | rest strokes ±1 |",
    "|---|---|---|---|---|---|---|---|---|---|",
  ];
  for (const mode of ["template", "signal"] as const) {
    for (const group of [...VESSELS, "all"] as const) {
      const set = outcomes.filter((o) => o.mode === mode && (group === "all" || o.vessel === group));
      lines.push(
        `| ${group} | ${mode} | ${set.length} | ${set.filter((o) => o.failed).length} | ${pct(set.map((o) => o.countExact))} | ${set.reduce((n, o) => n + o.boundaries.length, 0)} | ${pct(set.flatMap((o) => o.boundaries))} | ${pct(set.flatMap((o) => o.starts))} | ${pct(set.flatMap((o) => o.strokes))} | ${pct(set.flatMap((o) => o.restStrokes))} |`,
      );
    }
  }
  const ratio = (values: boolean[]) => (100 * values.filter(Boolean).length) / Math.max(1, values.length);
  lines.push("");
  for (const mode of ["template", "signal"] as const) {
    const set = outcomes.filter((o) => o.mode === mode);
    lines.push(`${ratio(set.flatMap((o) => o.boundaries)) >= 95 ? "met   " : "MISSED"} ${mode}: set boundaries within 1 s in ≥ 95 % of sets`);
    lines.push(`${ratio(set.map((o) => o.countExact)) >= 98 ? "met   " : "MISSED"} ${mode}: set count exact in ≥ 98 % of trainings`);
    lines.push(`${ratio(set.flatMap((o) => o.strokes)) >= 98 ? "met   " : "MISSED"} ${mode}: per-set stroke count within ±1 in ≥ 98 % of work sets`);
  }
  for (const o of outcomes.filter((o) => o.failed)) lines.push(`failed: ${o.vessel} ${o.mode}: ${o.failed}`);
  return lines;
}
