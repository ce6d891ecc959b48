import type { z } from "zod";
import { ResultsApiError } from "./errors";
import { describeZodError } from "./errors";

/** Parses the query string with a zod schema; a failure is a 400 naming the parameter. */
export function parseQuery<S extends z.ZodType>(schema: S, url: URL): z.output<S> {
  const raw: Record<string, string> = {};
  for (const [name, value] of url.searchParams) {
    if (name in raw) throw new ResultsApiError("invalid_request", `${name}: given more than once`);
    raw[name] = value;
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new ResultsApiError("invalid_request", describeZodError(parsed.error));
  return parsed.data;
}

/** A path id: a positive 32-bit integer, else 400. */
export function parsePathId(value: string, name = "id"): number {
  if (!/^[1-9]\d{0,9}$/.test(value) || Number(value) > 2_147_483_647) {
    throw new ResultsApiError("invalid_request", `${name} must be a positive integer`);
  }
  return Number(value);
}
