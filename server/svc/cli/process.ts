import fs from "node:fs";
import { getKeyring } from "../keyring";
import { processSvc } from "../process/process";
import { computeSplits } from "../process/track";
import { CliUsageError, effortArgs, parse, vesselArg } from "./args";

export async function runProcess(argv: string[]) {
  const { values: raw, positionals } = parse(argv, { vessel: { type: "string" }, distance: { type: "string" }, "duration-ms": { type: "string" }, splits: { type: "string" } });
  const values = raw as Record<string, string | undefined>; // every option here is a string option
  if (positionals.length !== 1) throw new CliUsageError("usage: svc process FILE --vessel K1|K2|K4|C1|C2|C4 (--distance M | --duration-ms MS) [--splits N]");
  const vessel = vesselArg(values.vessel);
  const effort = effortArgs(values);
  const splitCount = values.splits === undefined ? 4 : Number(values.splits);
  if (!Number.isInteger(splitCount) || splitCount < 1 || splitCount > 20) throw new CliUsageError("--splits must be an integer from 1 to 20");
  const processed = processSvc(fs.readFileSync(positionals[0]), { vessel, ...effort }, getKeyring());
  return {
    effort: processed.effort,
    strokes: processed.strokes,
    splits: computeSplits(processed.track, processed.strokes, splitCount).map((s) => ({ distance_m: s.distance_m, time_s: s.time_s, speed: s.speed, rate: s.rate })),
    summary: processed.summary,
    data_quality: processed.data_quality,
  };
}
