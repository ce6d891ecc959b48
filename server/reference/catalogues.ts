import { asc } from "drizzle-orm";
import type { Db } from "../db/client";
import { categories, paces, vessels } from "../db/schema";

/**
 * Reference catalogues of the Data API (GET /catalogues/{kind}): the values
 * a client needs to read sessions and equipment, and to filter GET /sessions.
 * Small tables, returned whole.
 */
export const CATALOGUE_KINDS = ["boats", "paddles", "session-options"] as const;
export type CatalogueKind = (typeof CATALOGUE_KINDS)[number];

/**
 * Paddle kinds, fixed by the sport: they match `equipment_paddles.kind` and
 * the hull of the boat classes (a kayak is paddled with a double blade, a
 * canoe with a single one).
 */
export const PADDLE_KINDS = [
  { kind: "kayak", name: "Kayak paddle", blades: 2 },
  { kind: "canoe", name: "Canoe paddle", blades: 1 },
] as const;

/** Boat classes (K1 … C4): the `boat_class_id` of sessions. */
export async function listBoatClasses(db: Db) {
  return db
    .select({ id: vessels.id, type: vessels.type, crewSize: vessels.npeople, hull: vessels.hull })
    .from(vessels)
    .orderBy(asc(vessels.id));
}

/** Categories and paces: the `category_id` and `pace_id` of sessions. */
export async function listSessionOptions(db: Db) {
  const [categoryRows, paceRows] = await Promise.all([
    db.select({ id: categories.id, name: categories.name }).from(categories).orderBy(asc(categories.id)),
    db.select({ id: paces.id, name: paces.name }).from(paces).orderBy(asc(paces.id)),
  ]);
  return { categories: categoryRows, paces: paceRows };
}
