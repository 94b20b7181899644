#!/usr/bin/env bash
# `npm test`: every suite (vitest unit + int, then Playwright), run to the end even when one fails,
# closing with one line `N passed, N failed[, N skipped]` summed from their JSON reports.
# Exits non-zero when anything failed or a report is missing.
set -uo pipefail
cd "$(dirname "$0")/.."

export DATABASE_URL="${DATABASE_URL:-postgresql://postgres@127.0.0.1:5432/sluice_test}"
export NEXT_TELEMETRY_DISABLED=1
export CHECKPOINT_DISABLE=1

status=0
mkdir -p reports
rm -f reports/vitest.json reports/playwright.json

if ! npm run db:migrate; then
  echo "test-all: npm run db:migrate failed; suites that need the database will fail" >&2
  status=1
fi

# The HTTP and fault tests (test/http, test/faults: vitest) and Playwright run the production server: build first.
if [ ! -f .next/BUILD_ID ]; then
  echo "test-all: no production build found; running npm run build for the HTTP tests and Playwright" >&2
  npm run build || status=1
fi

npx vitest run --reporter=default --reporter=json --outputFile=reports/vitest.json || status=1

npx playwright test || status=1

node scripts/summarize-tests.mjs reports/vitest.json reports/playwright.json || status=1
exit "$status"
