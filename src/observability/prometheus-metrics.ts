import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * The process's Prometheus metrics (served at GET /metrics). One registry per process, not a Nest
 * provider, because the ClickHouse service is also built outside Nest (CLI, test set-up) and still counts.
 */
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry, prefix: 'cost_insights_' });

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export const metrics = {
  httpRequests: new Counter({
    name: 'cost_insights_http_requests_total',
    help: 'HTTP requests by method, route template and status code',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [metricsRegistry],
  }),
  httpDuration: new Histogram({
    name: 'cost_insights_http_request_duration_seconds',
    help: 'HTTP request latency by method, route template and status code',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [metricsRegistry],
  }),
  clickhouseQueryDuration: new Histogram({
    name: 'cost_insights_clickhouse_query_duration_seconds',
    help: 'ClickHouse statement latency by kind (query, command, insert) and outcome',
    labelNames: ['kind', 'outcome'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [metricsRegistry],
  }),
  clickhouseRowsRead: new Counter({
    name: 'cost_insights_clickhouse_rows_read_total',
    help: "Rows read by ClickHouse for API queries, as of each answer's first bytes (X-ClickHouse-Summary: a lower bound; not reported by the embedded engine)",
    registers: [metricsRegistry],
  }),
  clickhouseBytesRead: new Counter({
    name: 'cost_insights_clickhouse_bytes_read_total',
    help: "Bytes read by ClickHouse for API queries, as of each answer's first bytes (X-ClickHouse-Summary: a lower bound; not reported by the embedded engine)",
    registers: [metricsRegistry],
  }),
  clickhouseErrors: new Counter({
    name: 'cost_insights_clickhouse_errors_total',
    help: 'Failed ClickHouse statements by kind',
    labelNames: ['kind'] as const,
    registers: [metricsRegistry],
  }),
  redisErrors: new Counter({
    name: 'cost_insights_redis_errors_total',
    help: 'Failed Redis operations by use (rate_limit, shared_filters, health)',
    labelNames: ['operation'] as const,
    registers: [metricsRegistry],
  }),
  resultCacheLookups: new Counter({
    name: 'cost_insights_result_cache_lookups_total',
    help: 'Answers of cacheable routes by cache outcome (hit, miss, bypass: the client sent Cache-Control: no-cache)',
    labelNames: ['outcome'] as const,
    registers: [metricsRegistry],
  }),
  rateLimitRejections: new Counter({
    name: 'cost_insights_rate_limit_rejections_total',
    help: 'Requests answered 429, by tracker kind (key, ip or organization)',
    labelNames: ['tracker'] as const,
    registers: [metricsRegistry],
  }),
  rateLimitFallback: new Gauge({
    name: 'cost_insights_rate_limit_local_fallback',
    help: '1 while Redis is unreachable and this instance counts rate limits in its own memory',
    registers: [metricsRegistry],
  }),
  rateLimitFallbackRequests: new Counter({
    name: 'cost_insights_rate_limit_local_fallback_requests_total',
    help: 'Requests counted in process memory because Redis was unreachable',
    registers: [metricsRegistry],
  }),
  sourceChecks: new Counter({
    name: 'cost_insights_source_checks_total',
    help: 'What checks of data sources found and did, by outcome (imported, unchanged, incomplete, refused, unreadable, unreachable, failed)',
    labelNames: ['outcome'] as const,
    registers: [metricsRegistry],
  }),
  budgetSums: new Counter({
    name: 'cost_insights_budget_sums_total',
    help: "Budgets' sums a status or an evaluation used, by where they came from: stored (for the same data and day) or read from the store",
    labelNames: ['source'] as const,
    registers: [metricsRegistry],
  }),
  sourceObjectReads: new Counter({
    name: 'cost_insights_source_object_reads_total',
    help: 'Objects read from data sources, by what they were (manifest, part): a check with nothing new reads none',
    labelNames: ['object'] as const,
    registers: [metricsRegistry],
  }),
  sourceImportLag: new Histogram({
    name: 'cost_insights_source_import_lag_seconds',
    help: "Seconds from a delivery's arrival in its source to its publication",
    buckets: [10, 30, 60, 120, 300, 600, 1800, 3600, 7200, 21600, 86400],
    registers: [metricsRegistry],
  }),
  convertedAnswers: new Counter({
    name: 'cost_insights_converted_answers_total',
    help: 'Converted /data answers by what they read: converted_sums (a build, as fast as an unconverted answer) or cost_rows (converted while answering)',
    labelNames: ['read'] as const,
    registers: [metricsRegistry],
  }),
  convertedSumBuilds: new Counter({
    name: 'cost_insights_converted_sum_builds_total',
    help: 'Builds of converted sums by outcome (built, superseded: the inputs changed meanwhile, missing_rates, failed)',
    labelNames: ['outcome'] as const,
    registers: [metricsRegistry],
  }),
  categoryAnswers: new Counter({
    name: 'cost_insights_category_answers_total',
    help: '/data answers by rule-defined cost categories by what they read: category_sums (a build) or rules (evaluated while answering)',
    labelNames: ['read'] as const,
    registers: [metricsRegistry],
  }),
  categorySumBuilds: new Counter({
    name: 'cost_insights_category_sum_builds_total',
    help: 'Builds of category sums by outcome (built, superseded: the inputs changed meanwhile, failed)',
    labelNames: ['outcome'] as const,
    registers: [metricsRegistry],
  }),
  sourceWorkerActive: new Gauge({
    name: 'cost_insights_source_worker_active',
    help: "1 while this process holds the data-source worker's lease (exactly one process across the instances)",
    registers: [metricsRegistry],
  }),
  auditEventsUnrecorded: new Counter({
    name: 'cost_insights_audit_events_unrecorded_total',
    help: 'Administrative changes made whose audit event could not be written (each is logged in full at error level instead)',
    registers: [metricsRegistry],
  }),
};

/** Reads `read_rows`/`read_bytes` from an X-ClickHouse-Summary header value; undefined when absent or unparsable. */
export function parseClickhouseSummary(header: unknown): { readRows: number; readBytes: number } | undefined {
  const text = Array.isArray(header) ? header[0] : header;
  if (typeof text !== 'string' || text === '') return undefined;
  try {
    const summary = JSON.parse(text) as { read_rows?: string | number; read_bytes?: string | number };
    const readRows = Number(summary.read_rows);
    const readBytes = Number(summary.read_bytes);
    if (!Number.isFinite(readRows) || !Number.isFinite(readBytes)) return undefined;
    return { readRows, readBytes };
  } catch {
    return undefined;
  }
}
