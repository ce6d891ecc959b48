import { and, asc, eq } from "drizzle-orm";
import { z } from "zod";
import { athleteAccessible } from "../access/access";
import type { Db } from "../db/client";
import { athletes } from "../db/schema";
import { AppError, notFound } from "../errors";
import { mayReadAthleteRecordWeight } from "../health/health-projection";

const ZIsoDate = z.iso.date("Use the format YYYY-MM-DD");

export const ZAthleteInput = z.object({
  name: z.string().trim().min(1, "Enter a name").max(128, "At most 128 characters"),
  surname: z.string().trim().max(128, "At most 128 characters").default(""),
  dateOfBirth: z
    .union([z.literal(""), z.null(), ZIsoDate])
    .optional()
    .transform((v) => v || null)
    .refine((v) => v === null || v <= new Date().toISOString().slice(0, 10), "Date of birth is in the future"),
  modality: z.string().trim().max(64, "At most 64 characters").default(""),
  weightKg: z
    .union([z.literal(""), z.null(), z.coerce.number({ error: "Enter a number" }).min(20, "At least 20 kg").max(250, "At most 250 kg")])
    .optional()
    .transform((v) => (v === "" || v === undefined || v === null ? null : v)),
  subscriptionActiveUntil: z
    .union([z.literal(""), z.null(), ZIsoDate])
    .optional()
    .transform((v) => v || null),
});
export type AthleteInput = z.input<typeof ZAthleteInput>;

export interface AthleteView {
  id: number;
  name: string;
  surname: string;
  dateOfBirth: string | null;
  modality: string;
  /** Health data: only for the managing account (who typed it) and the athlete's own account; null for anyone else. */
  weightKg: number | null;
  subscriptionActiveUntil: string | null;
  /** The viewer manages this record and may edit it. */
  editable: boolean;
}

const columns = {
  id: athletes.id,
  name: athletes.name,
  surname: athletes.surname,
  dateOfBirth: athletes.dateOfBirth,
  modality: athletes.modality,
  weightKg: athletes.weightKg,
  subscriptionActiveUntil: athletes.subscriptionActiveUntil,
  ownerUserId: athletes.ownerUserId,
  linkedUserId: athletes.userId,
};

function toView(row: { ownerUserId: number; linkedUserId: number | null } & Omit<AthleteView, "editable">, userId: number): AthleteView {
  const { ownerUserId, linkedUserId, weightKg, ...rest } = row;
  return {
    ...rest,
    weightKg: mayReadAthleteRecordWeight({ ownerUserId, userId: linkedUserId }, userId) ? weightKg : null,
    editable: ownerUserId === userId,
  };
}

export async function listAccessibleAthletes(db: Db, userId: number): Promise<AthleteView[]> {
  const rows = await db
    .select(columns)
    .from(athletes)
    .where(athleteAccessible(userId))
    .orderBy(asc(athletes.surname), asc(athletes.name), asc(athletes.id));
  return rows.map((r) => toView(r, userId));
}

export async function getAccessibleAthlete(db: Db, userId: number, athleteId: number): Promise<AthleteView> {
  const [row] = await db
    .select(columns)
    .from(athletes)
    .where(and(eq(athletes.id, athleteId), athleteAccessible(userId)));
  if (!row) throw notFound("Athlete");
  return toView(row, userId);
}

export async function createAthlete(db: Db, userId: number, input: AthleteInput): Promise<AthleteView> {
  const values = ZAthleteInput.parse(input);
  const [row] = await db
    .insert(athletes)
    .values({ ...values, ownerUserId: userId })
    .returning(columns);
  return toView(row, userId);
}

export async function updateAthlete(db: Db, userId: number, athleteId: number, input: AthleteInput): Promise<AthleteView> {
  const values = ZAthleteInput.parse(input);
  const existing = await getAccessibleAthlete(db, userId, athleteId);
  if (!existing.editable) throw new AppError("forbidden", "Only the account that manages this athlete can edit it");
  const [row] = await db
    .update(athletes)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(athletes.id, athleteId))
    .returning(columns);
  return toView(row, userId);
}
