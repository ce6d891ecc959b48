import { boolean, index, integer, pgTable, primaryKey, real, serial, text, timestamp } from "drizzle-orm/pg-core";
import { teams } from "./teams";
import { users } from "./users";

/** A course or stretch of water where sessions are paddled. */
export const tracks = pgTable(
  "tracks",
  {
    id: serial("id").primaryKey(),
    ownerUserId: integer("owner_user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** Free text: lake, river, city. */
    location: text("location").notNull().default(""),
    /** Start line position, WGS84 degrees, optional. */
    latitude: real("latitude"),
    longitude: real("longitude"),
    /** Visible to every user (e.g. an official regatta course). */
    isPublic: boolean("is_public").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("tracks_owner_idx").on(t.ownerUserId, t.id)],
);

/** A track shared with a team: every coach and athlete of the team may use it. */
export const trackTeamShares = pgTable(
  "track_team_shares",
  {
    trackId: integer("track_id")
      .notNull()
      .references(() => tracks.id, { onDelete: "cascade" }),
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.trackId, t.teamId] }), index("track_team_shares_team_idx").on(t.teamId)],
);
