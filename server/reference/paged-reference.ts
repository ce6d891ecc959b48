import { asc, count, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { categories, paces, vessels } from "../db/schema";
import { notFound } from "../errors";

/** Reference tables in id order, a page at a time (small tables: offset paging is fine here). */
const tables = { vessels, categories, paces } as const;
export type ReferenceKind = keyof typeof tables;

const labels: Record<ReferenceKind, string> = { vessels: "Vessel", categories: "Category", paces: "Pace" };

export async function listReferencePage(db: Db, kind: ReferenceKind, limit: number, offset: number) {
  const table = tables[kind];
  const [rows, [{ total }]] = await Promise.all([
    db.select().from(table).orderBy(asc(table.id)).limit(limit).offset(offset),
    db.select({ total: count() }).from(table),
  ]);
  return { rows, total };
}

export async function getReferenceItem(db: Db, kind: ReferenceKind, id: number) {
  const table = tables[kind];
  const [row] = await db.select().from(table).where(eq(table.id, id));
  if (!row) throw notFound(labels[kind]);
  return row;
}
