/**
 * CI smoke of the README's first command on the embedded default: starts the
 * quickstart (PGlite in a fresh folder, no DATABASE_URL, already built), waits
 * for it to print where to sign in, signs in over HTTP as the demo coach and
 * opens the signed-in home page, then stops it.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DEMO_ACCOUNTS } from "../server/demo/seed-demo";

const port = Number(process.env.SMOKE_PORT ?? 3450);
const base = `http://localhost:${port}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "svc-quickstart-"));

async function main() {
  const env = { ...process.env, PORT: String(port), DATA_DIR: dataDir, APP_URL: base } as NodeJS.ProcessEnv;
  delete env.DATABASE_URL;
  const child = spawn("npx", ["tsx", "scripts/quickstart.ts", "--no-build"], { env, stdio: ["ignore", "pipe", "inherit"], detached: true });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  try {
    // The quickstart's budget is 5 minutes; without the build most of it is the demo season's seeding (docs/benchmarks.md).
    const deadline = Date.now() + 300_000;
    while (!output.includes("Sign in at")) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`quickstart did not print where to sign in:\n${output}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    if (!output.includes(`${base}/signin`) || !output.includes(DEMO_ACCOUNTS.coach.email))
      throw new Error(`unexpected quickstart output:\n${output}`);
    await signInAndOpenHome();
    console.log("quickstart smoke: passed");
  } finally {
    process.kill(-child.pid!, "SIGTERM");
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function signInAndOpenHome() {
  const cookies = new Map<string, string>();
  const remember = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const [name, ...value] = pair.split("=");
      cookies.set(name, value.join("="));
    }
  };
  const cookieHeader = () => [...cookies].map(([k, v]) => `${k}=${v}`).join("; ");

  const csrfResponse = await fetch(`${base}/api/auth/csrf`);
  remember(csrfResponse);
  const { csrfToken } = (await csrfResponse.json()) as { csrfToken: string };
  const signIn = await fetch(`${base}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookieHeader() },
    body: new URLSearchParams({ csrfToken, email: DEMO_ACCOUNTS.coach.email, password: DEMO_ACCOUNTS.coach.password, json: "true" }),
  });
  remember(signIn);
  if (![...cookies.keys()].some((name) => name.includes("session-token")))
    throw new Error(`sign-in set no session cookie (status ${signIn.status})`);
  const home = await fetch(`${base}/`, { headers: { cookie: cookieHeader() }, redirect: "manual" });
  const html = await home.text();
  if (home.status !== 200 || !html.includes(DEMO_ACCOUNTS.coach.name))
    throw new Error(`signed-in home page not served (status ${home.status})`);
}

main().catch((error) => {
  console.error(`quickstart smoke: failed: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
});
