// `npm run --silent admin -- …`: see server/admin/admin-cli.ts.
import { describeAdminError, runAdminCommand } from "../server/admin/admin-cli";
import { getDbHandle } from "../server/db/client";

const handle = getDbHandle();
try {
  await handle.migrate();
  const output = await runAdminCommand(handle.db, process.argv.slice(2), { exclusiveDatabase: handle.kind === "pglite" });
  console.log(JSON.stringify(output));
} catch (error) {
  console.error(JSON.stringify({ error: describeAdminError(error) }));
  process.exitCode = 2;
} finally {
  await handle.close();
}
