/**
 * `npm run quickstart`: the embedded default on one machine. Migrates the
 * PGlite database in DATA_DIR (or DATABASE_URL when set), adds demo data,
 * builds the app unless --no-build, starts it and prints where to sign in.
 */
import { spawn, spawnSync } from "node:child_process";
import { getEnv } from "../server/config/env";
import { isLoopbackOrigin } from "../server/net/loopback";
import { getDbHandle } from "../server/db/client";
import { DEMO_ACCOUNTS, seedDemo } from "../server/demo/seed-demo";

async function main() {
  const args = new Set(process.argv.slice(2));
  // A quickstart runs on this machine over plain HTTP: the results API's samples upload from
  // here, so accept plain HTTP from loopback (never with a public APP_URL; env.ts refuses that).
  // Likewise webhooks: an integrator's receiver on this machine (http://localhost:8790/hook) is accepted (docs/webhooks.md).
  const local = isLoopbackOrigin(process.env.APP_URL || "http://localhost");
  if (process.env.ALLOW_HTTP_LOOPBACK === undefined && local) process.env.ALLOW_HTTP_LOOPBACK = "1";
  if (process.env.WEBHOOK_ALLOW_LOOPBACK === undefined && local) process.env.WEBHOOK_ALLOW_LOOPBACK = "1";
  const env = getEnv();
  if (env.ALLOW_HTTP_LOOPBACK)
    console.log(
      'quickstart: ALLOW_HTTP_LOOPBACK=1 (uploads over plain HTTP from this machine only; docs/results-api.md "HTTPS for uploads")',
    );
  if (env.WEBHOOK_ALLOW_LOOPBACK)
    console.log(
      'quickstart: WEBHOOK_ALLOW_LOOPBACK=1 (webhook endpoints on this machine, e.g. http://localhost:8790/hook; docs/webhooks.md "Local development")',
    );
  const handle = getDbHandle();
  await handle.migrate();
  // --demo-weeks=N seeds only the season's last N weeks (1–12): for a test that needs the accounts, not a season.
  const weeksArg = [...args].find((a) => a.startsWith("--demo-weeks="));
  const { created } = await seedDemo(handle.db, { weeks: weeksArg ? Number(weeksArg.slice("--demo-weeks=".length)) : undefined });
  await handle.close(); // PGlite allows one process at a time: release it for the server.
  console.log(created ? "demo data created" : "demo data already present");

  if (!args.has("--no-build")) {
    const build = spawnSync("npx", ["next", "build"], { stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
    if (build.status !== 0) process.exit(build.status ?? 1);
  }

  const server = spawn("npx", ["next", "start", "-p", String(env.PORT)], {
    stdio: ["ignore", "inherit", "inherit"],
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  const stop = () => server.kill("SIGTERM");
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  server.on("exit", (code) => process.exit(code ?? 0));

  await waitUntilServing(`http://127.0.0.1:${env.PORT}/signin`);
  const { coach, athlete, operator } = DEMO_ACCOUNTS;
  console.log(`
Paddle Results is running on the embedded default (${handle.kind === "pglite" ? `PGlite in ${env.dataDir}` : "Postgres"}).

  Sign in at   ${env.appUrl}/signin
  Coach        ${coach.email} / ${coach.password}
  Athlete      ${athlete.email} / ${athlete.password}
  Operator     ${operator.email} / ${operator.password}

  ${env.ALLOW_HTTP_LOOPBACK ? "ALLOW_HTTP_LOOPBACK=1: results API uploads over plain HTTP are accepted from this machine only" : "Uploads to the results API need HTTPS (ALLOW_HTTP_LOOPBACK is off)"}
  ${env.WEBHOOK_ALLOW_LOOPBACK ? "WEBHOOK_ALLOW_LOOPBACK=1: webhook endpoints on this machine (http://localhost:PORT/…) are accepted" : "Webhook endpoints need a public https:// URL (WEBHOOK_ALLOW_LOOPBACK is off)"}
  Getting started  ${env.appUrl}/developer

Press Ctrl+C to stop.`);
}

async function waitUntilServing(url: string) {
  for (let attempt = 0; attempt < 240; attempt++) {
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`the server did not answer at ${url} within two minutes`);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
