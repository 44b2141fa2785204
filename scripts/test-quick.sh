#!/usr/bin/env bash
# The daily loop (npm run test:quick): the type check and the lint of what changed side by side, the unit tests, then
# the embedded e2e suites changed since main (QUICK_BASE to compare with another branch). Minutes, not the whole
# suite's quarter of an hour: `npm test` before pushing.
set -euo pipefail
cd "$(dirname "$0")/.."
base=$(git merge-base HEAD "${QUICK_BASE:-main}" 2>/dev/null || git rev-parse HEAD)
# Changed since the base: committed, staged, unstaged and new files.
mapfile -t changed < <({ git diff --name-only "$base"; git ls-files --others --exclude-standard; } | sort -u)
mapfile -t linted < <(printf '%s\n' "${changed[@]}" | grep -E '^(src|test|scripts|clients)/.*\.ts$' | while read -r f; do [ -f "$f" ] && echo "$f"; done || true)
mapfile -t suites < <(printf '%s\n' "${changed[@]}" | grep -E '^test/e2e/.*\.e2e-spec\.ts$' | while read -r f; do [ -f "$f" ] && head -1 "$f" | grep -qw embedded && echo "$f"; done || true)
echo "== since $(git rev-parse --short "$base"): ${#changed[@]} changed file(s), ${#linted[@]} to lint, ${#suites[@]} embedded e2e suite(s)"
started=$(date +%s)
npx tsc -p tsconfig.json --noEmit &
typecheck=$!
if ((${#linted[@]})); then npx eslint "${linted[@]}"; fi
wait "$typecheck"
npx jest --selectProjects unit
if ((${#suites[@]})); then E2E_MODE=embedded npx jest "${suites[@]}" --selectProjects e2e --maxWorkers=2; fi
echo "== test:quick passed in $(($(date +%s) - started)) s"
