// `npm run db:migrate`: apply drizzle/ migrations to DATABASE_URL, or to the PGlite folder DATA_DIR.
import { getDbHandle } from "./client";

async function main() {
  const handle = getDbHandle();
  await handle.migrate();
  await handle.close();
  console.log(`migrations applied (${handle.kind})`);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
