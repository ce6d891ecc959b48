import { date, index, integer, pgTable, real, serial, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "./users";

/** A paddler. Managed by an account (a coach or the athlete), optionally linked to the athlete's own account. */
export const athletes = pgTable(
  "athletes",
  {
    id: serial("id").primaryKey(),
    /** Account that created and manages this record. */
    ownerUserId: integer("owner_user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The athlete's own account, when they have one (one athlete record per account). */
    userId: integer("user_id")
      .unique()
      .references(() => users.id, { onDelete: "set null" }),
    name: text("name").notNull(),
    surname: text("surname").notNull().default(""),
    /** Calendar date, no time zone. */
    dateOfBirth: date("date_of_birth"),
    /** Discipline as the club names it, e.g. "Kayak", "Canoe", "Para kayak". */
    modality: text("modality").notNull().default(""),
    /** Body mass, kilograms. */
    weightKg: real("weight_kg"),
    /** Last day (inclusive) of the active subscription; null = none. Upload requires an active one. */
    subscriptionActiveUntil: date("subscription_active_until"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("athletes_owner_idx").on(t.ownerUserId, t.id)],
);
