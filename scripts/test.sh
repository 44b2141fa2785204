#!/usr/bin/env bash
# The whole suite: type check, lint and format, unit tests, then every e2e test three times: on the embedded engine
# (chDB, no Redis: single-process fallbacks), against a ClickHouse HTTP server from libchdb + redis-server, and against
# a 2-shard x 2-replica ClickHouse cluster of libchdb nodes + redis-server; then the timing suites in each mode, alone;
# then the multi-instance suite: three `node dist/main.js` behind nginx on a shared ClickHouse + Redis.
# A step whose system tools (scripts/system-tools.table.json) are missing is skipped with a banner naming each tool and
# its install command, repeated at the end; under CI=true it fails instead.
set -euo pipefail
cd "$(dirname "$0")/.."
skipped=""
# has_tools WHAT TOOL…: true when every tool is on the PATH; false (the banner printed and kept) when one is
# missing outside CI; under CI a missing tool ends the run.
has_tools() {
  local code=0 message
  message=$(node -r ts-node/register/transpile-only scripts/system-tools.ts check "$@" 2>&1) || code=$?
  if [ "$code" -eq 0 ]; then return 0; fi
  echo "$message" >&2
  if [ "$code" -eq 3 ]; then
    skipped+="$message"$'\n'
    return 1
  fi
  exit "$code"
}
echo "== typecheck" && npx tsc -p tsconfig.json --noEmit
echo "== Backstage client against @backstage/plugin-cost-insights' own types" && bash scripts/backstage-plugin-types.sh
echo "== lint (ESLint, type-aware, with the folder layering)" && npx eslint src test scripts clients
echo "== format (Prettier)" && npx prettier --check --log-level warn "src/**/*.ts" "test/**/*.ts" "scripts/**/*.ts" "clients/**/*.ts" eslint.config.mjs jest.config.js
echo "== unit" && npx jest --selectProjects unit
# Each mode's e2e files run side by side (two workers); then, after every mode, the timing suites (test/timing:
# wall time and memory measured) run alone and in band, so no other suite's load is on the cores with them.
modes=(embedded)
echo "== e2e (embedded chDB)" && E2E_MODE=embedded npx jest --selectProjects e2e --maxWorkers=2
echo "== e2e (ClickHouse server + Redis)"
if has_tools "the e2e suite in server mode (E2E_MODE=server)" python3 redis-server; then
  E2E_MODE=server npx jest --selectProjects e2e --maxWorkers=2
  modes+=(server)
fi
echo "== e2e (ClickHouse cluster: 2 shards x 2 replicas + Redis)"
if has_tools "the e2e suite in cluster mode (E2E_MODE=cluster)" python3 redis-server; then
  E2E_MODE=cluster npx jest --selectProjects e2e --maxWorkers=2
  modes+=(cluster)
fi
for mode in "${modes[@]}"; do
  echo "== timing suites, alone and in band ($mode)" && E2E_MODE=$mode npx jest --selectProjects timing --runInBand
done
# The multi project's suites check their own tools (test/support/system-tools.ts): a missing one skips them, loudly.
echo "== multi-instance (3 API processes + nginx + ClickHouse server + Redis)"
multi_output=$(mktemp)
trap 'rm -f "$multi_output"' EXIT
npx jest --selectProjects multi --runInBand 2>&1 | tee "$multi_output"
skipped+=$(sed -n '/^ *!!  SKIPPED/,/^ *!!  (With CI/{s/^ *//;p}' "$multi_output")
if [ -n "$skipped" ]; then
  printf '\n== skipped for missing system tools (install them and run again; CI installs them and fails without them):\n%s\n' "$skipped" >&2
fi
