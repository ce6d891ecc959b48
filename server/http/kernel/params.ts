import { z } from "zod";
import { FORBIDDEN_CHARACTERS_MESSAGE, hasForbiddenCharacters, INT4_MAX } from "../../contract/values";

/**
 * Parameter schemas of both APIs, one copy (issue 14, defect 1): every value
 * that reaches SQL is bounded here, so hostile input is a 400 naming the
 * parameter and never a database error. Integers are bounded to their
 * column's type (int4 ids: 1..2147483647), strings may not hold NUL or
 * unpaired surrogates (Postgres text cannot store NUL), dates are real
 * calendar dates. Query and path values arrive as strings; each schema
 * documents itself as what it parses to (`integer`, `boolean`, …). The
 * value rules themselves are server/contract/values.ts, shared with the
 * upload and training forms.
 */

/** An integer within [min, max]; the message names the parameter. */
export function intParam(name: string, min: number, max: number, message = `${name} must be an integer from ${min} to ${max}`) {
  return z
    .string()
    .regex(/^-?\d{1,16}$/, message)
    .transform(Number)
    .refine((n) => n >= min && n <= max, message)
    .meta({ type: "integer", minimum: min, maximum: max } as Record<string, unknown>);
}

/** A row id (int4 serial): 1..2147483647. */
export const idParam = (name: string) => intParam(name, 1, INT4_MAX, `${name} must be a positive integer, at most ${INT4_MAX}`);

/** Free text: at most `max` characters, no NUL or unpaired surrogate. */
export const textParam = (name: string, max = 64) =>
  z
    .string()
    .max(max, `${name} must be at most ${max} characters`)
    .refine((v) => !hasForbiddenCharacters(v), `${name} ${FORBIDDEN_CHARACTERS_MESSAGE}`);

/** A calendar date: 2021-02-29 and 2020-02-30 are refused. */
export const dateParam = (name: string) => z.iso.date(`${name} must be a calendar date YYYY-MM-DD`);

/**
 * An ISO 8601 date-time with a T separator, minutes or seconds, optional
 * fraction, optional `Z` or ±hh:mm offset; the calendar date and the clock
 * time must exist, and an offset stays within ±14:00 (the widest in use).
 */
export const dateTimeParam = (name: string) =>
  z.iso
    .datetime({ local: true, offset: true, error: `${name} must be an ISO 8601 date-time with a T separator, e.g. 2025-10-13T11:30` })
    .refine((v) => {
      const offset = /([+-])(\d{2}):(\d{2})$/.exec(v);
      return !offset || Number(offset[2]) * 60 + Number(offset[3]) <= 14 * 60;
    }, `${name}: the UTC offset must be within ±14:00`);

/**
 * `true` or `false` in the query, a boolean to the handler. Documented as the
 * specification's `boolean` (a form-style query value, written true or false):
 * a string check rather than an enum, whose `enum: ["true", "false"]` no
 * boolean would satisfy.
 */
export const booleanParam = (name: string) =>
  z
    .string()
    .refine((v) => v === "true" || v === "false", `${name} must be true or false`)
    .transform((v) => v === "true")
    .meta({ type: "boolean" } as Record<string, unknown>);

export const enumParam = <const T extends readonly [string, ...string[]]>(name: string, values: T) =>
  z.enum(values, { error: `${name} must be one of ${values.join(", ")}` });

/** A decimal number within [min, max] (plain notation, up to 6 decimals); the message names the parameter. */
export const numberParam = (name: string, min: number, max: number) => {
  const message = `${name} must be a number from ${min} to ${max}`;
  return z
    .string()
    .regex(/^-?\d{1,6}(\.\d{1,6})?$/, message)
    .transform(Number)
    .refine((n) => n >= min && n <= max, message)
    .meta({ type: "number", minimum: min, maximum: max } as Record<string, unknown>);
};
