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

/**
 * Ten practices per class and noise level (issue 19): reps of 20–60 s and
 * 200–400 m, 5–12 per practice, drifting rests (standing starts, turns,
 * positioning strokes) or light-paddling rests (rolling starts), two with a
 * crew that tires visibly.
 */
export const TRAINING_PRACTICES: { spec: string; rests: "drifting" | "paddling"; tiring?: boolean }[] = [
  { spec: "8x200m/60s", rests: "drifting" },
  { spec: "6x300m/90s", rests: "drifting" },
  { spec: "5x400m/120s", rests: "drifting" },
  { spec: "10x30s/45s", rests: "drifting" },
  { spec: "6x60s/90s", rests: "drifting" },
  { spec: "7x350m/100s", rests: "drifting", tiring: true },
  { spec: "12x20s/40s", rests: "paddling" },
  { spec: "8x250m/60s", rests: "paddling" },
  { spec: "6x45s/60s", rests: "paddling" },
  { spec: "9x40s/30s", rests: "drifting", tiring: true },
];

/** Rep length groups of the table. */
function repKind(spec: string): string {
  const [, value, unit] = /x(\d+)(m|s)/.exec(spec)!;
  return unit === "s" ? (Number(value) <= 30 ? "20–30 s" : "40–60 s") : Number(value) <= 250 ? "200–250 m" : "300–400 m";
}

interface Outcome {
  vessel: VesselType;
  rests: "drifting" | "paddling";
  reps: string;
  mode: "template" | "signal";
  countExact: boolean;
  /** Per truth work set: both boundaries within 1 s, start within 0.15 s, strokes within ±1 (false when no set was found for it). */
  boundaries: boolean[];
  starts: boolean[];
  strokes: boolean[];
  restStrokes: boolean[];
  noise: "clean" | "noisy";
  /** For BENCH_TRAINING_DETAIL: which practice, and what was found against the truth. */
  detail: string;
  failed?: string;
}

function score(
  vessel: VesselType,
  noise: Outcome["noise"],
  seed: number,
  practice: (typeof TRAINING_PRACTICES)[number],
  mode: Outcome["mode"],
  truth: TrainingSetTruth[],
  run: () => ProcessedTraining,
): Outcome {
  const outcome: Outcome = {
    vessel,
    rests: practice.rests,
    reps: repKind(practice.spec),
    mode,
    noise,
    countExact: false,
    detail: `${vessel} ${noise} seed ${seed} ${practice.spec} ${mode}`,
    boundaries: [],
    starts: [],
    strokes: [],
    restStrokes: [],
  };
  const truthWork = truth.filter((s) => s.kind === "work");
  try {
    const sets = run().sets;
    const work = sets.filter((s) => s.kind === "work");
    outcome.countExact = work.length === truthWork.length;
    outcome.detail += `: found ${work.map((s) => `${s.start_s.toFixed(1)}–${s.end_s.toFixed(1)} (${s.stroke_count})`).join(", ")}; truth ${truthWork.map((s) => `${s.start_s.toFixed(1)}–${s.end_s.toFixed(1)} (${s.stroke_count})`).join(", ")}`;
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
      for (const practice of TRAINING_PRACTICES) {
        for (let s = 0; s < seedsPerCell; s++) {
          const steps = parseTrainingSpec(practice.spec)!;
          const sim = simulateTraining({ vessel, steps, seed: ++seed, noise, rests: practice.rests, tiring: practice.tiring });
          const bytes = encodeSvc(sim.content, keyring);
          outcomes.push(
            score(vessel, noise, seed, practice, "template", sim.truth.sets, () => processTrainingSvc(bytes, { vessel, steps }, keyring)),
          );
          outcomes.push(
            score(vessel, noise, seed, practice, "signal", sim.truth.sets, () => processTrainingSvc(bytes, { vessel }, keyring)),
          );
        }
      }
    }
  }
  const pct = (values: boolean[]) => (values.length ? `${((100 * values.filter(Boolean).length) / values.length).toFixed(1)} %` : "—");
  const lines = [
    `${outcomes.length / 2} simulated trainings (6 classes × clean/noisy × ${TRAINING_PRACTICES.map((p) => `${p.spec} ${p.rests}${p.tiring ? " tiring" : ""}`).join(", ")}; ${seedsPerCell} seed per cell), each processed with its template and on the signal alone; ${((performance.now() - started) / 1000).toFixed(0)} s`,
    "",
    "| group | mode | trainings | failed | set count exact | work sets | boundaries ≤ 1 s | start ≤ 0.15 s | set strokes ±1 | rest strokes ±1 |",
    "|---|---|---|---|---|---|---|---|---|---|",
  ];
  const groups: [string, (o: Outcome) => boolean][] = [
    ...VESSELS.map((v): [string, (o: Outcome) => boolean] => [v, (o) => o.vessel === v]),
    ["clean", (o) => o.noise === "clean"],
    ["noisy", (o) => o.noise === "noisy"],
    ["drifting rests", (o) => o.rests === "drifting"],
    ["paddling rests", (o) => o.rests === "paddling"],
    ...["20–30 s", "40–60 s", "200–250 m", "300–400 m"].map((r): [string, (o: Outcome) => boolean] => [`reps ${r}`, (o) => o.reps === r]),
    ["all", () => true],
  ];
  for (const mode of ["template", "signal"] as const) {
    for (const [group, member] of groups) {
      const set = outcomes.filter((o) => o.mode === mode && member(o));
      lines.push(
        `| ${group} | ${mode} | ${set.length} | ${set.filter((o) => o.failed).length} | ${pct(set.map((o) => o.countExact))} | ${set.reduce((n, o) => n + o.boundaries.length, 0)} | ${pct(set.flatMap((o) => o.boundaries))} | ${pct(set.flatMap((o) => o.starts))} | ${pct(set.flatMap((o) => o.strokes))} | ${pct(set.flatMap((o) => o.restStrokes))} |`,
      );
    }
  }
  const ratio = (values: boolean[]) => (100 * values.filter(Boolean).length) / Math.max(1, values.length);
  lines.push("");
  for (const mode of ["template", "signal"] as const) {
    const set = outcomes.filter((o) => o.mode === mode);
    lines.push(
      `${ratio(set.flatMap((o) => o.boundaries)) >= 95 ? "met   " : "MISSED"} ${mode}: set boundaries within 1 s in ≥ 95 % of sets`,
    );
    lines.push(`${ratio(set.map((o) => o.countExact)) >= 98 ? "met   " : "MISSED"} ${mode}: set count exact in ≥ 98 % of trainings`);
    lines.push(
      `${ratio(set.flatMap((o) => o.strokes)) >= 98 ? "met   " : "MISSED"} ${mode}: per-set stroke count within ±1 in ≥ 98 % of work sets`,
    );
  }
  for (const o of outcomes.filter((o) => o.failed)) lines.push(`failed: ${o.vessel} ${o.mode}: ${o.failed}`);
  if (process.env.BENCH_TRAINING_DETAIL)
    for (const o of outcomes.filter((o) => !o.countExact || o.boundaries.some((b) => !b) || o.strokes.some((b) => !b)))
      lines.push(`miss: ${o.detail}`);
  return lines;
}
