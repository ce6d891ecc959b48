import { getEnv } from "./config/env";
import { getDbHandle } from "./db/client";

/** Server start: fail fast on bad configuration, then bring the database schema up to date. */
export async function startServer(): Promise<void> {
  let env;
  try {
    env = getEnv();
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
  const handle = getDbHandle();
  await handle.migrate();
  console.log(`database ready (${handle.kind === "postgres" ? "Postgres" : `PGlite in ${env.dataDir}`})`);
}
