import { and, eq, inArray } from "drizzle-orm";
import { athleteAccessible, trackAccessible } from "../access/access";
import type { Db } from "../db/client";
import { athletes, categories, paces, tracks, vessels } from "../db/schema";
import { AppError } from "../errors";
import { FORBIDDEN_CHARACTERS_MESSAGE, hasForbiddenCharacters, INT4_MAX } from "../contract/values";
import type { SessionUser } from "../users/users";

/**
 * Upload metadata rules (docs/results-api.md "POST /results"). Parsed by hand
 * rather than with a zod union so that each rule has its own precise message.
 */
export type CrewEntry =
  { kind: "internal"; athleteId: number } | { kind: "external"; name: string; surname: string; weightKg: number | null };

export interface UploadMetadata {
  distanceM: number | null;
  durationMs: number | null;
  vesselId: number;
  trackId: number;
  categoryId: number;
  paceId: number;
  crew: CrewEntry[];
  competition: string;
  description: string;
  important: boolean;
  meteo: {
    windSpeedMS: number | null;
    windDirectionDeg: number | null;
    airTemperatureC: number | null;
    waterTemperatureC: number | null;
  } | null;
}

/** A 400 whose message names the field; the upload page shows it next to that field. */
const FIELDS = new Set([
  "distance",
  "duration_ms",
  "vessel_id",
  "track_id",
  "category_id",
  "pace_id",
  "athletes",
  "competition",
  "description",
  "important",
  "meteo",
]);
const invalid = (message: string) => {
  const field = /^([a-z_]+)(\[\d+\])?/.exec(message);
  const key = field && FIELDS.has(field[1]) ? field[0] : message.includes("duration_ms") ? "distance" : undefined;
  return new AppError("invalid", message, key ? { [key]: [message] } : undefined);
};
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isInt = (v: unknown): v is number => typeof v === "number" && Number.isInteger(v);

function numberInRange(value: unknown, name: string, min: number, max: number, integer: boolean): number {
  if (typeof value !== "number" || !Number.isFinite(value) || (integer && !Number.isInteger(value))) {
    throw invalid(`${name} must be ${integer ? "an integer" : "a number"}`);
  }
  if (value < min || value > max) throw invalid(`${name} must be between ${min} and ${max}`);
  return value;
}

/** Text that Postgres can store as sent: no NUL, no unpaired surrogate (issue 14, defect 1). */
function checkedText(value: string, name: string): string {
  if (hasForbiddenCharacters(value)) throw invalid(`${name} ${FORBIDDEN_CHARACTERS_MESSAGE}`);
  return value;
}

function optionalText(value: unknown, name: string): string {
  if (value === undefined || value === null) return "";
  if (typeof value !== "string") throw invalid(`${name} must be a string`);
  if ([...value].length > 64) throw invalid(`${name} must be at most 64 characters`);
  return checkedText(value, name);
}

/** Ids are int4 columns: 1..2147483647. */
const isId = (v: unknown): v is number => isInt(v) && v >= 1 && v <= INT4_MAX;

function requiredId(value: unknown, name: string): number {
  if (value === undefined || value === null) throw invalid(`${name} is required`);
  if (!isId(value)) throw invalid(`${name} must be a positive integer, at most ${INT4_MAX}`);
  return value;
}

function crewEntry(entry: unknown, index: number): CrewEntry {
  const at = `athletes[${index}]`;
  if (isId(entry)) return { kind: "internal", athleteId: entry };
  if (isInt(entry) && entry > INT4_MAX) throw invalid(`${at} must be an athlete id (at most ${INT4_MAX}) or an object`);
  if (!isObject(entry)) throw invalid(`${at} must be an athlete id or an object`);
  if (entry.id !== undefined && entry.id !== -1) {
    if (!isId(entry.id)) throw invalid(`${at}.id must be a positive integer (at most ${INT4_MAX}), or -1 for an external athlete`);
    return { kind: "internal", athleteId: entry.id };
  }
  if (entry.name === undefined || entry.name === null || entry.name === "") throw invalid(`${at}: an external athlete needs a name`);
  if (typeof entry.name !== "string") throw invalid(`${at}.name must be a string`);
  if ([...entry.name].length > 128) throw invalid(`${at}.name must be at most 128 characters`);
  checkedText(entry.name, `${at}.name`);
  if (entry.surname !== undefined && entry.surname !== null && typeof entry.surname !== "string")
    throw invalid(`${at}.surname must be a string`);
  if (typeof entry.surname === "string") checkedText(entry.surname, `${at}.surname`);
  const weightKg = entry.weight === undefined || entry.weight === null ? null : numberInRange(entry.weight, `${at}.weight`, 0, 150, false);
  return { kind: "external", name: entry.name, surname: (entry.surname as string | undefined) ?? "", weightKg };
}

