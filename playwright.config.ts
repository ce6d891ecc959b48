import { defineConfig } from "@playwright/test";

// One production server (`next start`, built beforehand by `npm run build`)
// serves every spec: browser flows and HTTP-level API checks alike. It uses
// DATABASE_URL when set, otherwise a fresh PGlite folder per run.
const port = Number(process.env.E2E_PORT ?? 3210);
const baseURL = `http://localhost:${port}`;
const dataDir = process.env.E2E_DATA_DIR ?? `.data/e2e-${Date.now()}`;
/** A lower upload limit than production's, so the 413 test sends megabytes, not 64 MiB. */
export const E2E_MAX_UPLOAD_BYTES = 2_000_000;

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results/e2e",
  fullyParallel: false,
  workers: 2,
  retries: 0,
  timeout: 45_000,
  expect: { timeout: 10_000 },
  reporter: [["list"], ["json", { outputFile: "test-results/e2e-report.json" }]],
  use: {
    baseURL,
    screenshot: "only-on-failure",
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      // Root in CI needs --no-sandbox; the rest keeps Chromium off the closed network.
      args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    },
  },
  projects: [{ name: "chromium", use: { browserName: "chromium" } }],
  webServer: {
    // Seeds the accounts sign-up cannot make, then serves the built app.
    command: `npx tsx scripts/e2e-seed.ts && npx next start -p ${port}`,
    url: `${baseURL}/signin`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, PORT: String(port), APP_URL: baseURL, DATA_DIR: dataDir, TRUST_PROXY: "1", NEXT_TELEMETRY_DISABLED: "1", RESULTS_API_MAX_UPLOAD_BYTES: String(E2E_MAX_UPLOAD_BYTES) } as Record<string, string>,
  },
});
