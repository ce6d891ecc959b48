import { boolean, pgTable, serial, text } from "drizzle-orm/pg-core";

/**
 * What a user may do. Rows are reference data inserted by a migration
 * (viewer, athlete, coach, operator); see docs/access.md.
 */
export const roles = pgTable("roles", {
  id: serial("id").primaryKey(),
  /** Stable machine name: viewer | athlete | coach | operator. */
  name: text("name").notNull().unique(),
  /** Read own and accessible data (every role has it). */
  canRead: boolean("can_read").notNull().default(true),
  /** Upload and create sessions (the results API's "accesoNuevo" permission). */
  canCreateSessions: boolean("can_create_sessions").notNull().default(false),
  /** Delete sessions the user can access. */
  canDeleteSessions: boolean("can_delete_sessions").notNull().default(false),
  /** Operator pages: review partner applications, approve embed origins. */
  isOperator: boolean("is_operator").notNull().default(false),
});
