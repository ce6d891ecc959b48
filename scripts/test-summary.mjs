// Adds up the Vitest and Playwright JSON reports into one line "N passed, N failed, N skipped".
// A stage that failed without failing tests (lint, types, build) counts as one failure.
// Skipped, pending and to-do tests are counted and said, never hidden among the passed.
import fs from "node:fs";
import path from "node:path";

const failedStages = process.argv.slice(2);
let passed = 0;
let failed = 0;
let skipped = 0;

function readJson(path) {
  try {
    return JSON.parse(fs.readFileSync(path, "utf8"));
  } catch {
    return null;
  }
}

const vitest = readJson("test-results/vitest-report.json");
if (vitest) {
  passed += vitest.numPassedTests;
  failed += vitest.numFailedTests;
  skipped += (vitest.numPendingTests ?? 0) + (vitest.numTodoTests ?? 0);
}
const e2e = readJson("test-results/e2e-report.json");
// The export and device-file specs run a second time with blobs in S3 (E2E_S3=1).
const e2eS3 = readJson("test-results/e2e-s3-report.json");
for (const report of [e2e, e2eS3]) {
  if (!report) continue;
  passed += report.stats.expected + report.stats.flaky;
  failed += report.stats.unexpected;
  skipped += report.stats.skipped ?? 0;
}
for (const stage of failedStages) {
  const counted =
    (stage === "unit+integration" && vitest?.numFailedTests) ||
    (stage === "e2e" && e2e?.stats.unexpected) ||
    (stage === "e2e-s3" && e2eS3?.stats.unexpected);
  if (!counted) failed += 1;
}
// The names of the failed tests last, with their first error line: a CI log is often read from its tail only.
const failures = [];
for (const file of vitest?.testResults ?? []) {
  for (const test of file.assertionResults ?? []) {
    if (test.status !== "failed") continue;
    const firstLine = String(test.failureMessages?.[0] ?? "").split("\n")[0];
    failures.push(`${path.relative(process.cwd(), file.name)} › ${test.fullName ?? test.title}: ${firstLine}`);
  }
}
function playwrightFailures(suites, where) {
  for (const suite of suites ?? []) {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status !== "unexpected") continue;
        const error = test.results?.at(-1)?.error?.message ?? "";
        failures.push(`${where}${spec.file}:${spec.line} › ${spec.title}: ${error.split("\n")[0]}`);
      }
    }
    playwrightFailures(suite.suites, where);
  }
}
playwrightFailures(e2e?.suites, "");
playwrightFailures(e2eS3?.suites, "(S3) ");
for (const failure of failures) console.log(`FAILED ${failure.slice(0, 400)}`);
if (failedStages.length) console.log(`failed stages: ${failedStages.join(", ")}`);
fs.writeFileSync("test-results/summary.json", JSON.stringify({ passed, failed, skipped, failedStages }));
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 ? 1 : 0);
