import { desc, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { roles, signInThrottle, users } from "../db/schema";

/** Accounts for the operator overview, newest first (never password hashes), with their sign-in lock and disabled state. */
export async function listAccounts(db: Db, limit = 200) {
  return db
    .select({
      id: users.id,
      email: users.email,
      name: users.name,
      role: roles.name,
      createdAt: users.createdAt,
      disabledAt: users.disabledAt,
      // The throttle key of server/auth/sign-in-throttle.ts (throttleKeyForEmail); only a lock still running counts.
      lockedUntil: sql<Date | null>`case when ${signInThrottle.lockedUntil} > now() then ${signInThrottle.lockedUntil} end`.mapWith(
        signInThrottle.lockedUntil,
      ),
    })
    .from(users)
    .innerJoin(roles, eq(roles.id, users.roleId))
    .leftJoin(signInThrottle, eq(signInThrottle.key, sql`'email:' || ${users.email}`))
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(limit);
}
