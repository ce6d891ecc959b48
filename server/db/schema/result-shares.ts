import { index, integer, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { results } from "./results";
import { users } from "./users";

/**
 * Public, read-only, revocable links to one result (the PDF report's QR code
 * opens one). Only a hash of the token is stored.
 */
export const resultShares = pgTable(
  "result_shares",
  {
    id: serial("id").primaryKey(),
    resultId: integer("result_id")
      .notNull()
      .references(() => results.id, { onDelete: "cascade" }),
    createdByUserId: integer("created_by_user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Hex SHA-256 of the URL token. */
    tokenHash: text("token_hash").notNull().unique(),
    /** Where it was made: web (session page) or report (PDF QR code). */
    origin: text("origin", { enum: ["web", "report"] }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** Set on revocation: the link answers 404 from then on. */
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (t) => [index("result_shares_result_idx").on(t.resultId)],
);
