import type { ClickhouseService } from '../infrastructure/clickhouse/clickhouse.service';
import { importsPublishingInThisProcess, SWAP_LEASE_SECONDS } from './import-journal';
import { publishPartitions } from './partition-publish';

const IMPORT_ID = 'focus_import_m1abcdef_0123abcd';
const BACKUP = `${IMPORT_ID}_backup`;

/**
 * A stand-in for ClickHouse that records each statement as a short label, knows which partitions
 * cost_line_items has, keeps the journal state, and fails the statements matching `failOn`.
 */
function fakeClickhouse(options: { existing: string[]; failOn?: RegExp[]; afterStep?: (step: string) => void }) {
  const steps: string[] = [];
  let state: string | undefined;
  const label = (sql: string, params: Record<string, unknown>): string => {
    const text = sql.replace(/\s+/g, ' ').trim();
    let match: RegExpExecArray | null;
    if ((match = /^CREATE TABLE db\.(\S+) AS db\.cost_line_items$/.exec(text))) return `create ${match[1]}`;
    if ((match = /^ALTER TABLE db\.(\S+) REPLACE PARTITION ID '(\w+)' FROM db\.(\S+)$/.exec(text)))
      return `${match[1]} ← ${match[2]} from ${match[3]}`;
    if ((match = /^ALTER TABLE db\.cost_line_items DROP PARTITION ID '(\w+)'$/.exec(text))) return `cost_line_items drop ${match[1]}`;
    if ((match = /^DROP TABLE IF EXISTS db\.(\S+)$/.exec(text))) return `drop ${match[1]}`;
    if (text.startsWith('INSERT INTO db.import_journal SELECT {import_id:String}'))
      return `journal swapping ${JSON.stringify(params.backed_up_partition_ids)}`;
    if (text.startsWith('INSERT INTO db.import_journal SELECT * REPLACE (CAST')) return `journal ${String(params.state)}`;
    if (text.startsWith('INSERT INTO db.import_journal SELECT * REPLACE (now64(3) + toIntervalSecond')) return 'journal lease renewed';
    throw new Error(`unexpected statement: ${text}`);
  };
  const clickhouse = {
    database: 'db',
    embedded: false,
    cluster: undefined,
    table: (name: string) => `db.${name}`,
    async query(sql: string, params: Record<string, unknown>) {
      if (sql.includes('system.parts')) {
        return options.existing.filter((id) => (params.partition_ids as string[]).includes(id)).map((id) => ({ partition_id: id }));
      }
      if (sql.includes('system.tables')) return [{ found: '1' }];
      if (sql.startsWith('SELECT state')) return state ? [{ state }] : [];
      throw new Error(`unexpected query: ${sql}`);
    },
    async command(sql: string, params: Record<string, unknown> = {}) {
      const step = label(sql, params);
      steps.push(step);
      if (options.failOn?.some((pattern) => pattern.test(step))) throw new Error(`injected failure: ${step}`);
      if (step.startsWith('journal swapping')) state = 'swapping';
      else if (params.state) state = String(params.state);
      options.afterStep?.(step);
    },
  };
  return { clickhouse: clickhouse as unknown as ClickhouseService, steps, state: () => state };
}

const plan = {
  importId: IMPORT_ID,
  organizationId: '6f1c1f5e-8a4b-4c1e-9a53-2d7f0c8b1a11',
  partitions: [
    { partitionId: 'p07', integrationId: 'aws-1' },
    { partitionId: 'p08', integrationId: 'aws-1' },
    { partitionId: 'p09', integrationId: 'aws-1' },
  ],
};

