import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { healthLactate, healthWeights } from "../db/schema";
import { SHAREABLE_PROVENANCE } from "./health";

/**
 * Health data as it may leave through the Data API (data-api.md "Health data
 * rules"): only the person's own rows (`user_id` is the subject), and only
 * manual or own-device provenance. Both conditions sit in every query here
 * and no function takes a flag to lift them: external-provider rows and
 * other people's rows cannot be asked for.
 */
const shareable = (provenance: typeof healthWeights.provenance | typeof healthLactate.provenance) =>
  inArray(provenance, [...SHAREABLE_PROVENANCE]);
/** The same rule again on the rows read, so the types carry it too. */
const isShareable = <T extends { provenance: string }>(row: T): row is T & { provenance: (typeof SHAREABLE_PROVENANCE)[number] } =>
  (SHAREABLE_PROVENANCE as readonly string[]).includes(row.provenance);

export interface WeightEntry {
  id: number;
  measuredOn: string;
  weightKg: number;
  provenance: "manual" | "device";
}

/** Keyset position of a weight: [measured_on, id], newest first. */
export type WeightPosition = [measuredOn: string, id: number];

/** One page of the person's weight history, newest first, after `after` (index health_weights_user_idx). */
export async function listShareableWeights(
  db: Db,
  userId: number,
  page: { after: WeightPosition | null; take: number },
): Promise<WeightEntry[]> {
  const seek = page.after
    ? sql`(${healthWeights.measuredOn}, ${healthWeights.id}) < (${page.after[0]}::date, ${page.after[1]})`
    : undefined;
  const rows = await db
    .select({
      id: healthWeights.id,
      measuredOn: healthWeights.measuredOn,
      weightKg: healthWeights.weightKg,
      provenance: healthWeights.provenance,
    })
    .from(healthWeights)
    .where(and(eq(healthWeights.userId, userId), shareable(healthWeights.provenance), seek))
    .orderBy(desc(healthWeights.measuredOn), desc(healthWeights.id))
    .limit(page.take);
  return rows.filter(isShareable);
}

export interface LactateEntry {
  id: number;
  resultId: number | null;
  trainingId: number | null;
  /** Exact instant as Postgres text: travels in cursors without losing microseconds. */
  measuredAtText: string;
  measuredAt: Date;
  lactateMmolL: number;
  note: string;
  provenance: "manual" | "device";
}

/** Keyset position of a lactate reading: [measured_at as text, id], in time order. */
export type LactatePosition = [measuredAt: string, id: number];

/**
 * One page of the person's lactate readings in time order: of one session
 * (index health_lactate_result_idx) or, without `sessionId`, all of them
 * (health_lactate_user_idx, scanned backwards). The caller has checked that
 * the person may read the session; this only ever returns their own readings.
 */
export async function listShareableLactate(
  db: Db,
  userId: number,
  filter: { sessionId?: number; trainingId?: number },
  page: { after: LactatePosition | null; take: number },
): Promise<LactateEntry[]> {
  const seek = page.after
    ? sql`(${healthLactate.measuredAt}, ${healthLactate.id}) > (${page.after[0]}::timestamptz, ${page.after[1]})`
    : undefined;
  const rows = await db
    .select({
      id: healthLactate.id,
      resultId: healthLactate.resultId,
      trainingId: healthLactate.trainingId,
      measuredAtText: sql<string>`${healthLactate.measuredAt}::text`,
      measuredAt: healthLactate.measuredAt,
      lactateMmolL: healthLactate.lactateMmolL,
      note: healthLactate.note,
      provenance: healthLactate.provenance,
    })
    .from(healthLactate)
    .where(
      and(
        eq(healthLactate.userId, userId),
        filter.sessionId !== undefined ? eq(healthLactate.resultId, filter.sessionId) : undefined,
        filter.trainingId !== undefined ? eq(healthLactate.trainingId, filter.trainingId) : undefined,
        shareable(healthLactate.provenance),
        seek,
      ),
    )
    .orderBy(asc(healthLactate.measuredAt), asc(healthLactate.id))
    .limit(page.take);
  return rows.filter(isShareable);
}
