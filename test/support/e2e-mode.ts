/**
 * The e2e suite's mode (E2E_MODE, set by global-setup.ts for every worker):
 * - `embedded`: each worker opens its own chDB directory, no Redis (the single-process fallbacks);
 * - `server`: one ClickHouse HTTP server (libchdb) and one Redis, shared by every worker;
 * - `cluster`: a 2-shard × 2-replica ClickHouse cluster (libchdb nodes, test/support/clickhouse-cluster.ts) and
 *   one Redis, shared by every worker; the service reads and writes through the cluster's Distributed tables.
 */
export type E2eMode = 'embedded' | 'server' | 'cluster';

export const E2E_MODES: readonly E2eMode[] = ['embedded', 'server', 'cluster'];

export const E2E_MODE = (process.env.E2E_MODE ?? 'embedded') as E2eMode;

/** ClickHouse reached by URL (a server or a cluster) and Redis, shared by every worker of the suite. */
export const SHARED_SERVERS = E2E_MODE !== 'embedded';
