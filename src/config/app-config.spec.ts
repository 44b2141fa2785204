import { ConfigError, DEFAULT_CONFIG, loadConfig } from './app-config';

describe('loadConfig', () => {
  it('has documented defaults for an empty environment', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      dataDir: './data',
      sharedFilterTtlSeconds: 2_592_000,
      sharedFilterMaxBytes: 65_536,
      sharedFilterQuotaCount: 1000,
      sharedFilterQuotaBytes: 16 * 1024 * 1024,
      rateLimitPerMinute: 300,
      defaultWindowDays: 30,
      heapGrowingPercent: 200,
      clickhouse: { database: 'cost_insights', maxExecutionSeconds: 20, requestTimeoutMs: 25_000, indexAnalysisThreads: 1 },
    });
    expect(config.clickhouse.url).toBeUndefined();
    expect(config.redisUrl).toBeUndefined();
  });

  it('accepts fractional query time budgets and keeps the client timeout above them', () => {
    const config = loadConfig({ CLICKHOUSE_MAX_EXECUTION_SECONDS: '0.25' });
    expect(config.clickhouse.maxExecutionSeconds).toBe(0.25);
    expect(config.clickhouse.requestTimeoutMs).toBe(5250);
  });

  it.each([
    [{ PORT: 'abc' }, /PORT must be an integer/],
    [{ PORT: '70000' }, /PORT must be between/],
    [{ CLICKHOUSE_MAX_EXECUTION_SECONDS: '-1' }, /CLICKHOUSE_MAX_EXECUTION_SECONDS must be a number of seconds/],
    [{ CLICKHOUSE_MAX_EXECUTION_SECONDS: '0' }, /CLICKHOUSE_MAX_EXECUTION_SECONDS must be between/],
    [{ CLICKHOUSE_URL: 'not a url' }, /CLICKHOUSE_URL must be a URL/],
    [{ REDIS_URL: 'http://x' }, /REDIS_URL must use redis:/],
    [{ CLICKHOUSE_DATABASE: 'x; DROP' }, /CLICKHOUSE_DATABASE must be a plain identifier/],
    [{ MIGRATE_ON_START: 'maybe' }, /MIGRATE_ON_START must be true or false/],
    [{ CLICKHOUSE_INDEX_ANALYSIS_THREADS: '5000' }, /CLICKHOUSE_INDEX_ANALYSIS_THREADS must be between 0 and 1024/],
    [{ HEAP_GROWING_PERCENT: '5000' }, /HEAP_GROWING_PERCENT must be between 0 and 1000/],
    [{ SHARED_FILTER_MAX_BYTES: '100' }, /SHARED_FILTER_MAX_BYTES must be between 4096/],
    [{ SHARED_FILTER_QUOTA_COUNT: '0' }, /SHARED_FILTER_QUOTA_COUNT must be between 1/],
    [{ SHARED_FILTER_QUOTA_MB: '1.5' }, /SHARED_FILTER_QUOTA_MB must be an integer/],
    [
      { SHARED_FILTER_QUOTA_MB: '1', SHARED_FILTER_MAX_BYTES: '2000000' },
      /SHARED_FILTER_QUOTA_MB must hold at least one filter of SHARED_FILTER_MAX_BYTES/,
    ],
    [{ CLICKHOUSE_URL: 'http://x', CLICKHOUSE_CLUSTER: 'a-b' }, /CLICKHOUSE_CLUSTER must be a plain identifier/],
    [{ CLICKHOUSE_CLUSTER: 'main' }, /CLICKHOUSE_CLUSTER needs CLICKHOUSE_URL/],
    [{ LOG_LEVEL: 'verbose' }, /LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "verbose"/],
    [{ LOG_FORMAT: 'text' }, /LOG_FORMAT must be one of auto, json, pretty, got "text"/],
  ])('rejects %j naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ PORT: '', CLICKHOUSE_DATABASE: '', REDIS_URL: '' })).toEqual(DEFAULT_CONFIG);
  });
});
