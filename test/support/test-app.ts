import type { Filters } from '../../src/cost-query/filters.types';
import { validDataScope } from '../../src/dto/data-scope.dto';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { createApp } from '../../src/app.factory';
import { ApiKeysService } from '../../src/auth/api-keys.service';
import type { SettingOverrides } from '../../src/config/settings';
import type { CostLineItemRow } from '../../src/cost-query/cost-line-item';
import { MEASURE_COLUMNS, MeasureColumn } from '../../src/cost-query/metrics';
import { loadConfig } from '../../src/config/app-config';
import { ClickhouseService } from '../../src/store/clickhouse/clickhouse.service';
import { migrate } from '../../src/store/schema/migrator';
import { Scope, SCOPES } from '../../src/common/http/principal';
import { SHARED_SERVERS } from './e2e-mode';

/** Times a cancelled OPTIMIZE of a test's partition is asked for again. */
const MERGE_ATTEMPTS = 5;

export type CostRow = CostLineItemRow;

/** A test's own setup statements run without the budgets its application is started with. */
const SETUP_BUDGETS = { max_execution_time: 0, max_memory_usage: '0' };

export type RowInput = Partial<Omit<CostRow, 'organization_id'>> & { usage_date: string };

/** Every measure of the metrics table at zero: what a row costs and saves unless it says otherwise. */
const NO_MONEY = Object.fromEntries(MEASURE_COLUMNS.map((column) => [column, '0'])) as Record<MeasureColumn, string>;

export function costRow(organizationId: string, input: RowInput): CostRow {
  return {
    organization_id: organizationId,
    billing_period: input.usage_date.slice(0, 7),
    billing_currency: 'USD',
    cost_layer: 'Infrastructure',
    cloud: 'AWS',
    service: 'Amazon EC2',
    resource_family: 'Compute',
    region: 'us-east-1',
    instance_type: 'm6i.large',
    usage_type: 'BoxUsage:m6i.large',
    cost_type: 'Usage',
    account_id: '111111111111',
    account_name: 'Production',
    integration_id: 'aws-main',
    resource_tags: {},
    cost_categories: {},
    billing_account_id: '',
    invoice_id: '',
    invoice_issuer: '',
    ...NO_MONEY,
    ...input,
  };
}

export interface TestOrganization {
  organizationId: string;
  key: string;
  keyId: string;
  /** `{ Authorization: 'Bearer …' }` */
  auth: { Authorization: string };
}

/**
 * Embedded mode: each jest worker is its own process and opens its own chDB directory (one directory
 * can be opened by one process at a time). Server and cluster mode: the suite's servers, from the environment.
 */
export function workerSettings(): SettingOverrides {
  if (SHARED_SERVERS) return {};
  return { DATA_DIR: join(process.env.E2E_TMP_DIR ?? '.test-tmp', `embedded-worker-${process.env.JEST_WORKER_ID ?? '1'}`) };
}

/**
 * Settings that point an application at a store other than the suite's. The suite's shared server or cluster was
 * migrated once by global-setup.ts, so an application on it skips the migrator (on a cluster a round of every node);
 * an embedded worker's directory is migrated by its first application, later ones finding nothing to apply.
 */
const STORE_SETTINGS = ['CLICKHOUSE_URL', 'CLICKHOUSE_DATABASE', 'CLICKHOUSE_CLUSTER', 'CLICKHOUSE_CLUSTER_NODE_URLS', 'DATA_DIR'];

function namesAStore(settings: SettingOverrides = {}): boolean {
  return Object.keys(settings).some((name) => STORE_SETTINGS.includes(name));
}

/** The real application (same factory as production) on the mode's ClickHouse and Redis. */
export class TestApp {
  private constructor(
    readonly app: NestExpressApplication,
    readonly clickhouse: ClickhouseService,
    readonly apiKeys: ApiKeysService,
  ) {}

