#!/usr/bin/env bash
# `npm test`: every test the project has, in the order a failure is cheapest to find:
# formatting (Prettier), lint (with the layer rules) and types, the SDK's drift check, unit and integration (Vitest; Postgres when DATABASE_URL is set,
# PGlite otherwise), the production build, then Playwright against `next start`
# in Debian's Chromium. Ends with one line "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1
mkdir -p test-results
rm -f test-results/vitest-report.json test-results/e2e-report.json test-results/e2e-s3-report.json

failed_stages=()
stage() {
  local name=$1; shift
  local started=$SECONDS
  echo "::: ${name}"
  if ! "$@"; then failed_stages+=("$name"); fi
  # Each stage's wall time, so docs/ci.md can keep the figures (see there).
  echo "::: ${name} took $((SECONDS - started)) s"
}

stage format npx prettier --check --log-level warn .
stage lint npx eslint .
# Imports that run back up a layer and import cycles, type-only ones included (ESLint's no-cycle skips those): docs/architecture.md.
stage layers npm run --silent lint:layers
stage typecheck npx tsc --noEmit -p .
# The SDK's generated types against the OpenAPI documents (a few seconds, no server): regenerate with `npm run sdk:generate`.
stage sdk-drift npm run --silent sdk:check
stage unit+integration npx vitest run --reporter=default --reporter=json --outputFile.json=test-results/vitest-report.json
# The typecheck stage above has checked every file the build compiles (docs/ci.md).
if [[ " ${failed_stages[*]} " == *" typecheck "* ]]; then stage build npx next build; else stage build env NEXT_SKIP_TYPECHECK=1 npx next build; fi
if [[ " ${failed_stages[*]} " != *" build "* ]]; then
  # The browser tests get a database of their own (scripts/e2e-database.mjs), never the unit tests' rows.
  e2e_database_url=$(node scripts/e2e-database.mjs) || failed_stages+=("e2e-database")
  stage e2e env ${e2e_database_url:+DATABASE_URL="$e2e_database_url"} npx playwright test
  # The downloads again with blobs in S3 (a local s3rver the config starts; docs/blobs.md), on a
  # fresh PGlite database so every file of that run (originals included) is an S3 object.
  stage e2e-s3 env -u DATABASE_URL E2E_S3=1 npx playwright test e2e/exports-web.spec.ts e2e/data-api-device-files.spec.ts
else
  echo "::: e2e skipped: the build failed"
fi

node scripts/test-summary.mjs "${failed_stages[@]}"
