import fs from "node:fs";
import { encodeSvc } from "../container";
import { loadKeyring } from "../keyring";
import { simulateSession } from "../simulator/simulate";
import { parseTrainingSpec, simulateTraining } from "../simulator/training";
import { CliUsageError, effortArgs, parse, templateArg, vesselArg } from "./args";

export async function runSimulate(argv: string[]) {
  const { values: raw } = parse(argv, {
    vessel: { type: "string" },
    distance: { type: "string" },
    "duration-ms": { type: "string" },
    training: { type: "string" },
    template: { type: "string" },
    seed: { type: "string" },
    out: { type: "string" },
    truth: { type: "string" },
    pace: { type: "string" },
    noise: { type: "string" },
    rests: { type: "string" },
    tiring: { type: "boolean" },
    start: { type: "string" },
  });
  const tiring = raw.tiring === true;
  const values = { ...raw, tiring: undefined } as Record<string, string | undefined>; // every other option here is a string option
  const vessel = vesselArg(values.vessel);
  const seed = Number(values.seed ?? 1);
  if (!Number.isInteger(seed) || seed < 0) throw new CliUsageError("--seed must be a non-negative integer");
  if (!values.out) throw new CliUsageError("--out FILE is required");
  if (values.pace && values.pace !== "race" && values.pace !== "training") throw new CliUsageError("--pace must be race or training");
  if (values.noise && values.noise !== "clean" && values.noise !== "noisy") throw new CliUsageError("--noise must be clean or noisy");
  const noise = values.noise as "clean" | "noisy" | undefined;
  // Simulated files are always sealed with the development key (id 0).
  const keyring = loadKeyring({});
  const startUnixMs = startArg(values.start);
  /** The recording's start on the unit's clock: the simulator's fixed date from the seed, or --start. */
  const dated = <C extends { header: { startUnixMs: number } }>(content: C): C =>
    startUnixMs === null ? content : { ...content, header: { ...content.header, startUnixMs } };

  if (values.training !== undefined || values.template !== undefined) {
    if (values.distance !== undefined || values["duration-ms"] !== undefined || values.pace !== undefined)
      throw new CliUsageError("--training and --template take no --distance, --duration-ms or --pace");
    if (values.training !== undefined && values.template !== undefined)
      throw new CliUsageError("give one of --training SPEC and --template FILE");
    const rests = values.rests;
    if (rests !== undefined && rests !== "drifting" && rests !== "paddling" && rests !== "mixed")
      throw new CliUsageError("--rests must be drifting, paddling or mixed");
    const steps = values.training !== undefined ? parseTrainingSpec(values.training) : templateArg(values.template!).steps;
    if (!steps) throw new CliUsageError('--training must look like "6x500m/120s" (pieces by distance) or "10x60s/60s" (pieces by time)');
    const simulation = simulateTraining({ vessel, seed, noise, steps, rests, tiring });
    fs.writeFileSync(values.out, encodeSvc(dated(simulation.content), keyring));
    if (values.truth) fs.writeFileSync(values.truth, `${JSON.stringify(simulation.truth, null, 2)}\n`);
    const work = simulation.truth.sets.filter((s) => s.kind === "work");
    return {
      out: values.out,
      truth: values.truth ?? null,
      sets: simulation.truth.sets.length,
      work_sets: work.length,
      first_start_s: work[0].start_s,
      last_end_s: work[work.length - 1].end_s,
      duration_s: simulation.content.imu.total / simulation.content.header.imuHz,
    };
  }

  if (values.rests !== undefined || tiring) throw new CliUsageError("--rests and --tiring need --training or --template");
  const effort = effortArgs(values);
  const simulation = simulateSession({ vessel, seed, pace: values.pace as "race" | "training" | undefined, noise, ...effort });
  fs.writeFileSync(values.out, encodeSvc(dated(simulation.content), keyring));
  if (values.truth) fs.writeFileSync(values.truth, `${JSON.stringify(simulation.truth, null, 2)}\n`);
  return {
    out: values.out,
    truth: values.truth ?? null,
    start: new Date(dated(simulation.content).header.startUnixMs).toISOString(),
    effort_start_s: simulation.truth.effort_start_s,
    strokes: simulation.truth.catches.length,
    duration_ms: simulation.truth.duration_ms,
  };
}

/** How long before "now" a `--start now` recording begins: the whole of any simulated effort has then ended. */
export const START_NOW_LEAD_MS = 10 * 60_000;

/**
 * `--start`: `now` (ten minutes ago, to the minute, so a file made for today's tests is dated today and
 * lands on the first page of both APIs' newest-first lists) or a date-time with `Z` or an offset;
 * absent, the simulator's fixed date (2026-05-10 plus the seed's hours), which keeps files reproducible.
 */
function startArg(value: string | undefined, now = Date.now()): number | null {
  if (value === undefined) return null;
  if (value === "now") return Math.floor((now - START_NOW_LEAD_MS) / 60_000) * 60_000;
  const ms = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(value) ? Date.parse(value) : NaN;
  if (Number.isNaN(ms)) throw new CliUsageError("--start must be now or a date-time with Z or an offset, e.g. 2026-12-04T08:00:00Z");
  return ms;
}
