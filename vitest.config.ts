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
    // Three files at a time on two cores: the tests wait on Postgres, and with two forks a third of the CPU sat idle
    // (docs/ci.md). Files whose work spans the whole database take one of their own (test/support/test-db.ts).
    maxWorkers: 3,
    // Tests are a local run: webhook receivers listen on loopback (docs/webhooks.md "Local runs").
    env: { WEBHOOK_ALLOW_LOOPBACK: "1" },
  },
});