  /**
   * `logs: true` keeps the application's logger on (tests that inspect log output); otherwise silent.
   * `settings` replace the suite's environment (global-setup.ts) for this application only.
   */
  static async start(options: { logs?: boolean; settings?: SettingOverrides } = {}): Promise<TestApp> {
    const app = await createApp({
      logger: options.logs ? undefined : false,
      settings: { ...workerSettings(), ...options.settings },
    });
    const clickhouse = app.get(ClickhouseService);
    if (!SHARED_SERVERS || namesAStore(options.settings)) await migrate(clickhouse);
    await app.init();
    return new TestApp(app, clickhouse, app.get(ApiKeysService));
  }

  get http() {
    return request(this.app.getHttpServer());
  }

  /** A fresh organisation with a key (all scopes unless given): tests never share data. */
  async newOrganization(scopes: Scope[] = [...SCOPES]): Promise<TestOrganization> {
    const organizationId = randomUUID();
    return this.keyFor(organizationId, scopes);
  }

  /** `dataScope`: Filters without dates that confine the key (validated and canonicalised as a created key's are). */
  async keyFor(organizationId: string, scopes: Scope[] = [...SCOPES], dataScope?: Filters): Promise<TestOrganization> {
    const canonical = dataScope === undefined ? '' : await validDataScope(dataScope);
    const { key, record } = await this.apiKeys.create(organizationId, 'test key', scopes, canonical);
    return { organizationId, key, keyId: record.keyId, auth: { Authorization: `Bearer ${key}` } };
  }

  /**
   * Each ClickHouse node as a single server (its tables are its local tables): the cluster's nodes in cluster
   * mode, otherwise the one server. For tests that act on parts and partitions, which live on nodes.
   */
  async nodes(): Promise<ClickhouseService[]> {
    if (!this.clickhouse.cluster) return [this.clickhouse];
    return (await this.clickhouse.cluster.allNodes('the test needs every node')).map((node) => node.connection);
  }

  /**
   * Merges each of the organisation's partitions into one part on every node (OPTIMIZE … FINAL), as background merges
   * would. A merge that ClickHouse cancelled ("Cancelled merging parts": a statement of another suite on the table
   * stopped merges for a moment) is asked for again: the tests need the merge done, not to win that race.
   */
  async mergeOrganizationParts(organizationId: string): Promise<void> {
    for (const node of await this.nodes()) {
      const partitions = await node.query<{ id: string }>(
        `SELECT DISTINCT _partition_id AS id FROM ${node.table('cost_line_items')} WHERE organization_id = {org:UUID}`,
        { org: organizationId },
      );
      for (const { id } of partitions) {
        for (let attempt = 1; ; attempt++) {
          try {
            await node.command(`OPTIMIZE TABLE ${node.table('cost_line_items')} PARTITION ID '${id}' FINAL`);
            break;
          } catch (error) {
            if (attempt === MERGE_ATTEMPTS || !String((error as Error).message).includes('Cancelled merging parts')) throw error;
          }
        }
      }
    }
  }

  /**
   * Runs a statement that generates an estate inside ClickHouse, without this application's budgets (a test
   * that sets tight ones would otherwise time its own setup out, on a cluster most of all): the application's
   * own client when embedded (one process per directory), a connection of its own to the same store otherwise.
   */
  async generate(query: string, params: Record<string, unknown>): Promise<void> {
    if (this.clickhouse.embedded) {
      await this.clickhouse.client.command({
        query,
        query_params: params,
        clickhouse_settings: SETUP_BUDGETS,
      });
      return;
    }
    this.generator ??= new ClickhouseService(
      loadConfig({ ...process.env, CLICKHOUSE_MAX_EXECUTION_SECONDS: '3600', CLICKHOUSE_MAX_MEMORY_BYTES: '0' }),
    );
    await this.generator.command(query, params);
  }
  private generator?: ClickhouseService;

  async insertRows(organizationId: string, rows: RowInput[]): Promise<CostRow[]> {
    const full = rows.map((row) => costRow(organizationId, row));
    // Setup, not a request: a test's tight budgets are for its requests (a distributed insert building the
    // projections on a cluster replica can outgrow a 24 MiB budget on its own).
    await this.clickhouse.insert('cost_line_items', full as unknown as Record<string, unknown>[], SETUP_BUDGETS);
    return full;
  }

  async close(): Promise<void> {
    await this.generator?.onModuleDestroy();
    await this.app.close();
  }
}
