import { boolean, integer, pgTable, serial, text } from "drizzle-orm/pg-core";

/** Boat types. Rows are reference data inserted by a migration. */
export const vessels = pgTable("vessels", {
  id: serial("id").primaryKey(),
  /** K1, K2, K4, C1, C2, C4 … */
  type: text("type").notNull().unique(),
  /** Crew size (seats). */
  npeople: integer("npeople").notNull(),
  /** kayak (double-bladed, alternating sides) | canoe (single-bladed, one side). */
  hull: text("hull", { enum: ["kayak", "canoe"] }).notNull(),
  /** Whether the processing pipeline supports this boat type. */
  supported: boolean("supported").notNull().default(true),
});

/** Age or competition categories (Senior, U23, Junior …). */
export const categories = pgTable("categories", {
  id: serial("id").primaryKey(),
  name: text("name").notNull().unique(),
});

/** Pace of a session (race, training, test …). */
export const paces = pgTable("paces", {
  id: serial("id").primaryKey(),
  name: text("name").notNull().unique(),
});
