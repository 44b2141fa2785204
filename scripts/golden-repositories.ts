/**
 * Golden SQL of the repositories (`npm run queries:golden`, with golden-sql.ts): every public method of every
 * repository below run once on a StatementRecorder, the statements it sends committed as
 * src/queries/<repository>.<method>.sql. The method lists are typed as the classes' public methods, so a new method
 * without a case does not compile; golden-sql.spec.ts fails while a file is out of date, and names a source file that
 * sends statements without being recorded here, by golden-sql.ts or in NOT_YET_RECORDED.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import * as backupStatements from '../src/store/backup-statements';
import { loadConfig } from '../src/config/app-config';
import * as demoDataLoader from '../src/demo/demo-data.loader';
import * as migrator from '../src/store/schema/migrator';
import { ClickhouseCluster } from '../src/store/clickhouse/cluster-nodes';
import * as focusLoad from '../src/ingest/focus-load';
import { COST_COLUMNS, FOCUS_SOURCE_STRUCTURE, focusSelectSql, reportBlockSql } from '../src/ingest/focus-mapping';
import * as importInput from '../src/store/publish/import-input';
import * as storeRestore from '../src/store/schema/store-restore';
import { CostDataVersion } from '../src/store/data-version/cost-data-version.service';
import * as activatedMaps from '../src/store/activated-maps';
import * as contractCommitments from '../src/store/repositories/contract-commitments.repository';
import { parseContractCommitments } from '../src/ingest/contract-commitment-dataset';
import * as costPartitions from '../src/store/cost-partitions';
import * as importInvoices from '../src/store/publish/import-invoices';
import * as importJournal from '../src/store/publish/import-journal';
import * as importStaging from '../src/store/publish/import-staging';
import { backupTableName, importTableName } from '../src/store/publish/import-tables';
import * as partitionHosts from '../src/store/publish/partition-hosts';
import * as partitionPublish from '../src/store/publish/partition-publish';
import * as partitionRewrite from '../src/store/publish/partition-rewrite';
import * as projectionCompletion from '../src/store/publish/projection-completion';
import * as publishFence from '../src/store/publish/publish-fence';
import { ApiKeysRepository } from '../src/store/repositories/api-keys.repository';
import { ClickhouseSignInRecords } from '../src/store/repositories/sign-in-records';
import { AnomaliesRepository } from '../src/store/repositories/anomalies.repository';
import { BudgetsRepository, StoredAlert, StoredAttempt } from '../src/store/repositories/budgets.repository';
import { CostCategoriesRepository } from '../src/store/repositories/cost-categories.repository';
import { ConvertedSumsRepository } from '../src/store/repositories/converted-sums.repository';
import { CategorySumsRepository } from '../src/store/repositories/category-sums.repository';
import { CurrencyRepository } from '../src/store/repositories/currency.repository';
import { AuditEventsRepository } from '../src/store/repositories/audit-events.repository';
import { applyAuditRetention } from '../src/store/schema/audit-retention';
import type { ClickhouseService } from '../src/store/clickhouse/clickhouse.service';
import { InstallationSecrets } from '../src/store/repositories/installation-secrets.repository';
import { normalizeSharedFilterConfiguration } from '../src/store/shared-filters/shared-filter-configuration';
import { ClickhouseSharedFilterStore } from '../src/store/shared-filters/clickhouse-shared-filter.store';
import { ScopeKeys } from '../src/store/shared-filters/scope-keys';
import { CheckRow, SourceRow, SourcesRepository } from '../src/store/repositories/sources.repository';
import { TagKeysRepository } from '../src/store/repositories/tag-keys.repository';
import { BusinessMetricsRepository } from '../src/store/repositories/business-metrics.repository';
import { planConversion } from '../src/cost-query/currency-conversion';
import { RateBook } from '../src/common/money/exchange-rates';
import {
  GOLDEN_IMPORT_ID,
  GOLDEN_ORGANIZATION_ID,
  RECORDED_CLUSTER_NODE_IDS,
  RecordedStatement,
  StatementRecorder,
} from './statement-recorder';

const ORG = GOLDEN_ORGANIZATION_ID;
const SOURCE_ID = '6a0d9c8b-1e2f-4a3b-8c4d-5e6f7a8b9c0d';
const BUDGET_ID = '0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e';
const EVENT_ID = 'e1d2c3b4-a5f6-4e7d-8c9b-0a1b2c3d4e5f';
const NODE_URL = 'http://clickhouse-1:8123';
const CLUSTER = { name: 'cost_insights', replication: 'auto' as const, nodeUrls: [NODE_URL] };
const CLUSTER_ROW = { shard_num: 1, replica_num: 1, host_name: 'clickhouse-1', port: 9000 };
/** An import started two days before AT (its id carries its start time, in base 36). */
const ABANDONED_IMPORT_ID = `focus_import_${Date.parse('2026-11-23T06:00:00.000Z').toString(36)}_0badf00d`;
const SINCE = '2026-10-01T00:00:00.000Z';
const AT = '2026-11-25T06:00:00.000Z';

/**
 * A case: the method called on its repository (or the function of its module), with the rows its reads answer when
 * what it sends next depends on them.
 */
type MethodCase<T> =
  | ((target: T, clickhouse: ClickhouseService) => unknown)
  | { answers: unknown[][]; run: (target: T, clickhouse: ClickhouseService) => unknown };
type PublicMethods<T> = {
  [K in keyof T as T[K] extends (...args: never[]) => unknown ? K : never]-?: MethodCase<T> | NoStatement | NotRecorded;
};
/** A method that sends no statement of its own (pure, names a table, or reads through another method): why. */
interface NoStatement {
  sendsNothing: string;
}
/** A method whose statements need what a recorder cannot give (a real export file, a served URL): where they are reviewable. */
interface NotRecorded {
  notRecorded: string;
}

interface RecordedRepository {
  name: string;
  cases: Array<{ method: string; record: () => Promise<RecordedStatement[]> }>;
}

/**
 * A repository class (`make` builds it on the recorder) or a module of functions that take the connection (`make`
 * returns the module): every public method or exported function has a case, or the list does not compile.
 */
function repository<T>(
  name: string,
  make: (clickhouse: ClickhouseService) => T,
  methods: PublicMethods<T>,
  /** Methods that take another path on a cluster (per node, through Distributed tables): recorded there too, as `….cluster`. */
  onCluster: Partial<Record<keyof PublicMethods<T>, MethodCase<T>>> = {},
): RecordedRepository {
  const entries = Object.entries(methods as Record<string, MethodCase<T> | NoStatement | NotRecorded>);
  const clusterEntries = Object.entries(onCluster as Record<string, MethodCase<T>>);
  return {
    name,
    cases: [
      ...entries
        .filter((entry): entry is [string, MethodCase<T>] => typeof entry[1] === 'function' || 'run' in entry[1])
        .map(([method, call]) => ({ method, record: () => recorded(make, call, false) })),
      ...clusterEntries.map(([method, call]) => ({ method: `${method}${ON_CLUSTER}`, record: () => recorded(make, call, true) })),
    ],
  };
}

