#!/usr/bin/env node
/**
 * Sums the vitest and Playwright JSON reports into one closing line, `N passed, N failed`
 * (`, N skipped` appended only when some were skipped), printed last on stdout.
 * Exits 1 when anything failed or a report is missing or unreadable.
 *
 * Usage: node scripts/summarize-tests.mjs <vitest.json> <playwright.json>
 */
import { readFileSync } from "node:fs";

const [vitestPath = "reports/vitest.json", playwrightPath = "reports/playwright.json"] = process.argv.slice(2);

function readReport(path) {
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    console.error(`summarize-tests: report ${path} is missing or unreadable (${error.code ?? error.message})`);
    return undefined;
  }
}

/** Vitest's JSON reporter is Jest-shaped. A file that failed to load has no failed test: count it once. */
function countVitest(report) {
  const brokenFiles = (report.testResults ?? []).filter(
    (file) => file.status === "failed" && !(file.assertionResults ?? []).some((t) => t.status === "failed"),
  ).length;
  return {
    passed: report.numPassedTests ?? 0,
    failed: (report.numFailedTests ?? 0) + brokenFiles,
    skipped: (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0),
  };
}

/** Playwright's stats: `expected` passed, `flaky` passed on retry, `unexpected` failed. Run-level errors (global set-up, web server) count as failures. */
function countPlaywright(report) {
  const stats = report.stats ?? {};
  return {
    passed: (stats.expected ?? 0) + (stats.flaky ?? 0),
    failed: (stats.unexpected ?? 0) + (report.errors ?? []).length,
    skipped: stats.skipped ?? 0,
  };
}

const totals = { passed: 0, failed: 0, skipped: 0 };
let missing = false;
for (const [path, count] of [
  [vitestPath, countVitest],
  [playwrightPath, countPlaywright],
]) {
  const report = readReport(path);
  if (!report) {
    missing = true;
    continue;
  }
  const counts = count(report);
  totals.passed += counts.passed;
  totals.failed += counts.failed;
  totals.skipped += counts.skipped;
}

const skipped = totals.skipped > 0 ? `, ${totals.skipped} skipped` : "";
console.log(`${totals.passed} passed, ${totals.failed} failed${skipped}`);
process.exit(missing || totals.failed > 0 ? 1 : 0);
