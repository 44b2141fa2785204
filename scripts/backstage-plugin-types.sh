#!/usr/bin/env bash
# Type-checks the Backstage client (clients/backstage-cost-insights) against the published
# @backstage/plugin-cost-insights, whose CostInsightsApi it implements. The plugin is a React frontend
# plugin: as a dev dependency it would add ~320 packages (256 MB) and React peer dependencies that do not
# resolve with this project's tree, all for types. Its tarball alone (150 kB) holds the declarations: fetched
# once with `npm pack` into node_modules/.cache, checked against the integrity pinned here, unpacked. The
# declarations' own imports (React, Material UI, recharts) stay unresolved, which skipLibCheck tolerates;
# none of them is part of CostInsightsApi. The data types come from @backstage/plugin-cost-insights-common,
# a dev dependency without dependencies.
set -euo pipefail
cd "$(dirname "$0")/.."
PLUGIN=@backstage/plugin-cost-insights@0.11.32
INTEGRITY=sha512-p9/MiXPTQmGJUM7jCYsoTHBpWgaiu0QPzXzkfuiiCzzKTAvWPOSKqIhMoAu07QuQrS78cwQNW++u3ke0X3OhXQ==
DIR=node_modules/.cache/backstage-plugin-cost-insights-0.11.32
if [ ! -f "$DIR/package/dist/index.d.ts" ]; then
  rm -rf "$DIR" && mkdir -p "$DIR"
  npm pack "$PLUGIN" --pack-destination "$DIR" --silent >/dev/null 2>"$DIR/pack.log" || { cat "$DIR/pack.log" >&2; exit 1; }
  TARBALL=$(ls "$DIR"/*.tgz)
  ACTUAL="sha512-$(node -e "process.stdout.write(require('crypto').createHash('sha512').update(require('fs').readFileSync(process.argv[1])).digest('base64'))" "$TARBALL")"
  if [ "$ACTUAL" != "$INTEGRITY" ]; then
    echo "$PLUGIN: integrity $ACTUAL, expected $INTEGRITY" >&2
    rm -rf "$DIR"
    exit 1
  fi
  tar -xzf "$TARBALL" -C "$DIR"
fi
npx tsc -p clients/backstage-cost-insights/conformance/tsconfig.json
echo "CostInsightsApiClient is a CostInsightsApi of $PLUGIN"
