import { defineConfig } from "vitest/config";

// Unit and integration tests (next to the code, *.test.ts). Integration tests
// use Postgres when DATABASE_URL is set and an in-memory PGlite otherwise.
// HTTP and browser tests live in e2e/ and run under Playwright.
export default defineConfig({
  resolve: { alias: { "@": import.meta.dirname } },
  test: {
    include: [
      "server/**/*.test.ts",
      "app/**/*.test.ts",
      "inngest/**/*.test.ts",
      "scripts/**/*.test.ts",
      "test/**/*.test.ts",
      "packages/**/src/**/*.test.ts",
    ],
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Tests are a local run: webhook receivers listen on loopback (docs/webhooks.md "Local runs").
    env: { WEBHOOK_ALLOW_LOOPBACK: "1" },
  },
});