/** Shape and range rules: every failure is a 400 naming the field. */
export function parseUploadMetadata(raw: string | undefined): UploadMetadata {
  if (raw === undefined) throw invalid("metadata part missing");
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw invalid("metadata is not valid JSON");
  }
  if (!isObject(value)) throw invalid("metadata must be a JSON object");
  const m = value;

  const hasDistance = m.distance !== undefined && m.distance !== null;
  const hasDuration = m.duration_ms !== undefined && m.duration_ms !== null;
  if (hasDistance === hasDuration) throw invalid("give exactly one of distance and duration_ms");
  const distanceM = hasDistance ? numberInRange(m.distance, "distance", 50, 1000, true) : null;
  const durationMs = hasDuration ? numberInRange(m.duration_ms, "duration_ms", 1, 300_000, true) : null;

  const competition = optionalText(m.competition, "competition");
  const description = optionalText(m.description, "description");
  const vesselId = requiredId(m.vessel_id, "vessel_id");
  const trackId = requiredId(m.track_id, "track_id");
  const categoryId = requiredId(m.category_id, "category_id");
  const paceId = requiredId(m.pace_id, "pace_id");
  if (m.important !== undefined && typeof m.important !== "boolean") throw invalid("important must be a boolean");

  let meteo: UploadMetadata["meteo"] = null;
  if (m.meteo !== undefined && m.meteo !== null) {
    if (!isObject(m.meteo)) throw invalid("meteo must be an object");
    const given = m.meteo;
    const read = (key: string, min: number, max: number) =>
      given[key] === undefined || given[key] === null ? null : numberInRange(given[key], `meteo.${key}`, min, max, false);
    meteo = {
      windSpeedMS: read("wind_speed", 0, 20),
      windDirectionDeg: read("wind_direction", 0, 359),
      airTemperatureC: read("air_temperature", -20, 50),
      waterTemperatureC: read("water_temperature", 0, 40),
    };
  }

  if (!Array.isArray(m.athletes)) throw invalid("athletes must be a list with one entry per seat");
  const crew = m.athletes.map(crewEntry);
  const ids = crew.flatMap((c) => (c.kind === "internal" ? [c.athleteId] : []));
  const repeated = ids.find((id, i) => ids.indexOf(id) !== i);
  if (repeated !== undefined) throw invalid(`athletes: athlete ${repeated} is repeated`);

  return {
    distanceM,
    durationMs,
    vesselId,
    trackId,
    categoryId,
    paceId,
    crew,
    competition,
    description,
    important: m.important === true,
    meteo,
  };
}

const trackRefused = (id: number) => new AppError("forbidden", `track_id ${id} is unknown or not accessible`);
const athleteRefused = (id: number) => new AppError("forbidden", `athlete ${id} not found or not accessible`);
const crewAthleteIds = (meta: UploadMetadata) => meta.crew.flatMap((c) => (c.kind === "internal" ? [c.athleteId] : []));

export interface ResolvedUpload {
  vessel: { id: number; type: string; npeople: number; hull: "kayak" | "canoe" };
  track: { id: number; name: string };
}

/**
 * Rules that need the database: reference ids exist (400), crew size (400),
 * track and athletes accessible (403), active subscriptions (403), the
 * half-external rule (403).
 */
export async function checkUploadAgainstDatabase(db: Db, user: SessionUser, meta: UploadMetadata, today: string): Promise<ResolvedUpload> {
  const [[vessel], [category], [pace]] = await Promise.all([
    db.select().from(vessels).where(eq(vessels.id, meta.vesselId)),
    db.select({ id: categories.id }).from(categories).where(eq(categories.id, meta.categoryId)),
    db.select({ id: paces.id }).from(paces).where(eq(paces.id, meta.paceId)),
  ]);
  if (!vessel) throw invalid(`vessel_id ${meta.vesselId} does not exist`);
  if (!vessel.supported) throw invalid(`vessel type ${vessel.type} is not supported`);
  if (!category) throw invalid(`category_id ${meta.categoryId} does not exist`);
  if (!pace) throw invalid(`pace_id ${meta.paceId} does not exist`);
  if (meta.crew.length !== vessel.npeople) {
    throw invalid(
      `athletes must have ${vessel.npeople} entr${vessel.npeople === 1 ? "y" : "ies"} for a ${vessel.type}, got ${meta.crew.length}`,
    );
  }

  const [track] = await db
    .select({ id: tracks.id, name: tracks.name })
    .from(tracks)
    .where(and(eq(tracks.id, meta.trackId), trackAccessible(user.id)));
  if (!track) throw trackRefused(meta.trackId);

  const ids = crewAthleteIds(meta);
  if (ids.length) {
    const found = await db
      .select({ id: athletes.id, until: athletes.subscriptionActiveUntil })
      .from(athletes)
      .where(and(inArray(athletes.id, ids), athleteAccessible(user.id)));
    const byId = new Map(found.map((a) => [a.id, a]));
    for (const id of ids) {
      const athlete = byId.get(id);
      if (!athlete) throw athleteRefused(id);
      if (!athlete.until || athlete.until < today) throw new AppError("forbidden", `athlete ${id} has no active subscription`);
    }
  }
  const externals = meta.crew.length - ids.length;
  if (externals * 2 > meta.crew.length && !user.unlimitedExternals) {
    throw new AppError("forbidden", "more than half of the crew are external athletes; this needs the unlimited-externals privilege");
  }
  return { vessel, track };
}

/**
 * Run first in the transaction that stores rows naming the track and the
 * crew's athletes (docs/web-app.md "Deleting"): the rows are still there and
 * accessible, and stay locked FOR KEY SHARE until it commits. A delete that
 * committed since `checkUploadAgainstDatabase` gets the answer of an unknown
 * track or athlete; a delete that is running waits here and then does the
 * same; a delete that starts later waits for this commit and then sees the
 * session. Without it the insert fails on a foreign key: a 500.
 */
export async function lockUploadReferences(tx: Db, user: SessionUser, meta: UploadMetadata): Promise<void> {
  const [track] = await tx
    .select({ id: tracks.id })
    .from(tracks)
    .where(and(eq(tracks.id, meta.trackId), trackAccessible(user.id)))
    .for("key share");
  if (!track) throw trackRefused(meta.trackId);
  const ids = crewAthleteIds(meta);
  if (!ids.length) return;
  const found = await tx
    .select({ id: athletes.id })
    .from(athletes)
    .where(and(inArray(athletes.id, ids), athleteAccessible(user.id)))
    .orderBy(athletes.id)
    .for("key share");
  const present = new Set(found.map((a) => a.id));
  const gone = ids.find((id) => !present.has(id));
  if (gone !== undefined) throw athleteRefused(gone);
}
