import { asc } from "drizzle-orm";
import type { Db } from "../db/client";
import { categories, paces, vessels } from "../db/schema";

/** Reference tables (boat types, categories, paces) for pickers and the APIs. */
export async function listReferenceData(db: Db) {
  const [vesselRows, categoryRows, paceRows] = await Promise.all([
    db.select().from(vessels).orderBy(asc(vessels.id)),
    db.select().from(categories).orderBy(asc(categories.id)),
    db.select().from(paces).orderBy(asc(paces.id)),
  ]);
  return { vessels: vesselRows, categories: categoryRows, paces: paceRows };
}
