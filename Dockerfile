# syntax=docker/dockerfile:1.7
# Cost Insights API: production image for a ClickHouse server deployment (CLICKHOUSE_URL set).
# The embedded engine (chdb, an optional dependency of ~500 MB) is not installed: the server does
# not load it when CLICKHOUSE_URL is set.

ARG NODE_IMAGE=node:20.19.0-bookworm-slim

# ---- build: all dependencies (dev included, optional skipped), compile TypeScript to dist/
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=optional --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npx tsc -p tsconfig.build.json

# ---- production dependencies only
FROM ${NODE_IMAGE} AS prod-deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --omit=optional --ignore-scripts --no-audit --no-fund && npm cache clean --force

# ---- runtime: non-root, no npm in the process tree (signals reach node directly)
FROM ${NODE_IMAGE} AS runtime
# JSON log lines even when a terminal is attached (`docker run -t`): LOG_FORMAT's `auto` would make them readable.
ENV NODE_ENV=production \
    LOG_FORMAT=json \
    PORT=3000 \
    MIGRATE_ON_START=false \
    DEMO_ON_EMPTY_STORE=false
WORKDIR /app
COPY --from=prod-deps --chown=root:root /app/node_modules ./node_modules
COPY --from=build --chown=root:root /app/dist ./dist
COPY --chown=root:root package.json ./
# The store's schema (read by the migrator from the repository's src/: tsc copies no SQL into dist/).
COPY --chown=root:root src/store/schema/migrations ./src/store/schema/migrations
COPY --chown=root:root src/store/schema/schema.sql ./src/store/schema/schema.sql
COPY --chown=root:root web ./web
# The code is root-owned and read-only to the service user.
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/health/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# SIGTERM drains (readiness 503, in-flight requests finish) before exiting: give it
# SHUTDOWN_READINESS_DELAY_MS + SHUTDOWN_TIMEOUT_MS (stop_grace_period in docker-compose.yml).
STOPSIGNAL SIGTERM
CMD ["node", "dist/main.js"]
