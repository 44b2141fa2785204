#!/usr/bin/env bash
# `npm run bench`: compiles the bench with the API (tsc, as `npm run build` does for production) and runs it
# as plain JavaScript. Under ts-node the API would not run as in production: ts-node loads Node's REPL,
# whose `domain` module wraps every EventEmitter.emit.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=.test-tmp/bench-build
rm -rf "$out"
npx tsc -p scripts/bench/tsconfig.json
# Files the compiled code finds relative to the repository root (migrations, the settings page, the ClickHouse server launcher).
ln -s "$PWD/src/store/schema/migrations" "$out/src/store/schema/migrations"
ln -s "$PWD/src/store/schema/schema.sql" "$out/src/store/schema/schema.sql"
ln -s "$PWD/web" "$out/web"
ln -s "$PWD/scripts/clickhouse-server.py" "$out/scripts/clickhouse-server.py"
exec node "$out/scripts/bench/run.js" "$@"
