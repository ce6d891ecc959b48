import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { users } from "./users";

/** A sensor unit, registered to an account the first time one of its files is uploaded. */
export const devices = pgTable(
  "devices",
  {
    id: serial("id").primaryKey(),
    ownerUserId: integer("owner_user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Model id from the file header (1 = SVC One, 2 = SVC Pro, 3 = SVC Pro 2). */
    hardwareModel: integer("hardware_model").notNull(),
    /** Device serial from the file header. Private: never serialized by any API. */
    serial: text("serial").notNull(),
    /** Owner's name for the unit, e.g. "Club K4 unit". */
    label: text("label").notNull().default(""),
    /** Firmware version last seen, "major.minor.patch". */
    firmware: text("firmware").notNull().default(""),
    firstSeenAt: timestamp("first_seen_at", { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("devices_owner_serial_uq").on(t.ownerUserId, t.serial), index("devices_owner_idx").on(t.ownerUserId, t.id)],
);
