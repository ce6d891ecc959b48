import fs from "node:fs";
import { inspectTemplateText, type NormalizedTemplate } from "../../workouts/template";
import { parseArgs } from "node:util";
import type { VesselType } from "../types";

export class CliUsageError extends Error {}

const VESSELS: VesselType[] = ["K1", "K2", "K4", "C1", "C2", "C4"];

export function parse(argv: string[], options: Record<string, { type: "string" | "boolean" }>) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new CliUsageError((error as Error).message);
  }
}

export function vesselArg(value: string | undefined): VesselType {
  if (!value || !VESSELS.includes(value as VesselType)) throw new CliUsageError(`--vessel must be one of ${VESSELS.join(", ")}`);
  return value as VesselType;
}

/** Exactly one of --distance (50–1000 m) and --duration-ms (1–300000). */
export function effortArgs(values: { distance?: string; "duration-ms"?: string }): { distanceM?: number; durationMs?: number } {
  const hasDistance = values.distance !== undefined;
  if (hasDistance === (values["duration-ms"] !== undefined)) throw new CliUsageError("give exactly one of --distance and --duration-ms");
  if (hasDistance) {
    const distanceM = Number(values.distance);
    if (!Number.isInteger(distanceM) || distanceM < 50 || distanceM > 1000)
      throw new CliUsageError("--distance must be an integer from 50 to 1000");
    return { distanceM };
  }
  const durationMs = Number(values["duration-ms"]);
  if (!Number.isInteger(durationMs) || durationMs < 1 || durationMs > 300_000)
    throw new CliUsageError("--duration-ms must be an integer from 1 to 300000");
  return { durationMs };
}

/** A version-1 workout template file; every problem is reported on one line. */
export function templateArg(file: string): NormalizedTemplate {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    throw new CliUsageError(`--template: cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  const inspection = inspectTemplateText(text);
  if (!inspection.valid)
    throw new CliUsageError(
      `--template: not a valid version-1 workout template: ${inspection.problems.map((p) => `${p.path}: ${p.message}`).join("; ")}`,
    );
  return inspection.template;
}
