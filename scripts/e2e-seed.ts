/**
 * Accounts the end-to-end specs need that sign-up cannot make (roles other
 * than coach, the unlimited-externals privilege). Runs before the e2e server
 * starts (PGlite allows one process at a time). Idempotent.
 */
import { eq } from "drizzle-orm";
import { getDbHandle } from "../server/db/client";
import { users } from "../server/db/schema";
import { E2E_ACCOUNTS } from "../e2e/accounts";
import { createUser } from "../server/users/users";

const handle = getDbHandle();
await handle.migrate();
for (const account of Object.values(E2E_ACCOUNTS)) {
  const [existing] = await handle.db.select({ id: users.id }).from(users).where(eq(users.email, account.email));
  if (!existing) {
    await createUser(handle.db, account, { role: account.role, unlimitedExternals: account.unlimitedExternals });
  }
}
await handle.close();
console.log("e2e accounts ready");
