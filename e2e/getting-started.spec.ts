import { execFile, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { expect, test, type Page } from "@playwright/test";
import postgres from "postgres";
import { DEMO_ACCOUNTS } from "../server/demo/seed-demo";
import { simulatedSvc } from "./svc-files";

/**
 * Issue 21: a new integrator follows the getting-started guide on a fresh
 * quickstart, literally. The quickstart (`scripts/quickstart.ts --no-build`,
 * PGlite in a fresh folder, ALLOW_HTTP_LOOPBACK as it sets it) runs on the
 * second port; the test signs in as the demo coach it prints, creates a key
 * pair in the portal, runs the guide's commands as the page prints them
 * (list, simulate, upload over plain HTTP, PDF), registers an application in
 * the portal and runs the guide's openid-client script (discovery, PKCE,
 * nonce, token, userinfo, /me, /sessions, refresh), consenting in the browser.
 * Its run time is docs/benchmarks.md "Getting started, end to end".
 */
const port = Number(process.env.E2E_PORT ?? 3210) + 1000;
const base = `http://localhost:${port}`;
const run = promisify(execFile);
const repo = process.cwd();

let quickstart: ChildProcess | undefined;
let dataDir: string;
let workDir: string;
let quickstartOutput = "";
/** With DATABASE_URL (CI), the quickstart gets a fresh database of its own beside it; without, a fresh PGlite folder. */
let freshDatabase: { admin: string; name: string } | undefined;

test.beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "guide-quickstart-"));
  // "A checkout of this project": the guide's commands run from a folder holding its package and code.
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), "guide-work-"));
  for (const entry of ["package.json", "node_modules", "server", "tsconfig.json"])
    fs.symlinkSync(path.join(repo, entry), path.join(workDir, entry));
  const env = { ...process.env, PORT: String(port), DATA_DIR: dataDir, APP_URL: base, NEXT_TELEMETRY_DISABLED: "1" } as NodeJS.ProcessEnv;
  for (const name of ["DATABASE_URL", "TRUST_PROXY", "ALLOW_HTTP_LOOPBACK", "WEBHOOK_ALLOW_LOOPBACK", "RESULTS_API_MAX_UPLOAD_BYTES"])
    delete env[name];
  if (process.env.DATABASE_URL) {
    freshDatabase = { admin: process.env.DATABASE_URL, name: `guide_${Date.now()}` };
    const sql = postgres(freshDatabase.admin, { max: 1, onnotice: () => {} });
    await sql.unsafe(`create database ${freshDatabase.name}`);
    await sql.end();
    const url = new URL(freshDatabase.admin);
    url.pathname = `/${freshDatabase.name}`;
    env.DATABASE_URL = url.toString();
  }
  // The guide needs the demo accounts, track 1 and athlete 1, not the 12-week season: one week of it keeps the start within the wait below.
  quickstart = spawn("npx", ["tsx", "scripts/quickstart.ts", "--no-build", "--demo-weeks=1"], {
    env,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  quickstart.stdout!.on("data", (chunk) => (quickstartOutput += chunk));
  quickstart.stderr!.on("data", (chunk) => (quickstartOutput += chunk));
  await expect
    .poll(() => quickstartOutput.includes("Sign in at") || quickstart!.exitCode !== null, {
      timeout: 40_000,
      intervals: [250],
      message: quickstartOutput,
    })
    .toBe(true);
  expect(quickstartOutput).toContain("Sign in at");
});

test.afterAll(async () => {
  if (quickstart?.pid) process.kill(-quickstart.pid, "SIGTERM");
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(workDir, { recursive: true, force: true });
  if (freshDatabase) {
    const sql = postgres(freshDatabase.admin, { max: 1, onnotice: () => {} });
    await sql.unsafe(`drop database if exists ${freshDatabase.name} with (force)`);
    await sql.end();
  }
});

/** A command exactly as the guide prints it. */
async function guideCommand(page: Page, name: string): Promise<string> {
  const text = await page.locator(`[data-testid="guide-command"][data-command="${name}"]`).textContent();
  expect(text, name).toBeTruthy();
  return text!;
}

async function sh(command: string, env: Record<string, string>): Promise<string> {
  const { stdout } = await run("bash", ["-c", command], { cwd: workDir, env: { ...process.env, ...env }, maxBuffer: 16 * 1024 * 1024 });
  return stdout;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port: free } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return free;
}