/** The suffix of a method's golden file on a cluster. */
const ON_CLUSTER = '.cluster';

async function recorded<T>(
  make: (clickhouse: ClickhouseService) => T,
  call: MethodCase<T>,
  onCluster: boolean,
): Promise<RecordedStatement[]> {
  const { answers, run } = typeof call === 'function' ? { answers: [], run: call } : call;
  const recorder = new StatementRecorder(answers, { onCluster });
  const clickhouse = recorder.asService();
  await run(make(clickhouse), clickhouse);
  return recorder.statements;
}

const SOURCE: SourceRow = {
  organization_id: ORG,
  source_id: SOURCE_ID,
  integration_id: 'aws-main',
  kind: 'aws-data-exports',
  location: 's3://billing-exports/focus/',
  options: '{}',
  created_at: '2026-11-01 00:00:00.000',
};
const CHECK: CheckRow = {
  organization_id: ORG,
  source_id: SOURCE_ID,
  checked_at: '2026-11-25 06:00:00.000',
  outcome: 'imported',
  scope: 'billing-period=2026-11',
  delivery: '20261125T0500Z',
  delivery_order: '20261125T0500Z',
  fingerprint: 'sha256:0f1e2d3c',
  delivered_at: '2026-11-25 05:00:00.000',
  billing_periods: ['2026-11'],
  rows: 1200,
  changes: '[]',
  message: '',
};
const ALERT: StoredAlert = {
  budgetId: BUDGET_ID,
  periodStart: '2026-11-01',
  periodEnd: '2026-11-30',
  kind: 'actual',
  percent: 80,
  event: 'fired',
  at: AT,
  eventId: EVENT_ID,
  payload: '{}',
  notify: [],
};
const ATTEMPT: StoredAttempt = {
  eventId: EVENT_ID,
  budgetId: BUDGET_ID,
  destination: 0,
  attempt: 1,
  at: AT,
  statusCode: 503,
  error: 'Service Unavailable',
  outcome: 'retry',
  nextAttemptAt: '2026-11-25T06:01:00.000Z',
};
/** EUR costs of one October day converted into USD at the ECB's rate of that day (planned as the currency service plans). */
const EUR_TO_USD = planConversion(
  'USD',
  'usage_date',
  [{ currency: 'EUR', billingPeriod: '2026-10', firstDay: '2026-10-01', lastDay: '2026-10-01' }],
  { dateRanges: [{ start: '2026-10-01', end: '2026-10-01' }] },
  new RateBook([{ date: '2026-10-01', base: 'EUR', quote: 'USD', rate: '1.0823', source: 'ECB' }]),
)!;
const FILTER = {
  filterId: 'Xc2f9a7b1',
  organizationId: ORG,
  configuration: normalizeSharedFilterConfiguration({ filters: { inclusions: { services: ['Amazon EC2'] } } }),
  createdAt: AT,
  creatorDataScope: '',
  creatorKeyId: 'ci_key_0001',
  configurationBytes: 120,
};
const LIMITS = {
  ttlSeconds: 86_400,
  quotaCount: 1000,
  quotaBytes: 1 << 20,
  shareCount: 100,
  shareBytes: 1 << 18,
  holderKeyIds: ['ci_key_0001'],
};

/** Two partitions of one organisation's integration and billing periods (the cost table's partition ids). */
const PARTITIONS = ['5d1e0c3f8a2b4c6d9e7f0a1b2c3d4e5f', '6e2f1d4a9b3c5d7e0f8a1b2c3d4e5f6a'];
const STAGING_TABLE = importTableName(GOLDEN_IMPORT_ID);
const BACKUP_TABLE = backupTableName(GOLDEN_IMPORT_ID);
/** An import that replaces the first partition (it existed: backed up) and adds the second, on the one server. */
const JOURNAL_ENTRY: importJournal.JournalEntry = {
  importId: GOLDEN_IMPORT_ID,
  organizationId: ORG,
  integrationIds: ['aws-main'],
  steps: [
    { host: '', partitionId: PARTITIONS[0], backedUp: true },
    { host: '', partitionId: PARTITIONS[1], backedUp: false },
  ],
  backupTable: BACKUP_TABLE,
  stagingTable: STAGING_TABLE,
};
/** The same import on a 2 x 2 cluster: each partition swapped on both replicas of its shard. */
const CLUSTER_JOURNAL_ENTRY: importJournal.JournalEntry = {
  ...JOURNAL_ENTRY,
  steps: [
    { host: 's1r1', partitionId: PARTITIONS[0], backedUp: true },
    { host: 's1r2', partitionId: PARTITIONS[0], backedUp: true },
    { host: 's2r1', partitionId: PARTITIONS[1], backedUp: false },
    { host: 's2r2', partitionId: PARTITIONS[1], backedUp: false },
  ],
};
/** The journal's row of that import, as the recovery reads it: its lease expired. */
const SWAPPING_ROW = {
  import_id: GOLDEN_IMPORT_ID,
  organization: ORG,
  integration_ids: ['aws-main'],
  partition_ids: PARTITIONS,
  backed_up_partition_ids: [PARTITIONS[0]],
  step_hosts: ['', ''],
  step_partitions: PARTITIONS,
  step_backed_up: [1, 0],
  backup_table: BACKUP_TABLE,
  staging_table: STAGING_TABLE,
  lease_until: '2026-11-25 06:02:00.000',
  lease_expired: 1,
};
/** The import's tables a drop finds on the server. */
const IMPORT_TABLES = [{ name: STAGING_TABLE }, { name: BACKUP_TABLE }];
const INVOICE = {
  billingAccountId: '111111111111',
  billingPeriod: '2026-10',
  invoiceId: 'INV-2026-10',
  currency: 'USD',
  integrationId: 'aws-main',
  lineItems: 1200,
  billedCost: '1234.5600000000',
  effectiveCost: '1200.0000000000',
};
const COMMITMENT_FILE = resolve(
  __dirname,
  '../test/fixtures/focus/focus-spec-examples/contract_commitments/contract_commitment_scenario_1.csv',
);
const COMMITMENT_FILES = () => [
  {
    name: 'contract_commitment_scenario_1.csv',
    commitments: parseContractCommitments('commitments.csv', readFileSync(COMMITMENT_FILE, 'utf8')),
  },
];
/** Every migration recorded as applied: the store is up to date. */
const APPLIED_MIGRATIONS = () => migrator.loadMigrations('cost_insights').map(({ version }) => ({ version }));
const IMPORT_PARAMETERS = { organization_id: ORG, integration_id: 'aws-main', currency_codes: ['EUR', 'USD'] };
const FOCUS_INPUT_MAPPING = {
  schemaOnlySelect: focusSelectSql({ from: `null('${FOCUS_SOURCE_STRUCTURE}')`, rowNumber: 'toUInt64(0)' }),
  reportSelect: reportBlockSql,
  costColumns: COST_COLUMNS,
};
const GOLDEN_INPUT = { input: `cost_insights.${GOLDEN_IMPORT_ID}_input`, report: `cost_insights.${GOLDEN_IMPORT_ID}_report` };
const SINGLE_SERVER = 'the one server is the connection itself: no statement (a cluster asks cluster-nodes.ts for its nodes)';

