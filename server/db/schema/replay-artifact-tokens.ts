import { index, integer, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { replayEmbeds } from "./replay-embeds";
import { results } from "./results";

/**
 * Single-use URLs of replay artifacts, issued by a launch, one per lane
 * (GET /svcsim/artifacts/{token}). Only the token's SHA-256 is kept.
 */
export const replayArtifactTokens = pgTable(
  "replay_artifact_tokens",
  {
    id: serial("id").primaryKey(),
    embedId: integer("embed_id")
      .notNull()
      .references(() => replayEmbeds.id, { onDelete: "cascade" }),
    /** The session whose artifact the token opens; deleting the session deletes the token. */
    resultId: integer("result_id")
      .notNull()
      .references(() => results.id, { onDelete: "cascade" }),
    /** Lane of the session in the player, 1 to 9. */
    lane: integer("lane").notNull(),
    /** Hex SHA-256 of the URL token. */
    tokenHash: text("token_hash").notNull().unique(),
    /** Short-lived: the player fetches every artifact right after the launch. */
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    /** Set once, atomically, on the first download; a second is 404. */
    consumedAt: timestamp("consumed_at", { withTimezone: true }),
  },
  (t) => [index("replay_artifact_tokens_embed_idx").on(t.embedId)],
);
