import { join } from 'node:path';

// Each jest worker is its own process; in embedded mode each opens its own chDB directory
// (one directory can be opened by one process at a time).
if (process.env.E2E_MODE !== 'server') {
  process.env.DATA_DIR = join(process.env.E2E_TMP_DIR ?? '.test-tmp', `embedded-worker-${process.env.JEST_WORKER_ID ?? '1'}`);
  delete process.env.CLICKHOUSE_URL;
  delete process.env.REDIS_URL;
}
process.env.CLICKHOUSE_DATABASE = 'cost_insights_test';
process.env.DEMO_ON_EMPTY_STORE = 'false';
// Request logs would drown the test output; tests that read logs start their own processes.
process.env.LOG_LEVEL = process.env.LOG_LEVEL ?? 'silent';
process.env.RATE_LIMIT_PER_MINUTE = process.env.RATE_LIMIT_PER_MINUTE ?? '1000';
// In server mode every test file's unauthenticated requests share one per-IP counter in Redis
// (127.0.0.1): a low default limit would make other files' 401 tests flaky.
process.env.UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE = process.env.UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE ?? '1000';