/** The write side: the publish protocol, its fence, the activated maps, an import's invoices and contracts, backups. */
const WRITE_SIDE: RecordedRepository[] = [
  repository(
    'import-journal',
    () => importJournal,
    {
      journalSwapping: (m, c) => m.journalSwapping(c, JOURNAL_ENTRY),
      journalState: (m, c) => m.journalState(c, GOLDEN_IMPORT_ID, 'committed'),
      renewLease: (m, c) => m.renewLease(c, GOLDEN_IMPORT_ID),
      readImportState: (m, c) => m.readImportState(c, GOLDEN_IMPORT_ID),
      readImportStates: (m, c) => m.readImportStates(c, [GOLDEN_IMPORT_ID]),
      journalSteps: { sendsNothing: 'pure: a journal row read as steps' },
      rollbackSteps: { sendsNothing: 'pure: the steps that undo an import' },
      // Its backup is there: the replaced partition restored, the added one dropped, the row rolled back, its tables dropped.
      rollBackImport: { answers: [[{ found: 1 }], IMPORT_TABLES], run: (m, c) => m.rollBackImport(c, JOURNAL_ENTRY) },
      dropImportTables: { answers: [IMPORT_TABLES], run: (m, c) => m.dropImportTables(c, GOLDEN_IMPORT_ID) },
      // One import died while swapping: rolled back.
      recoverInterruptedImports: {
        answers: [[{ found: 1 }], [SWAPPING_ROW], [{ found: 1 }], IMPORT_TABLES],
        run: (m, c) => m.recoverInterruptedImports(c),
      },
      tableExists: { answers: [[{ found: 1 }]], run: (m, c) => m.tableExists(c, BACKUP_TABLE) },
      leaseAction: { sendsNothing: 'pure: what a lease of that age allows' },
    },
    {
      // On a cluster: the first partition was replaced on both replicas of shard 1 (backed up there), the second added
      // on both of shard 2; each replica undoes its own step, then every node drops the import's tables.
      rollBackImport: {
        answers: [[{ found: 1 }], [{ found: 1 }], ...RECORDED_CLUSTER_NODE_IDS.map(() => IMPORT_TABLES)],
        run: (m, c) => m.rollBackImport(c, CLUSTER_JOURNAL_ENTRY),
      },
      // The same import found swapping with its lease expired: rolled back as above.
      recoverInterruptedImports: {
        answers: [
          [{ found: 1 }],
          [
            {
              ...SWAPPING_ROW,
              step_hosts: RECORDED_CLUSTER_NODE_IDS,
              step_partitions: [PARTITIONS[0], PARTITIONS[0], PARTITIONS[1], PARTITIONS[1]],
              step_backed_up: [1, 1, 0, 0],
            },
          ],
          [{ found: 1 }],
          [{ found: 1 }],
          ...RECORDED_CLUSTER_NODE_IDS.map(() => IMPORT_TABLES),
        ],
        run: (m, c) => m.recoverInterruptedImports(c),
      },
    },
  ),
  repository('publish-fence', () => publishFence, {
    runningBackups: (m, c) => m.runningBackups(c),
    waitWhileBackupsRun: (m, c) => m.waitWhileBackupsRun(c),
    // Work that fails under the fence: the run is recorded failed, with the reason.
    fenced: (m, c) =>
      m
        .fenced(
          c,
          `tag-keys ${ORG}`,
          () => undefined,
          () => Promise.reject(new Error('disk full')),
        )
        .catch(() => undefined),
    standDownCaughtImports: {
      answers: [[{ import_id: GOLDEN_IMPORT_ID, lease_expired: 0 }]],
      run: (m, c) => m.standDownCaughtImports(c),
    },
    // The restored backup and another one its copy caught running.
    endCaughtBackups: {
      answers: [[{ name: 'full-20261124' }, { name: 'full-20261125' }]],
      run: (m, c) => m.endCaughtBackups(c, 'full-20261125'),
    },
  }),
  repository('backup-fence', () => publishFence.BackupFence, {
    // A backup fences publishing off (no import is swapping), then ends.
    hold: (fence, c) => fence.hold(c, 'full-20261125', () => undefined).then((held) => held.release('created')),
  }),
  repository('partition-rewrite', () => partitionRewrite, {
    // One partition copied while nothing else wrote it (the activated maps computed afresh), then swapped in.
    rewritePartitions: {
      answers: [
        ['organization_id', 'usage_date', 'resource_tags'].map((name) => ({ name })),
        [{ partition: PARTITIONS[0], digest: '1:8:1200:0', row_count: '1200' }],
        [{ partition: PARTITIONS[0], digest: '1:8:1200:0', row_count: '1200' }],
      ],
      run: (m, c) => m.rewritePartitions(c, [PARTITIONS[0]], { recomputed: activatedMaps.ACTIVATED_COLUMNS }),
    },
  }),
  repository('projection-completion', () => projectionCompletion, {
    partitionsLackingProjections: (m, c) => m.partitionsLackingProjections(c, ORG),
    // One partition of the organisation lacks a projection: rebuilt under the fence (no import swapping).
    completeProjections: {
      answers: [
        [{ partition_id: PARTITIONS[0] }],
        [],
        ['organization_id', 'usage_date'].map((name) => ({ name })),
        [{ partition_id: PARTITIONS[0] }],
        [{ partition: PARTITIONS[0], digest: '1:8:1200:0', row_count: '1200' }],
        [{ partition: PARTITIONS[0], digest: '1:8:1200:0', row_count: '1200' }],
      ],
      run: (m, c) => m.completeProjections(c, () => undefined, ORG),
    },
  }),
  repository(
    'partition-publish',
    () => partitionPublish,
    {
      // The first partition existed (backed up), no backup runs, the activated keys did not change meanwhile.
      publishPartitions: {
        answers: [[{ partition_id: PARTITIONS[0] }], [], [], [{ changed: 0 }]],
        run: (m, c) => {
          const server = { id: '', clickhouse: c };
          return m.publishPartitions(c, {
            importId: GOLDEN_IMPORT_ID,
            organizationId: ORG,
            integrationIds: ['aws-main'],
            partitions: PARTITIONS.map((partitionId) => ({ partitionId, hosts: [server] })),
          });
        },
      },
    },
    {
      // Each partition on both replicas of its shard (the first on shard 1, existing there), each replica swapping its own.
      publishPartitions: {
        answers: [[{ partition_id: PARTITIONS[0] }], [{ partition_id: PARTITIONS[0] }], [], [], [], [], [{ changed: 0 }]],
        run: async (m, c) => {
          const [s1r1, s1r2, s2r1, s2r2] = await partitionHosts.partitionHosts(c, 'the golden case');
          return m.publishPartitions(c, {
            importId: GOLDEN_IMPORT_ID,
            organizationId: ORG,
            integrationIds: ['aws-main'],
            partitions: [
              { partitionId: PARTITIONS[0], hosts: [s1r1, s1r2] },
              { partitionId: PARTITIONS[1], hosts: [s2r1, s2r2] },
            ],
          });
        },
      },
    },
  ),
  repository('partition-hosts', () => partitionHosts, {
    partitionHosts: { sendsNothing: SINGLE_SERVER },
    reachableHosts: { sendsNothing: SINGLE_SERVER },
    hostsById: { sendsNothing: SINGLE_SERVER },
    existingPartitions: (m, c) => m.existingPartitions({ id: '', clickhouse: c }, PARTITIONS),
  }),
  repository(
    'import-staging',
    () => importStaging,
    {
      // Shaped like the cost table, its projections dropped (built once published: projection-completion).
      createStagingTables: {
        answers: [[{ name: 'daily_dimension_sums' }, { name: 'daily_tag_sums' }]],
        run: (m, c) => m.createStagingTables(c, [{ id: '', clickhouse: c }], GOLDEN_IMPORT_ID),
      },
      stagedOnHost: (m, c) => m.stagedOnHost({ id: '', clickhouse: c }, GOLDEN_IMPORT_ID),
      // A committed import's staging table and a day-old table of an import the journal does not know: both dropped.
      dropAbandonedImportTables: {
        answers: [
          [{ name: GOLDEN_IMPORT_ID }, { name: `${ABANDONED_IMPORT_ID}_input` }],
          [{ import_id: GOLDEN_IMPORT_ID, state: 'committed' }],
        ],
        run: (m, c) => m.dropAbandonedImportTables(c, Date.parse(AT)),
      },
    },
    {
      // A staging table on every node, and the Distributed table over them that puts each row on its partition's shard.
      createStagingTables: async (m, c) =>
        m.createStagingTables(c, await partitionHosts.partitionHosts(c, 'the golden case'), GOLDEN_IMPORT_ID),
      // Each node lists its own import tables (here the committed import's, on every node).
      dropAbandonedImportTables: {
        answers: [
          ...RECORDED_CLUSTER_NODE_IDS.map(() => [{ name: GOLDEN_IMPORT_ID }]),
          [{ import_id: GOLDEN_IMPORT_ID, state: 'committed' }],
        ],
        run: (m, c) => m.dropAbandonedImportTables(c, Date.parse(AT)),
      },
    },
  ),
  repository(
    'cost-partitions',
    () => costPartitions,
    {
      deleteOrganizationCosts: {
        answers: [[{ rows: '1200' }], PARTITIONS.map((partition_id) => ({ partition_id }))],
        run: (m, c) => m.deleteOrganizationCosts(c, ORG),
      },
      countOrganizationCosts: { answers: [[{ rows: '1200' }]], run: (m, c) => m.countOrganizationCosts(c, ORG) },
      isStoreEmpty: { answers: [[{ keys: 0, costs: 0 }]], run: (m, c) => m.isStoreEmpty(c) },
      writeCostRows: (m, c) => m.writeCostRows(c, [{ organization_id: ORG, usage_date: '2026-10-01', billed_cost: '1.500000' }]),
    },
    {
      // Counted through the Distributed table; each node drops the partitions it holds (a shard's replicas the same).
      deleteOrganizationCosts: {
        answers: [[{ rows: '1200' }], ...RECORDED_CLUSTER_NODE_IDS.map((_, i) => [{ partition_id: PARTITIONS[i < 2 ? 0 : 1] }])],
        run: (m, c) => m.deleteOrganizationCosts(c, ORG),
      },
    },
  ),
  repository(
    'activated-maps',
    () => activatedMaps,
    {
      reloadActivatedKeys: (m, c) => m.reloadActivatedKeys(c),
      // The staged rows' activated columns recomputed, then the one projection a part lacks materialised.
      rewriteActivatedMaps: {
        answers: [
          activatedMaps.ACTIVATED_COLUMNS.map((name) => ({ name, default_expression: `activated(${name})` })),
          [],
          [{ partition_id: PARTITIONS[0], projection: 'daily_tag_sums' }],
          [],
        ],
        run: (m, c) => m.rewriteActivatedMaps(c, STAGING_TABLE),
      },
      // One partition copied whole while nothing else wrote it, then swapped in.
      rewriteOrganizationPartitions: {
        answers: [
          [{ partition_id: PARTITIONS[0] }],
          ['organization_id', 'usage_date', 'resource_tags'].map((name) => ({ name })),
          [{ partition: PARTITIONS[0], digest: '1:8:1200:0', row_count: '1200' }],
          [{ partition: PARTITIONS[0], digest: '1:8:1200:0', row_count: '1200' }],
        ],
        run: (m, c) => m.rewriteOrganizationPartitions(c, ORG),
      },
      activatedMapMismatches: {
        answers: [[{ rows: '0' }]],
        run: (m, c) => m.activatedMapMismatches(c, ORG, { tag: ['team'], costCategory: ['BusinessUnit'] }),
      },
      activationsChangedSince: {
        answers: [[{ changed: 0 }]],
        run: (m, c) => m.activationsChangedSince(c, ORG, Date.parse(AT), [{ kind: 'tag', key: 'team' }]),
      },
    },
    {
      // Every node reloads its own dictionary of the keys (a node with old keys would write old maps).
      reloadActivatedKeys: (m, c) => m.reloadActivatedKeys(c),
      // The check reads every shard's rows through the Distributed table.
      activatedMapMismatches: {
        answers: [[{ rows: '0' }]],
        run: (m, c) => m.activatedMapMismatches(c, ORG, { tag: ['team'], costCategory: ['BusinessUnit'] }),
      },
    },
  ),
  repository('import-invoices', () => importInvoices, {
    stagedInvoices: (m, c) => m.stagedInvoices(c, `cost_insights.${STAGING_TABLE}`),
    publishedInvoices: (m, c) => m.publishedInvoices(c, ORG, [{ integrationId: 'aws-main', billingPeriod: '2026-10' }]),
    invoiceChanges: { sendsNothing: "pure: an import's invoices before and after" },
    duplicateImportWarnings: (m, c) => m.duplicateImportWarnings(c, ORG, [INVOICE]),
  }),
  repository('contract-commitments', () => contractCommitments, {
    contractCommitmentsInForce: (m, c) => m.contractCommitmentsInForce(c, ORG, ['C-1']),
    writeContractCommitmentLoad: (m, c) =>
      m.writeContractCommitmentLoad(
        c,
        ORG,
        COMMITMENT_FILES().flatMap((file) => file.commitments.map(({ row }) => row)),
      ),
  }),
  repository('backup-statements', () => backupStatements, {
    fileTarget: { sendsNothing: "pure: a File('…') backup destination" },
    storeTables: (m, c) => m.storeTables(c),
    defaultsNaming: (m, c) => m.defaultsNaming(c, 'cost_insights_restore', 'cost_insights_restore'),
    // A restored table whose default names the scratch database it was restored into.
    repointDefaults: {
      answers: [
        [
          {
            table: 'cost_line_items',
            name: 'resource_tags_activated',
            kind: 'DEFAULT',
            expression:
              "mapFilter((k, v) -> dictHas('cost_insights_restore.activated_map_keys', (organization_id, 'tag', k)), resource_tags)",
          },
        ],
      ],
      run: (m, c) => m.repointDefaults(c, 'cost_insights_restore'),
    },
    awaitOperation: {
      answers: [[{ id: 'b7c1' }], [{ status: 'BACKUP_CREATED', error: '' }]],
      run: (m, c) => m.awaitOperation(c, "BACKUP DATABASE cost_insights TO File('full-20261125') ASYNC", 'BACKUP_CREATED'),
    },
    // Incremental, the import tables and the restore marker left out.
    backUpDatabase: {
      answers: [[{ id: 'b7c2' }], [{ status: 'BACKUP_CREATED', error: '' }]],
      run: (m, c) =>
        m.backUpDatabase(
          c,
          "File('20261126T060000Z-incremental/server')",
          ['focus_import_mx3s3fnf_86ab693e', 'store_restore'],
          "File('full-20261125/server')",
        ),
    },
    restoreDatabase: {
      answers: [[{ id: 'r5d1' }], [{ status: 'RESTORED', error: '' }]],
      run: (m, c) => m.restoreDatabase(c, 'cost_insights', 'cost_insights__restore', "File('full-20261125/server')"),
    },
    dropDatabase: (m, c) => m.dropDatabase(c, 'cost_insights__restore'),
    failedParts: (m, c) => m.failedParts(c, 'cost_insights__restore', 'cost_line_items'),
    schemaVersion: { answers: [[{ version: 38 }]], run: (m, c) => m.schemaVersion(c) },
    // A store of two tables replaced by the restored two: dropped, renamed in, the defaults repointed, the scratch dropped.
    replaceWithScratch: {
      answers: [
        [
          { name: 'api_keys', engine: 'ReplacingMergeTree', rows: 3, bytes: 900 },
          { name: 'cost_line_items', engine: 'MergeTree', rows: 1200, bytes: 96000 },
        ],
        [
          { name: 'api_keys', engine: 'ReplacingMergeTree', rows: 2, bytes: 600 },
          { name: 'cost_line_items', engine: 'MergeTree', rows: 800, bytes: 64000 },
        ],
        [],
      ],
      run: (m, c) => m.replaceWithScratch(c, 'cost_insights__restore'),
    },
  }),
  repository('store-restore', () => storeRestore, {
    markRestoring: (m, c) => m.markRestoring(c, 'full-20261125'),
    markRestored: (m, c) => m.markRestored(c, 'full-20261125'),
    restoreInProgress: {
      answers: [[{ found: 1 }], [{ backup: 'full-20261125', state: 'restoring', since: '2026-11-25 06:00:00.000000' }]],
      run: (m, c) => m.restoreInProgress(c),
    },
  }),
  repository(
    'migrator',
    () => migrator,
    {
      loadMigrations: { sendsNothing: 'pure: the migration files read' },
      splitStatements: { sendsNothing: 'pure: a file split into statements' },
      pendingMigrations: { sendsNothing: 'pure: which migrations are still to apply' },
      // A store every migration was applied to: the bookkeeping table checked, nothing pending (the migrations' own SQL is
      // src/store/schema/migrations/*.sql and src/store/schema/schema.sql).
      migrate: { answers: [APPLIED_MIGRATIONS()], run: (m, c) => m.migrate(c) },
      migrateStepByStepForBaseline: { answers: [APPLIED_MIGRATIONS()], run: (m, c) => m.migrateStepByStepForBaseline(c) },
      ensureDictionaries: (m, c) => m.ensureDictionaries(c, false),
      reloadDictionaries: { answers: [[{ name: 'activated_map_keys' }]], run: (m, c) => m.reloadDictionaries(c) },
    },
    {
      // Every node up to date: all checked side by side (their bookkeeping, then their Distributed tables' columns), their
      // dictionaries reloaded.
      migrate: {
        answers: [
          [{ engine: 'MergeTree' }],
          ...RECORDED_CLUSTER_NODE_IDS.map(() => APPLIED_MIGRATIONS()),
          ...RECORDED_CLUSTER_NODE_IDS.map(() => []),
        ],
        run: (m, c) => m.migrate(c),
      },
    },
  ),
  repository('focus-load', () => focusLoad, {
    createImportInput: { notRecorded: "the store's createImportInput given the FOCUS mapping: import-input.create-import-input.sql" },
    loadFile: { notRecorded: 'reads a real export file: its INSERT and report are ingest-file-insert.sql and ingest-report-*.sql' },
    selectParquetText: { notRecorded: "reads a real Parquet file's columns as text (a dataset's, not the cost rows')" },
    reaches: (m, c) => m.reaches(c, 'http://10.0.0.5:41234/probe-7f3e2a1b'),
    loadFailure: { sendsNothing: 'pure: an error read as the import refusal it is' },
  }),
  // An import's input table, its views and report, made from the FOCUS mapping; one file read into it.
  repository('import-input', () => importInput, {
    createImportInput: (m, c) =>
      m.createImportInput(c, GOLDEN_IMPORT_ID, `cost_insights.${STAGING_TABLE}`, FOCUS_INPUT_MAPPING, IMPORT_PARAMETERS),
    dropImportInput: (m, c) => m.dropImportInput(c, GOLDEN_IMPORT_ID),
    fileInsertSql: { sendsNothing: 'pure: the statement ingest-file-insert.sql shows' },
  }),
  repository('import-input-table', (c) => new importInput.ImportInput(c, GOLDEN_INPUT.input, GOLDEN_INPUT.report), {
    clearReport: (m) => m.clearReport(),
    insertFile: { notRecorded: 'its statement is ingest-file-insert.sql (the kernel cases)' },
    insertBody: { notRecorded: 'its statement is ingest-file-insert.sql, the file sent as its body (FORMAT …)' },
  }),
  repository('demo-data-loader', () => demoDataLoader, {
    // Two days of the demo estate: its cost rows, rates, business metric values and contract.
    loadDemoData: (m, c) => m.loadDemoData(c, { organizationId: ORG, days: 2, seed: 7, today: '2026-11-25' }),
    withoutDefaults: { sendsNothing: 'pure: a demo row without the columns the table fills itself' },
  }),
  // The cluster's node discovery on its entry node (one node here, which the recorder also stands in for).
  repository('cluster-nodes', (c) => new ClickhouseCluster(CLUSTER, c, NODE_URL, () => c), {
    nodes: { answers: [[CLUSTER_ROW], [CLUSTER_ROW]], run: (r) => r.nodes() },
    allNodes: { answers: [[CLUSTER_ROW], [CLUSTER_ROW]], run: (r) => r.allNodes('the golden case') },
    // A new store (no cost table yet) on servers without Keeper: the zookeeper probe's answer decides.
    replication: { answers: [[], []], run: (r) => r.replication() },
    close: { sendsNothing: 'closes the node connections it opened' },
  }),
  repository(
    'cost-data-version',
    (c) => new CostDataVersion(c, loadConfig({})),
    {
      current: (r) => r.current(ORG),
      readNow: (r) => r.readNow(ORG),
      readAnswerInputsNow: (r) => r.readAnswerInputsNow(ORG),
      readCategorisedAnswerInputsNow: (r) => r.readCategorisedAnswerInputsNow(ORG),
      recentCategorisedAnswerInputs: (r) => r.recentCategorisedAnswerInputs(ORG),
    },
    // Every replica's parts, a shard that does not answer skipped.
    { readNow: (r) => r.readNow(ORG) },
  ),
];