describe('publishPartitions', () => {
  it('backs up the partitions that exist, journals, swaps every partition, commits, then drops the backup', async () => {
    const fake = fakeClickhouse({ existing: ['p08', 'p09', 'other'] });
    await publishPartitions(fake.clickhouse, plan);
    expect(fake.steps).toEqual([
      `create ${BACKUP}`,
      `${BACKUP} ← p08 from cost_line_items`,
      `${BACKUP} ← p09 from cost_line_items`,
      'journal swapping ["p08","p09"]',
      `cost_line_items ← p07 from ${IMPORT_ID}`,
      `cost_line_items ← p08 from ${IMPORT_ID}`,
      `cost_line_items ← p09 from ${IMPORT_ID}`,
      'journal committed',
      `drop ${BACKUP}`,
    ]);
    expect(importsPublishingInThisProcess.size).toBe(0);
  });

  it('rolls back at once when a swap fails: restores what existed, drops what did not, and says so in the journal', async () => {
    const fake = fakeClickhouse({ existing: ['p08', 'p09'], failOn: [new RegExp(`^cost_line_items ← p08 from ${IMPORT_ID}$`)] });
    await expect(publishPartitions(fake.clickhouse, plan)).rejects.toThrow('injected failure');
    expect(fake.steps.slice(4)).toEqual([
      `cost_line_items ← p07 from ${IMPORT_ID}`,
      `cost_line_items ← p08 from ${IMPORT_ID}`,
      'cost_line_items drop p07',
      `cost_line_items ← p08 from ${BACKUP}`,
      `cost_line_items ← p09 from ${BACKUP}`,
      'journal rolled_back',
      `drop ${BACKUP}`,
      `drop ${IMPORT_ID}`,
    ]);
    expect(fake.state()).toBe('rolled_back');
  });

  it('rolls back when the commit cannot be journaled', async () => {
    const fake = fakeClickhouse({ existing: [], failOn: [/^journal committed$/] });
    await expect(publishPartitions(fake.clickhouse, plan)).rejects.toThrow('injected failure');
    expect(fake.steps.slice(-7)).toEqual([
      'journal committed',
      'cost_line_items drop p07',
      'cost_line_items drop p08',
      'cost_line_items drop p09',
      'journal rolled_back',
      `drop ${BACKUP}`,
      `drop ${IMPORT_ID}`,
    ]);
    expect(fake.state()).toBe('rolled_back');
  });

  it('keeps the backup and the swapping journal row for recovery when the rollback fails too', async () => {
    const fake = fakeClickhouse({
      existing: ['p07'],
      failOn: [/^cost_line_items ← p09 from focus/, /^cost_line_items ← p07 from .*_backup$/],
    });
    await expect(publishPartitions(fake.clickhouse, plan)).rejects.toThrow(/could not be rolled back .*run `ingest recover`/);
    expect(fake.state()).toBe('swapping');
    expect(fake.steps).not.toContain(`drop ${BACKUP}`);
  });

  it('drops the backup and journals nothing when backing up fails (nothing visible has changed)', async () => {
    const fake = fakeClickhouse({ existing: ['p08'], failOn: [new RegExp(`^${BACKUP} ← p08`)] });
    await expect(publishPartitions(fake.clickhouse, plan)).rejects.toThrow('injected failure');
    expect(fake.steps).toEqual([`create ${BACKUP}`, `${BACKUP} ← p08 from cost_line_items`, `drop ${BACKUP}`]);
    expect(fake.state()).toBeUndefined();
  });

  describe('with a slow swap', () => {
    const lease = SWAP_LEASE_SECONDS * 1000;
    let clock = 0;
    beforeEach(() => jest.spyOn(Date, 'now').mockImplementation(() => clock));
    afterEach(() => jest.restoreAllMocks());
    const slowFirstSwap = (ms: number) => (step: string) => {
      if (step === `cost_line_items ← p07 from ${IMPORT_ID}`) clock += ms;
    };

    it('renews the lease before the next swap once a third of it is used', async () => {
      const fake = fakeClickhouse({ existing: [], afterStep: slowFirstSwap(lease * 0.4) });
      await publishPartitions(fake.clickhouse, plan);
      expect(fake.steps.slice(2, 7)).toEqual([
        `cost_line_items ← p07 from ${IMPORT_ID}`,
        'journal lease renewed',
        `cost_line_items ← p08 from ${IMPORT_ID}`,
        `cost_line_items ← p09 from ${IMPORT_ID}`,
        'journal committed',
      ]);
    });

    it('gives up and rolls back when stalled past 80 % of the lease (recovery elsewhere may have started)', async () => {
      const fake = fakeClickhouse({ existing: [], afterStep: slowFirstSwap(lease * 0.9) });
      await expect(publishPartitions(fake.clickhouse, plan)).rejects.toThrow(/stalled longer than its lease/);
      expect(fake.steps).not.toContain(`cost_line_items ← p08 from ${IMPORT_ID}`);
      expect(fake.state()).toBe('rolled_back');
    });
  });

  it('refuses a partition id that is not one ClickHouse prints', async () => {
    const fake = fakeClickhouse({ existing: [] });
    await expect(
      publishPartitions(fake.clickhouse, { ...plan, partitions: [{ partitionId: "x' OR '1", integrationId: 'a' }] }),
    ).rejects.toThrow(/unexpected partition id/);
    expect(fake.steps).toEqual([]);
  });
});
