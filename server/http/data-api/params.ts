import { z } from "zod";
import { intParam } from "./pagination";

/** Query parameter schemas shared by Data API operations; every message names its parameter. */
export const idQuery = (name: string) => intParam(name, 1, 2_147_483_647);
export const dateQuery = (name: string) => z.iso.date(`${name} must be a date YYYY-MM-DD`);
export const textQuery = (name: string, max = 64) => z.string().max(max, `${name} must be at most ${max} characters`);
export const booleanQuery = (name: string) =>
  z.enum(["true", "false"], { error: `${name} must be true or false` }).transform((v) => v === "true").meta({ type: "boolean" } as Record<string, unknown>);
export const enumQuery = <const T extends readonly [string, ...string[]]>(name: string, values: T) => z.enum(values, { error: `${name} must be one of ${values.join(", ")}` });

/** A decimal query parameter within [min, max]; the message names the parameter. */
export const numberQuery = (name: string, min: number, max: number) => {
  const message = `${name} must be a number from ${min} to ${max}`;
  return z
    .string()
    .regex(/^-?\d{1,6}(\.\d{1,6})?$/, message)
    .transform(Number)
    .refine((n) => n >= min && n <= max, message)
    .meta({ type: "number", minimum: min, maximum: max } as Record<string, unknown>);
};