/** Every repository and module of the store's statements, its methods each with a case. */
export const RECORDED_REPOSITORIES: RecordedRepository[] = [
  repository('api-keys', (c) => new ApiKeysRepository(c), {
    write: (r) =>
      r.write({
        key_id: 'ci_key_0001',
        organization_id: ORG,
        name: 'dashboards',
        key_hash: 'sha256',
        scopes: ['cost:read'],
        data_scope: '',
        created_at: 0,
        revoked_at: null,
        version: 1,
      }),
    writeLastUsed: (r) => r.writeLastUsed([{ key_id: 'ci_key_0001', last_used_at: 0 }]),
    findById: (r) => r.findById('ci_key_0001'),
    activeKeyIds: (r) => r.activeKeyIds(),
    countActive: (r) => r.countActive(ORG),
    list: (r) => r.list(ORG, { limit: 50, after: { createdAtMs: 1764057600000, keyId: 'ci_key_0001' } }),
  }),
  repository('sign-in-records', (c) => new ClickhouseSignInRecords(c), {
    put: (r) => r.put('session', 'cookie-value', { subject: 'alice' }, 0),
    touch: (r) => r.touch('session', 'cookie-value', { subject: 'alice' }, 0),
    get: (r) => r.get('session', 'cookie-value'),
    take: { answers: [[{ payload: '{}', expires_ms: '99999999999999', ended: 0 }]], run: (r) => r.take('pending', 'cookie-value') },
    end: (r) => r.end('session', 'cookie-value'),
  }),
  repository('anomalies', (c) => new AnomaliesRepository(c), {
    keep: (r) => r.keep(ORG, [{ id: 'a1', dimension: 'service', dimensionValue: 'Amazon EC2', start: '2026-11-20', end: '2026-11-21' }]),
    find: (r) => r.find(ORG, 'a1'),
    recordFeedback: (r) =>
      r.recordFeedback(ORG, 'ci_key_0001', {
        id: 'a1',
        dimension: 'service',
        dimensionValue: 'Amazon EC2',
        start: '2026-11-20',
        end: '2026-11-21',
        reason: 'expected',
      }),
    feedback: (r) => r.feedback(ORG, 'service'),
  }),
  repository('budgets', (c) => new BudgetsRepository(c), {
    budgets: (r) => r.budgets(ORG, [BUDGET_ID]),
    organizations: (r) => r.organizations(),
    save: (r) => r.save(ORG, BUDGET_ID, { dataScope: '', sealedSecret: 'sealed', createdBy: 'ci_key_0001' }),
    alerts: (r) => r.alerts(ORG, SINCE, BUDGET_ID),
    recordAlerts: (r) => r.recordAlerts(ORG, [ALERT]),
    deliveries: {
      // One alert to deliver: its attempts are read next.
      answers: [
        [
          {
            organization_id: ORG,
            budget_id: BUDGET_ID,
            period_start: ALERT.periodStart,
            period_end: ALERT.periodEnd,
            threshold_kind: 'actual',
            threshold_percent: 80,
            event: 'fired',
            at_text: '2026-11-25 06:00:00.000',
            event_id: EVENT_ID,
            payload: '{}',
            notify: '[{"url":"https://hooks.example.com/budgets"}]',
          },
        ],
      ],
      run: (r) => r.deliveries(SINCE, ORG),
    },
    attempts: (r) => r.attempts(ORG, BUDGET_ID, SINCE),
    recordAttempt: (r) => r.recordAttempt(ORG, ATTEMPT),
  }),
  repository('cost-categories', (c) => new CostCategoriesRepository(c), {
    versions: (r) => r.versions(ORG, 'BusinessUnit'),
    save: (r) => r.save(ORG, 'BusinessUnit', '2026-10', 'ci_key_0001', { defaultValue: 'Unallocated', rules: [], splits: [] }),
  }),
  repository('converted-sums', (c) => new ConvertedSumsRepository(c), {
    sums: { sendsNothing: 'names the table a build is read from' },
    find: (r) => r.find({ organizationId: ORG, inputs: 'digest', target: 'USD', policy: 'usage_date' }, 3600),
    write: (r) => r.write(ORG, '9d1c4f2a-5b6e-4a7d-8c9b-0e1f2a3b4c5d', EUR_TO_USD, ['2026-10-01']),
    register: (r) =>
      r.register(
        { organizationId: ORG, inputs: 'digest', target: 'USD', policy: 'usage_date' },
        { buildId: '9d1c4f2a-5b6e-4a7d-8c9b-0e1f2a3b4c5d', currencies: ['EUR'] },
        12,
      ),
  }),
  repository('category-sums', (c) => new CategorySumsRepository(c), {
    sums: { sendsNothing: 'names the table a build is read from' },
    find: (r) => r.find(ORG, 'digest', 3600),
    write: (r) =>
      r.write(
        ORG,
        '4b7e2d1c-9a8f-4e6d-b5c4-3a2b1c0d9e8f',
        { keys: ['BusinessUnit'], sql: "mapUpdate(cost_categories, map('BusinessUnit', 'Unallocated'))", params: {} },
        ['2026-10-01'],
      ),
    register: (r) => r.register(ORG, 'digest', '4b7e2d1c-9a8f-4e6d-b5c4-3a2b1c0d9e8f', 12),
  }),
  repository('currency', (c) => new CurrencyRepository(c), {
    settings: (r) => r.settings(ORG),
    saveSettings: (r) => r.saveSettings(ORG, { reportingCurrency: 'USD', conversionPolicy: 'usage_date' }),
    presence: (r) => r.presence(ORG),
    rateBook: (r) => r.rateBook(ORG, 'USD', [{ currency: 'EUR', billingPeriod: '2026-10', firstDay: '2026-10-01', lastDay: '2026-10-31' }]),
    rates: (r) => r.rates(ORG, ['EUR', 'USD'], '2026-09-01', '2026-12-31'),
    insertRates: (r) => r.insertRates(ORG, [{ date: '2026-10-01', base: 'EUR', quote: 'USD', rate: '1.0823', source: 'ECB' }]),
    loadedPairs: (r) => r.loadedPairs(ORG),
  }),
  repository('audit-events', (c) => new AuditEventsRepository(c), {
    insertAll: (r) =>
      r.insertAll([
        {
          eventId: EVENT_ID,
          at: AT,
          organizationId: ORG,
          actorKind: 'api-key',
          actorId: 'ci_key_0001',
          actorEmail: '',
          action: 'api-key.created',
          target: 'ci_key_0002',
          details: {},
          clientIp: '10.0.0.1',
          requestId: 'req-1',
        },
      ]),
    page: (r) =>
      r.page({
        organizationId: ORG,
        fromMs: 1761955200000,
        beforeMs: 1764547200000,
        actor: 'alice@example.com',
        action: 'api-key.revoked',
        after: { atMs: 1764050400000, eventId: EVENT_ID },
        limit: 100,
      }),
  }),
  // The trail's retention on one server: read the table's TTL, then set it (the retention differs from the stored one).
  repository('audit-retention', (c) => ({ apply: () => applyAuditRetention(c, 400) }), {
    apply: {
      answers: [[{ engine_full: 'MergeTree ORDER BY (organization_id, at) TTL toDateTime(at) + toIntervalDay(90)' }]],
      run: (r) => r.apply(),
    },
  }),
  repository(
    'installation-secrets',
    (c) => new InstallationSecrets(c),
    {
      // The first use: none stored yet, a candidate written, then read back.
      secret: { answers: [[], [{ secret: '00'.repeat(32) }]], run: (r) => r.secret('session-signing') },
    },
    // Through the Distributed table, without insert deduplication (each replica keeps every racer's candidate).
    { secret: { answers: [[], [{ secret: '00'.repeat(32) }]], run: (r) => r.secret('session-signing') } },
  ),
  repository('shared-filters', (c) => new ClickhouseSharedFilterStore(c), {
    save: {
      answers: [[{ live_count: '0', live_bytes: '0', held_count: '0', held_bytes: '0' }]],
      run: (r) => r.save(FILTER, LIMITS),
    },
    delete: {
      answers: [
        [
          {
            organization_id: ORG,
            configuration: JSON.stringify(FILTER.configuration),
            created_at: '2026-11-25 06:00:00.000',
            expires_at: '2026-11-26 06:00:00.000',
            creator_data_scope: '',
            creator_key_id: 'ci_key_0001',
            deleted: 0,
          },
        ],
      ],
      run: (r) => r.delete({ ...FILTER, expiresAt: '2026-11-26 06:00:00.000' }),
    },
    find: (r) => r.find(FILTER.filterId),
  }),
  repository('scope-keys', (c) => new ScopeKeys(c), {
    unrevoked: (r) => r.unrevoked(ORG, '{"inclusions":{"resourceTag":"team","resourceTagValues":["payments"]}}'),
  }),
  repository('sources', (c) => new SourcesRepository(c), {
    list: (r) => r.list(ORG),
    all: (r) => r.all(),
    find: (r) => r.find(ORG, SOURCE_ID),
    save: (r) => r.save(SOURCE),
    recordCheck: (r) => r.recordCheck(CHECK),
    imported: (r) => r.imported(ORG, SOURCE_ID),
    reported: (r) => r.reported(ORG, SOURCE_ID),
    latest: (r) => r.latest(ORG, ['refused', 'unreadable', 'failed'], SOURCE_ID),
    history: (r) => r.history(ORG, SOURCE_ID, 20),
    periodTotals: (r) => r.periodTotals(ORG, 'aws-main', ['2026-10', '2026-11']),
    integrationPeriods: (r) => r.integrationPeriods(ORG, 'aws-main'),
  }),
  repository('tag-keys', (c) => new TagKeysRepository(c), {
    activations: (r) => r.activations(ORG),
    activeKeys: { sendsNothing: 'reads through activations' },
    writtenKeys: { sendsNothing: 'reads through activations' },
    save: (r) => r.save(ORG, 'tag', 'team', 'backfilling'),
    recordChoice: (r) => r.recordChoice(ORG),
    hasRows: { answers: [[{ present: 1 }]], run: (r) => r.hasRows(ORG) },
    hasChosen: { answers: [[{ chosen: 0 }]], run: (r) => r.hasChosen(ORG) },
    presentKeys: (r) => r.presentKeys(ORG),
  }),
  repository('business-metrics', (c) => new BusinessMetricsRepository(c), {
    metrics: (r) => r.metrics(ORG, 'orders'),
    saveMetric: (r) => r.saveMetric(ORG, { name: 'orders', unit: 'order', unitScale: 1, dimension: 'tag:team' }, 'ci_key_0001'),
    loadValues: (r) => r.loadValues(ORG, 'orders', [{ date: '2026-10-01', value: '1200', dimensionValue: 'payments' }]),
    dimensionValueCount: (r) => r.dimensionValueCount(ORG, 'orders', ['payments', 'search']),
    units: (r) =>
      r.units(ORG, 'orders', { start: '2026-10-01', end: '2026-10-31' }, 'daily', { include: ['payments'], exclude: ['search'] }, true),
  }),
  ...WRITE_SIDE,
];

