#!/usr/bin/env bash
# The whole suite, in phases, each timed (a table at the end): the static checks and the build, side by side; the
# unit tests; the e2e suites in each mode they declare (their first line, test/support/suite-modes.ts): on the
# embedded engine (chDB, no Redis: single-process fallbacks), against a ClickHouse HTTP server from libchdb +
# redis-server, and against a 2-shard x 2-replica cluster of libchdb nodes + redis-server; then the timing suites in
# each mode, alone; then the multi-instance suite: three `node dist/main.js` behind nginx on a shared ClickHouse + Redis.
# A step whose system tools (scripts/system-tools.table.json) are missing is skipped with a banner naming each tool and
# its install command, repeated at the end; under CI=true it fails instead.
set -euo pipefail
cd "$(dirname "$0")/.."
skipped=""
timings=()
started_all=$(date +%s)

# phase NAME COMMAND…: runs the command, records its wall time (and, when it fails, the table so far).
phase() {
  local name=$1 start code=0
  shift
  echo "== $name"
  start=$(date +%s)
  "$@" || code=$?
  timings+=("$name|$(($(date +%s) - start))|$([ "$code" -eq 0 ] && echo ok || echo "FAILED ($code)")")
  if [ "$code" -ne 0 ]; then
    print_timings
    exit "$code"
  fi
}

print_timings() {
  local row name seconds result
  printf '\n%-58s %9s  %s\n' "phase" "wall time" "result"
  for row in "${timings[@]}"; do
    IFS='|' read -r name seconds result <<<"$row"
    printf '%-58s %6dm%02ds  %s\n' "$name" $((seconds / 60)) $((seconds % 60)) "$result"
  done
  local total=$(($(date +%s) - started_all))
  printf '%-58s %6dm%02ds\n' "total" $((total / 60)) $((total % 60))
}

# in_parallel NAME=COMMAND…: the commands side by side (one core each), each one's output shown once it ended.
in_parallel() {
  local dir pids=() names=() code=0 i
  dir=$(mktemp -d)
  for job in "$@"; do
    names+=("${job%%=*}")
    bash -c "${job#*=}" >"$dir/${#names[@]}.log" 2>&1 &
    pids+=($!)
  done
  for i in "${!pids[@]}"; do
    if wait "${pids[$i]}"; then echo "-- ${names[$i]}: ok"; else
      code=1
      echo "-- ${names[$i]}: FAILED"
    fi
    cat "$dir/$((i + 1)).log"
  done
  rm -rf "$dir"
  return "$code"
}

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

# The type-aware lint takes one core for a minute; the type check, the Backstage types, the build (dist/, which the
# e2e suites reuse: test/support/built-dist.ts) and the format check share the other.
phase "static checks and build (typecheck, lint, format, dist/)" in_parallel \
  "lint (ESLint, type-aware, with the folder layering)=npx eslint src test scripts clients" \
  "typecheck, Backstage client types, build, format=npx tsc -p tsconfig.json --noEmit && bash scripts/backstage-plugin-types.sh && node scripts/built-dist.js && npx prettier --check --log-level warn 'src/**/*.ts' 'test/**/*.ts' 'scripts/**/*.ts' 'clients/**/*.ts' eslint.config.mjs jest.config.js"
phase "unit" npx jest --selectProjects unit
# Each mode's e2e files run side by side (two workers); then, after every mode, the timing suites (test/timing:
# wall time and memory measured) run alone, one file at a time, each in a fresh process (a worker recycled after every
# file: a heap grown by an earlier file's imports would stretch a later file's GC pauses), so no other suite's load is on
# the cores with them.
# Each e2e run's times per suite go to .test-tmp/last-run/ (jest --json): the committed times that order a fresh
# clone's suites are refreshed from them (test/support/suite-durations.ts; docs/testing.md).
mkdir -p .test-tmp/last-run
# Two workers per e2e phase unless E2E_WORKERS says otherwise (docs/testing.md: what a third one measured).
e2e_workers=${E2E_WORKERS:-2}
suite_times() { echo "--json" "--outputFile=.test-tmp/last-run/e2e-$1.json"; }
modes=(embedded)
phase "e2e (embedded chDB)" env E2E_MODE=embedded npx jest --selectProjects e2e --maxWorkers="$e2e_workers" $(suite_times embedded)
if has_tools "the e2e suite in server mode (E2E_MODE=server)" python3 redis-server; then
  phase "e2e (ClickHouse server + Redis)" env E2E_MODE=server npx jest --selectProjects e2e --maxWorkers="$e2e_workers" $(suite_times server)
  modes+=(server)
fi
if has_tools "the e2e suite in cluster mode (E2E_MODE=cluster)" python3 redis-server; then
  phase "e2e (ClickHouse cluster: 2 shards x 2 replicas + Redis)" env E2E_MODE=cluster npx jest --selectProjects e2e --maxWorkers="$e2e_workers" $(suite_times cluster)
  modes+=(cluster)
fi
for mode in "${modes[@]}"; do
  phase "timing suites, alone, each in a fresh process ($mode)" env E2E_MODE="$mode" npx jest --selectProjects timing --maxWorkers=1 --workerIdleMemoryLimit=1MB
done
# The multi project's suites check their own tools (test/support/system-tools.ts): a missing one skips them, loudly.
multi_output=$(mktemp)
trap 'rm -f "$multi_output"' EXIT
multi() { npx jest --selectProjects multi --runInBand 2>&1 | tee "$multi_output"; }
phase "multi-instance (3 API processes + nginx + ClickHouse server + Redis)" multi
skipped+=$(sed -n '/^ *!!  SKIPPED/,/^ *!!  (With CI/{s/^ *//;p}' "$multi_output")
print_timings
if [ -n "$skipped" ]; then
  printf '\n== skipped for missing system tools (install them and run again; CI installs them and fails without them):\n%s\n' "$skipped" >&2
fi
