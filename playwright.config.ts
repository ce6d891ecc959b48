import { defineConfig } from "@playwright/test";

// One production server (`next start`, built beforehand by `npm run build`)
// serves every spec: browser flows and HTTP-level API checks alike. It uses
// DATABASE_URL when set, otherwise a fresh PGlite folder per run.
const port = Number(process.env.E2E_PORT ?? 3210);
const baseURL = `http://localhost:${port}`;
const dataDir = process.env.E2E_DATA_DIR ?? `.data/e2e-${Date.now()}`;
/** A lower upload limit than production's, so the 413 test sends megabytes, not 64 MiB. */
export const E2E_MAX_UPLOAD_BYTES = 2_000_000;
/**
 * E2E_S3=1: blobs in S3 instead of Postgres, on a local S3 server (s3rver)
 * started next to the app (docs/blobs.md). `npm test` runs the export and
 * device-file specs this way too, on a fresh PGlite (scripts/test.sh).
 */
const s3Port = port + 1000;
const s3Env =
  process.env.E2E_S3 === "1"
    ? {
        S3_BUCKET: "svc-e2e",
        S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
        S3_REGION: "us-east-1",
        S3_ACCESS_KEY_ID: "S3RVER",
        S3_SECRET_ACCESS_KEY: "S3RVER",
        S3_FORCE_PATH_STYLE: "1",
      }
    : null;

export default defineConfig({
  testDir: "e2e",
  outputDir: s3Env ? "test-results/e2e-s3" : "test-results/e2e",
  fullyParallel: false,
  // A focused test left in a commit would silently skip the rest of the suite.
  forbidOnly: true,
  workers: 2,
  retries: 0,
  timeout: 45_000,
  expect: { timeout: 10_000 },
  reporter: [["list"], ["json", { outputFile: s3Env ? "test-results/e2e-s3-report.json" : "test-results/e2e-report.json" }]],
  use: {
    baseURL,
    screenshot: "only-on-failure",
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      // Root in CI needs --no-sandbox; the rest keeps Chromium off the closed network.
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  projects: [{ name: "chromium", use: { browserName: "chromium" } }],
  webServer: [
    ...(s3Env
      ? [
          {
            command: "npx tsx scripts/local-s3.ts",
            port: s3Port,
            reuseExistingServer: false,
            timeout: 60_000,
            env: { ...process.env, S3_LOCAL_PORT: String(s3Port), S3_LOCAL_BUCKET: s3Env.S3_BUCKET } as Record<string, string>,
          },
        ]
      : []),
    {
      // Seeds the accounts sign-up cannot make, then serves the built app.
      command: `npx tsx scripts/e2e-seed.ts && npx next start -p ${port}`,
      url: `${baseURL}/signin`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: "pipe",
      stderr: "pipe",
      env: {
        ...process.env,
        ...s3Env,
        PORT: String(port),
        APP_URL: baseURL,
        DATA_DIR: dataDir,
        TRUST_PROXY: "1",
        // A local run: the webhook specs' receivers listen on loopback (docs/webhooks.md).
        WEBHOOK_ALLOW_LOOPBACK: "1",
        NEXT_TELEMETRY_DISABLED: "1",
        RESULTS_API_MAX_UPLOAD_BYTES: String(E2E_MAX_UPLOAD_BYTES),
      } as Record<string, string>,
    },
  ],
});
