import { desc, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { roles, users } from "../db/schema";

/** Accounts for the operator overview, newest first (never password hashes). */
export async function listAccounts(db: Db, limit = 200) {
  return db
    .select({ id: users.id, email: users.email, name: users.name, role: roles.name, createdAt: users.createdAt })
    .from(users)
    .innerJoin(roles, eq(roles.id, users.roleId))
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(limit);
}
