import { index, integer, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { athletes } from "./athletes";
import { users } from "./users";

/**
 * An invitation to link an athlete record to the person's own account
 * (docs/access.md "Linking an athlete record to an account"): a single-use,
 * expiring link the managing account hands to the person. Only the SHA-256
 * of the link's token is stored; the link itself is shown once.
 */
export const athleteInvitations = pgTable(
  "athlete_invitations",
  {
    id: serial("id").primaryKey(),
    /** The athlete record the invitation links. */
    athleteId: integer("athlete_id")
      .notNull()
      .references(() => athletes.id, { onDelete: "cascade" }),
    /** The account that invited (the record's manager at the time). */
    invitedByUserId: integer("invited_by_user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Address the invitation is for, lower-cased: only the account with this email may accept. */
    email: text("email").notNull(),
    /** SHA-256 of the link's secret token, hex. */
    tokenHash: text("token_hash").notNull().unique(),
    /** The link no longer works after this instant. */
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    /** When it was used (single use); null while pending. */
    acceptedAt: timestamp("accepted_at", { withTimezone: true }),
    /** The account that accepted it. */
    acceptedByUserId: integer("accepted_by_user_id").references(() => users.id, { onDelete: "set null" }),
    /** Withdrawn by the manager, or superseded by a newer invitation for the same record. */
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("athlete_invitations_athlete_idx").on(t.athleteId)],
);
