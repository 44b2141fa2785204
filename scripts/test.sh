#!/usr/bin/env bash
# The whole suite: type check, unit tests, then every e2e test twice: on the embedded engine (chDB,
# no Redis: single-process fallbacks) and against a ClickHouse HTTP server from libchdb + redis-server;
# then the multi-instance suite: three `node dist/main.js` behind nginx on a shared ClickHouse + Redis.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "== typecheck" && npx tsc -p tsconfig.json --noEmit
echo "== unit" && npx jest --selectProjects unit
echo "== e2e (embedded chDB)" && E2E_MODE=embedded npx jest --selectProjects e2e --maxWorkers=2
echo "== e2e (ClickHouse server + Redis)" && E2E_MODE=server npx jest --selectProjects e2e --maxWorkers=2
echo "== multi-instance (3 API processes + nginx + ClickHouse server + Redis)" && npx jest --selectProjects multi --runInBand
