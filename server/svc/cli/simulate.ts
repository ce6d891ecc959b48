import fs from "node:fs";
import { encodeSvc } from "../container";
import { loadKeyring } from "../keyring";
import { simulateSession } from "../simulator/simulate";
import { CliUsageError, effortArgs, parse, vesselArg } from "./args";

export async function runSimulate(argv: string[]) {
  const { values: raw } = parse(argv, {
    vessel: { type: "string" },
    distance: { type: "string" },
    "duration-ms": { type: "string" },
    seed: { type: "string" },
    out: { type: "string" },
    truth: { type: "string" },
    pace: { type: "string" },
    noise: { type: "string" },
  });
  const values = raw as Record<string, string | undefined>; // every option here is a string option
  const vessel = vesselArg(values.vessel);
  const effort = effortArgs(values);
  const seed = Number(values.seed ?? 1);
  if (!Number.isInteger(seed) || seed < 0) throw new CliUsageError("--seed must be a non-negative integer");
  if (!values.out) throw new CliUsageError("--out FILE is required");
  if (values.pace && values.pace !== "race" && values.pace !== "training") throw new CliUsageError("--pace must be race or training");
  if (values.noise && values.noise !== "clean" && values.noise !== "noisy") throw new CliUsageError("--noise must be clean or noisy");
  const simulation = simulateSession({ vessel, seed, pace: values.pace as "race" | "training" | undefined, noise: values.noise as "clean" | "noisy" | undefined, ...effort });
  // Simulated files are always sealed with the development key (id 0).
  fs.writeFileSync(values.out, encodeSvc(simulation.content, loadKeyring({})));
  if (values.truth) fs.writeFileSync(values.truth, `${JSON.stringify(simulation.truth, null, 2)}\n`);
  return { out: values.out, truth: values.truth ?? null, effort_start_s: simulation.truth.effort_start_s, strokes: simulation.truth.catches.length, duration_ms: simulation.truth.duration_ms };
}
