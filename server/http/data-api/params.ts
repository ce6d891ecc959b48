import { z } from "zod";
import { intParam } from "./pagination";

/** Query parameter schemas shared by Data API operations; every message names its parameter. */
export const idQuery = (name: string) => intParam(name, 1, 2_147_483_647);
export const dateQuery = (name: string) => z.iso.date(`${name} must be a date YYYY-MM-DD`);
export const textQuery = (name: string, max = 64) => z.string().max(max, `${name} must be at most ${max} characters`);
export const booleanQuery = (name: string) =>
  z.enum(["true", "false"], { error: `${name} must be true or false` }).transform((v) => v === "true").meta({ type: "boolean" } as Record<string, unknown>);
export const enumQuery = <const T extends readonly [string, ...string[]]>(name: string, values: T) => z.enum(values, { error: `${name} must be one of ${values.join(", ")}` });