/** How the statements of a source file are made reviewable. */
type StatementSource =
  | 'recorded: RECORDED_REPOSITORIES'
  | 'built: its statements come from the builders golden-sql.ts writes'
  | 'the connection: its lookup of known settings'
  | 'tooling: its one read runs in npm run schema:baseline only'
  | 'not yet recorded';

/**
 * Every source file that sends statements (golden-sql.spec.ts finds them by their calls and fails on a file missing
 * here or listed but sending none). The last kind is the work still to do (none today).
 */
export const STATEMENT_SOURCES: Record<string, StatementSource> = {
  'src/store/repositories/anomalies.repository.ts': 'recorded: RECORDED_REPOSITORIES',
  'src/store/repositories/api-keys.repository.ts': 'recorded: RECORDED_REPOSITORIES',
  'src/store/repositories/sign-in-records.ts': 'recorded: RECORDED_REPOSITORIES',
  'src/store/repositories/budgets.repository.ts': 'recorded: RECORDED_REPOSITORIES',
  'src/store/repositories/cost-categories.repository.ts': 'recorded: RECORDED_REPOSITORIES',
  'src/store/repositories/category-sums.repository.ts': 'recorded: RECORDED_REPOSITORIES',
  'src/store/repositories/converted-sums.repository.ts': 'recorded: RECORDED_REPOSITORIES',
  'src/store/repositories/currency.repository.ts': 'recorded: RECORDED_REPOSITORIES',
  'src/store/repositories/audit-events.repository.ts': 'recorded: RECORDED_REPOSITORIES',
  'src/store/schema/audit-retention.ts': 'recorded: RECORDED_REPOSITORIES',
  'src/store/repositories/installation-secrets.repository.ts': 'recorded: RECORDED_REPOSITORIES',
  'src/store/shared-filters/clickhouse-shared-filter.store.ts': 'recorded: RECORDED_REPOSITORIES',
  'src/store/shared-filters/scope-keys.ts': 'recorded: RECORDED_REPOSITORIES',
  'src/store/repositories/sources.repository.ts': 'recorded: RECORDED_REPOSITORIES',
  'src/store/repositories/tag-keys.repository.ts': 'recorded: RECORDED_REPOSITORIES',
  'src/store/repositories/business-metrics.repository.ts': 'recorded: RECORDED_REPOSITORIES',
  'src/store/publish/publish-fence.ts': 'recorded: RECORDED_REPOSITORIES',
  'src/store/publish/partition-publish.ts': 'recorded: RECORDED_REPOSITORIES',
  'src/store/publish/partition-rewrite.ts': 'recorded: RECORDED_REPOSITORIES',
  'src/store/publish/projection-completion.ts': 'recorded: RECORDED_REPOSITORIES',
  'src/store/publish/partition-hosts.ts': 'recorded: RECORDED_REPOSITORIES',
  'src/store/publish/import-journal.ts': 'recorded: RECORDED_REPOSITORIES',
  'src/store/publish/import-invoices.ts': 'recorded: RECORDED_REPOSITORIES',
  'src/store/cost-partitions.ts': 'recorded: RECORDED_REPOSITORIES',
  'src/store/repositories/contract-commitments.repository.ts': 'recorded: RECORDED_REPOSITORIES',
  'src/store/activated-maps.ts': 'recorded: RECORDED_REPOSITORIES',
  'src/store/data-version/cost-data-version.service.ts': 'recorded: RECORDED_REPOSITORIES',
  'src/store/schema/store-restore.ts': 'recorded: RECORDED_REPOSITORIES',
  'src/store/backup-statements.ts': 'recorded: RECORDED_REPOSITORIES',
  'src/allocation/allocation.service.ts': 'built: its statements come from the builders golden-sql.ts writes',
  'src/anomalies/anomalies.service.ts': 'built: its statements come from the builders golden-sql.ts writes',
  'src/answers/data-freshness.service.ts': 'built: its statements come from the builders golden-sql.ts writes',
  'src/budgets/budget-sums.service.ts': 'built: its statements come from the builders golden-sql.ts writes',
  'src/commitments/commitments.service.ts': 'built: its statements come from the builders golden-sql.ts writes',
  'src/commitments/contracts.service.ts': 'built: its statements come from the builders golden-sql.ts writes',
  'src/comparison/comparison.service.ts': 'built: its statements come from the builders golden-sql.ts writes',
  'src/cost-categories/cost-categories.service.ts': 'built: its statements come from the builders golden-sql.ts writes',
  'src/cost-categories/splits.service.ts': 'built: its statements come from the builders golden-sql.ts writes',
  'src/costs/costs.service.ts': 'built: its statements come from the builders golden-sql.ts writes',
  'src/filter-options/filter-options.service.ts': 'built: its statements come from the builders golden-sql.ts writes',
  'src/forecasts/forecasts.service.ts': 'built: its statements come from the builders golden-sql.ts writes',
  'src/invoices/invoices.service.ts': 'built: its statements come from the builders golden-sql.ts writes',
  'src/unit-costs/unit-costs.service.ts': 'built: its statements come from the builders golden-sql.ts writes',
  'src/ingest/files-key-presence.ts': 'built: its statements come from the builders golden-sql.ts writes',
  'src/store/schema/migrator.ts': 'recorded: RECORDED_REPOSITORIES',
  'src/ingest/focus-load.ts': 'recorded: RECORDED_REPOSITORIES',
  'src/store/schema/schema-baseline.ts': 'tooling: its one read runs in npm run schema:baseline only',
  'src/store/clickhouse/clickhouse.service.ts': 'the connection: its lookup of known settings',
  'src/store/clickhouse/cluster-nodes.ts': 'recorded: RECORDED_REPOSITORIES',
  'src/ingest/ingest-focus.ts': 'built: its statements come from the builders golden-sql.ts writes',
  'src/store/publish/import-staging.ts': 'recorded: RECORDED_REPOSITORIES',
  'src/store/publish/import-input.ts': 'recorded: RECORDED_REPOSITORIES',
};