async function signInAsDemoCoach(page: Page) {
  await page.goto(`${base}/signin`);
  await page.waitForSelector("body[data-hydrated]", { state: "attached" });
  await page.getByLabel("Email").fill(DEMO_ACCOUNTS.coach.email);
  await page.getByLabel("Password").fill(DEMO_ACCOUNTS.coach.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
}

test("a new integrator follows the getting-started guide end to end on a fresh quickstart", async ({ page }) => {
  const started = Date.now();
  // The quickstart says it accepts plain HTTP from this machine.
  expect(quickstartOutput).toContain("ALLOW_HTTP_LOOPBACK=1");
  // And webhook endpoints on this machine (issue 30 §1; docs/getting-started.md step 7).
  expect(quickstartOutput).toContain("quickstart: WEBHOOK_ALLOW_LOOPBACK=1");

  // Sign in as the demo coach the quickstart printed; the portal's front page is the guide.
  await signInAsDemoCoach(page);
  await page.goto(`${base}/developer`);
  await expect(page.getByRole("heading", { name: "Getting started" })).toBeVisible();
  const commands = Object.fromEntries(
    await Promise.all(
      ["list", "simulate", "upload", "pdf", "oauthScript", "oauthRun"].map(async (name) => [name, await guideCommand(page, name)] as const),
    ),
  );

  // 1. A key pair from the portal.
  await page.getByRole("link", { name: "Key pairs" }).first().click();
  await page.waitForSelector("body[data-hydrated]", { state: "attached" });
  await page.getByLabel("Key pair name").fill("Getting started");
  await page.getByRole("button", { name: "Create key pair" }).click();
  const keys = {
    SVC_PUBLIC_KEY: (await page.getByTestId("public-key").textContent())!,
    SVC_SECRET_KEY: (await page.getByTestId("secret-key").textContent())!,
  };

  // 2–4. The results API samples, as printed: list, a simulated file, upload over plain HTTP, the PDF.
  const listed = JSON.parse(await sh(commands.list, keys));
  expect(listed.pagination.total).toBeGreaterThan(0);
  await sh(commands.simulate, keys);
  const uploaded = JSON.parse(await sh(commands.upload, keys));
  expect(uploaded.data?.id, JSON.stringify(uploaded)).toEqual(expect.any(Number));
  const resultId = String(uploaded.data.id);
  await sh(commands.pdf, { ...keys, RESULT_ID: resultId });
  expect(fs.readFileSync(path.join(workDir, "report.pdf")).subarray(0, 5).toString()).toBe("%PDF-");

  // 5. An application registered in the portal, with the guide's redirect URI (on a free port: REDIRECT_URI) and scopes.
  const redirectUri = `http://127.0.0.1:${await freePort()}/callback`;
  await page.goto(`${base}/developer/applications/new`);
  await page.waitForSelector("body[data-hydrated]", { state: "attached" });
  await page.getByLabel("Application name").fill("My first integration");
  await page.getByLabel("Redirect URIs", { exact: true }).fill(redirectUri);
  for (const scope of ["email", "offline_access", "sessions:read"]) await page.locator(`input[name="scopes"][value="${scope}"]`).check();
  await page.getByRole("button", { name: "Register application" }).click();
  const client = {
    CLIENT_ID: (await page.getByTestId("client-id").textContent())!,
    CLIENT_SECRET: (await page.getByTestId("client-secret").textContent())!,
    REDIRECT_URI: redirectUri,
  };

  // 6. The guide's openid-client script, run as printed; the browser signs in (already) and allows.
  fs.writeFileSync(path.join(workDir, "oauth-quickstart.mjs"), commands.oauthScript);
  const script = spawn("bash", ["-c", commands.oauthRun], {
    cwd: workDir,
    env: { ...process.env, ...client },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  script.stdout.on("data", (chunk) => (out += chunk));
  script.stderr.on("data", (chunk) => (err += chunk));
  const exited = new Promise<number | null>((resolve) => script.on("exit", resolve));
  await expect.poll(() => /https?:\/\/\S+\/oauth\/authorize\S+/.exec(out)?.[0] ?? err, { timeout: 15_000 }).toMatch(/^http/);
  await page.goto(/https?:\/\/\S+\/oauth\/authorize\S+/.exec(out)![0]);
  await expect(page.getByRole("heading", { name: "Allow My first integration to access your account?" })).toBeVisible();
  await page.getByRole("button", { name: "Allow" }).click();
  expect(await exited, err).toBe(0);
  const printed = JSON.parse(out.slice(out.indexOf("{")));
  expect(printed.userinfo).toMatchObject({ sub: printed.sub, name: DEMO_ACCOUNTS.coach.name, email: DEMO_ACCOUNTS.coach.email });
  expect(printed.me).toMatchObject({ sub: printed.sub, email: DEMO_ACCOUNTS.coach.email });
  expect(printed.sessions).toContain(uploaded.data.id);
  expect(printed.refreshed).toBe(true);

  test.info().annotations.push({ type: "guide end to end (ms)", description: String(Date.now() - started) });
  console.log(`getting started, end to end: ${Date.now() - started} ms`);
});

test("the results API reference's Try it uploads a file as printed, over plain HTTP on the quickstart", async ({ page }) => {
  await signInAsDemoCoach(page);
  await page.goto(`${base}/developer/keys`);
  await page.waitForSelector("body[data-hydrated]", { state: "attached" });
  await page.getByLabel("Key pair name").fill("Try it");
  await page.getByRole("button", { name: "Create key pair" }).click();
  const publicKey = (await page.getByTestId("public-key").textContent())!;
  const secretKey = (await page.getByTestId("secret-key").textContent())!;

  await page.goto(`${base}/developer/docs/results-api/results`);
  await page.waitForSelector("body[data-hydrated]", { state: "attached" });
  await page.getByRole("button", { name: "Try it: POST /results", exact: true }).click();
  const panel = page.getByRole("region", { name: "Try it", exact: true });
  await panel.getByLabel("Public key").fill(publicKey);
  await panel.getByLabel("Secret key").fill(secretKey);
  // The metadata as the panel fills it in: the demo coach's track 1 and athlete 1 on a fresh quickstart.
  await panel.getByLabel("Device file (.svc)").setInputFiles({
    name: "session.svc",
    mimeType: "application/octet-stream",
    buffer: simulatedSvc({ vessel: "K1", distanceM: 500, seed: 2027 }),
  });
  await panel.getByRole("button", { name: "Send request" }).click();
  const response = panel.getByRole("region", { name: "Response", exact: true });
  await expect(response.getByTestId("try-it-status")).toHaveText("201 Created", { timeout: 20_000 });
  await expect(response.getByLabel("Response body")).toContainText(/"id": \d+/);
});
