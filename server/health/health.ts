import { and, desc, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../db/client";
import { healthLactate, healthWeights } from "../db/schema";
import { AppError, notFound } from "../errors";
import { getAccessibleResultSummary } from "../results/query-results";

/** Health rows that may ever leave through the Data API: never an external provider's. */
export const SHAREABLE_PROVENANCE = ["manual", "device"] as const;

export const ZWeightInput = z.object({
  measuredOn: z.iso.date("Use the format YYYY-MM-DD").refine((d) => d <= new Date().toISOString().slice(0, 10), "The date is in the future"),
  weightKg: z.coerce.number({ error: "Enter a number" }).min(20, "At least 20 kg").max(250, "At most 250 kg"),
});

export const ZLactateInput = z.object({
  resultId: z.number({ error: "Choose a session" }).int().positive("Choose a session"),
  measuredAt: z.iso.datetime({ offset: true, local: true, error: "Enter a date and time" }),
  lactateMmolL: z.coerce.number({ error: "Enter a number" }).min(0.1, "At least 0.1 mmol/L").max(40, "At most 40 mmol/L"),
  note: z.string().trim().max(64, "At most 64 characters").default(""),
});

/** A weight the person typed in (provenance manual). */
export async function addWeight(db: Db, userId: number, input: z.input<typeof ZWeightInput>) {
  const values = ZWeightInput.parse(input);
  const [row] = await db.insert(healthWeights).values({ ...values, userId, provenance: "manual" }).returning({ id: healthWeights.id });
  return row;
}

/** The person's own weight history, newest first; `shareableOnly` drops external-provider rows. */
export async function listWeights(db: Db, userId: number, { shareableOnly }: { shareableOnly: boolean }) {
  return db
    .select({ id: healthWeights.id, measuredOn: healthWeights.measuredOn, weightKg: healthWeights.weightKg, provenance: healthWeights.provenance })
    .from(healthWeights)
    .where(and(eq(healthWeights.userId, userId), shareableOnly ? inArray(healthWeights.provenance, [...SHAREABLE_PROVENANCE]) : undefined))
    .orderBy(desc(healthWeights.measuredOn), desc(healthWeights.id));
}

export async function deleteWeight(db: Db, userId: number, id: number) {
  const deleted = await db.delete(healthWeights).where(and(eq(healthWeights.id, id), eq(healthWeights.userId, userId))).returning({ id: healthWeights.id });
  if (!deleted.length) throw notFound("Weight entry");
}

/** A lactate reading tied to one of the person's accessible sessions. */
export async function addLactate(db: Db, userId: number, input: z.input<typeof ZLactateInput>) {
  const values = ZLactateInput.parse(input);
  try {
    await getAccessibleResultSummary(db, userId, values.resultId);
  } catch {
    throw new AppError("invalid", "Choose one of your sessions", { resultId: ["Choose one of your sessions"] });
  }
  const [row] = await db
    .insert(healthLactate)
    .values({ userId, resultId: values.resultId, measuredAt: new Date(values.measuredAt), lactateMmolL: values.lactateMmolL, note: values.note, provenance: "manual" })
    .returning({ id: healthLactate.id });
  return row;
}

export async function listLactate(db: Db, userId: number, { shareableOnly, resultId }: { shareableOnly: boolean; resultId?: number }) {
  return db
    .select({
      id: healthLactate.id,
      resultId: healthLactate.resultId,
      trainingId: healthLactate.trainingId,
      measuredAt: healthLactate.measuredAt,
      lactateMmolL: healthLactate.lactateMmolL,
      note: healthLactate.note,
      provenance: healthLactate.provenance,
    })
    .from(healthLactate)
    .where(
      and(
        eq(healthLactate.userId, userId),
        resultId !== undefined ? eq(healthLactate.resultId, resultId) : undefined,
        shareableOnly ? inArray(healthLactate.provenance, [...SHAREABLE_PROVENANCE]) : undefined,
      ),
    )
    .orderBy(desc(healthLactate.measuredAt), desc(healthLactate.id));
}

export async function deleteLactate(db: Db, userId: number, id: number) {
  const deleted = await db.delete(healthLactate).where(and(eq(healthLactate.id, id), eq(healthLactate.userId, userId))).returning({ id: healthLactate.id });
  if (!deleted.length) throw notFound("Lactate reading");
}
