import { index, integer, pgTable, real, serial, text, timestamp } from "drizzle-orm/pg-core";
import { vessels } from "./reference";
import { users } from "./users";

/** A boat the user owns (Data API /equipment/vessels). */
export const equipmentVessels = pgTable(
  "equipment_vessels",
  {
    id: serial("id").primaryKey(),
    ownerUserId: integer("owner_user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Owner's name for the boat, e.g. "Red K2". */
    name: text("name").notNull(),
    /** Boat type (K1 … C4). */
    vesselTypeId: integer("vessel_type_id")
      .notNull()
      .references(() => vessels.id),
    brand: text("brand").notNull().default(""),
    model: text("model").notNull().default(""),
    /** Hull mass, kg. */
    weightKg: real("weight_kg"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("equipment_vessels_owner_idx").on(t.ownerUserId, t.id)],
);

/** A paddle the user owns (Data API /equipment/paddles). */
export const equipmentPaddles = pgTable(
  "equipment_paddles",
  {
    id: serial("id").primaryKey(),
    ownerUserId: integer("owner_user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** kayak (double blade) | canoe (single blade). */
    kind: text("kind", { enum: ["kayak", "canoe"] }).notNull(),
    brand: text("brand").notNull().default(""),
    model: text("model").notNull().default(""),
    /** Overall length, cm. */
    lengthCm: real("length_cm"),
    /** Blade surface, cm². */
    bladeAreaCm2: real("blade_area_cm2"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("equipment_paddles_owner_idx").on(t.ownerUserId, t.id)],
);
