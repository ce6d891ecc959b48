import { desc, eq, ilike, or, sql } from "drizzle-orm";
import { escapeLike } from "../athletes/paged-athletes";
import type { Db } from "../db/client";
import { roles, signInThrottle, users } from "../db/schema";

/** How many accounts the operator overview shows at once: the newest, or those matching the search. */
export const ACCOUNTS_SHOWN = 50;

export interface AccountSearch {
  /** Part of an email address or a name, case-insensitive; empty or absent lists the newest accounts. */
  search?: string;
  limit?: number;
}

/**
 * Accounts for the operator overview, newest first (never password hashes), with their sign-in lock and disabled state.
 * An operator acts on one person at a time, so the page finds them by search rather than listing every account:
 * a table of hundreds of rows, each with its own controls, is slow to render and to use.
 */
export async function listAccounts(db: Db, { search = "", limit = ACCOUNTS_SHOWN }: AccountSearch = {}) {
  // Postgres text holds no NUL; a pasted address with one is the same search without it.
  const term = search.replace(/\0/g, "").trim().slice(0, 200);
  const pattern = `%${escapeLike(term)}%`;
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
    .where(term ? or(ilike(users.email, pattern), ilike(users.name, pattern)) : undefined)
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(limit);
}
