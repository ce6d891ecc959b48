import fs from "node:fs";
import { getKeyring } from "../../config/keyring";
import { processSvc } from "../process/process";
import { SENSITIVITY } from "../process/sets";
import { computeSplits, isSplitCount, SPLIT_COUNT, SPLIT_COUNT_RULE } from "../process/track";
import { processTrainingSvc } from "../process/training";
import { CliUsageError, effortArgs, parse, templateArg, vesselArg } from "./args";

const USAGE =
  "usage: svc process FILE --vessel K1|K2|K4|C1|C2|C4 (--distance M | --duration-ms MS | --training [--template T.json] [--sensitivity S]) [--splits N]";

export async function runProcess(argv: string[]) {
  const { values: raw, positionals } = parse(argv, {
    vessel: { type: "string" },
    distance: { type: "string" },
    "duration-ms": { type: "string" },
    splits: { type: "string" },
    training: { type: "boolean" },
    template: { type: "string" },
    sensitivity: { type: "string" },
  });
  const values = raw as Record<string, string | boolean | undefined>;
  const text = (name: string) => values[name] as string | undefined;
  if (positionals.length !== 1) throw new CliUsageError(USAGE);
  const vessel = vesselArg(text("vessel"));
  const splitCount = text("splits") === undefined ? SPLIT_COUNT.default : Number(text("splits"));
  if (!isSplitCount(splitCount)) throw new CliUsageError(`--splits ${SPLIT_COUNT_RULE}`);
  const splitsOf = (processed: Parameters<typeof computeSplits>[0], strokes: Parameters<typeof computeSplits>[1]) =>
    computeSplits(processed, strokes, splitCount).map((s) => ({
      distance_m: s.distance_m,
      time_s: s.time_s,
      time_uncertainty_s: s.time_uncertainty_s,
      speed: s.speed,
      rate: s.rate,
    }));

  if (values.training) {
    if (text("distance") !== undefined || text("duration-ms") !== undefined)
      throw new CliUsageError("--training takes no --distance or --duration-ms: the sets come from the recording (and the template)");
    const sensitivity = text("sensitivity") === undefined ? SENSITIVITY.default : Number(text("sensitivity"));
    if (!Number.isFinite(sensitivity) || sensitivity < SENSITIVITY.min || sensitivity > SENSITIVITY.max)
      throw new CliUsageError(`--sensitivity must be a number from ${SENSITIVITY.min} to ${SENSITIVITY.max}`);
    const template = text("template") === undefined ? undefined : templateArg(text("template")!);
    const processed = processTrainingSvc(fs.readFileSync(positionals[0]), { vessel, steps: template?.steps, sensitivity }, getKeyring());
    return {
      effort: processed.effort,
      strokes: processed.strokes,
      splits: splitsOf(processed.track, processed.strokes),
      summary: processed.summary,
      data_quality: processed.data_quality,
      sets: processed.sets.map((s) => ({
        kind: s.kind,
        start_s: s.start_s,
        end_s: s.end_s,
        distance_m: s.distance_m,
        stroke_count: s.stroke_count,
      })),
      ...(processed.template_match ? { template_match: processed.template_match } : {}),
    };
  }
  if (text("template") !== undefined || text("sensitivity") !== undefined)
    throw new CliUsageError("--template and --sensitivity need --training");
  const effort = effortArgs({ distance: text("distance"), "duration-ms": text("duration-ms") });
  const processed = processSvc(fs.readFileSync(positionals[0]), { vessel, ...effort }, getKeyring());
  return {
    effort: processed.effort,
    strokes: processed.strokes,
    splits: splitsOf(processed.track, processed.strokes),
    summary: processed.summary,
    data_quality: processed.data_quality,
  };
}