/** The golden file name of each recorded method, `<repository>.<method in kebab case>`. */
export function recordedCaseNames(): string[] {
  return RECORDED_REPOSITORIES.flatMap(({ name, cases }) => cases.map(({ method }) => caseName(name, method)));
}

/** Every recorded method's statements, by golden file name. */
export async function recordedStatements(): Promise<Record<string, RecordedStatement[]>> {
  const entries: Array<[string, RecordedStatement[]]> = [];
  for (const { name, cases } of RECORDED_REPOSITORIES) {
    for (const { method, record } of cases) {
      const statements = await record();
      if (statements.length === 0) throw new Error(`${name}.${method} sent no statement: give its reads answers, or mark it sendsNothing`);
      entries.push([caseName(name, method), statements]);
    }
  }
  return Object.fromEntries(entries);
}

function caseName(repository: string, method: string): string {
  return `${repository}.${method.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;
}

/** The statements of one method as ClickHouse formats them, each under a header naming how it is sent and its parameters. */
export function recordedText(name: string, statements: readonly RecordedStatement[], format: (sql: string) => string): string {
  const header = `-- ${name}: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.`;
  const blocks = statements.map((statement, i) => {
    const settings = Object.entries(statement.settings).map(([key, value]) => `--   ${key} = ${JSON.stringify(value)}`);
    const parameters = Object.entries(statement.params).map(([key, value]) => `--   ${key} = ${JSON.stringify(value)}`);
    return [
      `-- statement ${i + 1} of ${statements.length}, sent by ${statement.sent}${statement.node ? ` to node ${statement.node}` : ''}`,
      ...(settings.length > 0 ? ['-- settings:', ...settings] : []),
      ...(parameters.length > 0 ? ['-- parameters:', ...parameters] : []),
      `${format(statement.sql).trimEnd()};`,
    ].join('\n');
  });
  return [header, blocks.join('\n\n'), ''].join('\n');
}
