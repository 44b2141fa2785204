import type { ClickhouseService } from '../clickhouse/clickhouse.service';
import { importsPublishingInThisProcess, SWAP_LEASE_SECONDS } from './import-journal';
import { PartitionHost } from './partition-hosts';
import { publishPartitions, PublishPlan } from './partition-publish';

const IMPORT_ID = 'focus_import_m1abcdef_0123abcd';
const BACKUP = `${IMPORT_ID}_backup`;

interface FakeOptions {
  /** The partitions each host's cost_line_items has ('' is the single server). */
  existing: Record<string, string[]>;
  failOn?: RegExp[];
  afterStep?: (step: string) => void;
}

/**
 * A stand-in for ClickHouse: the entry connection (journal) and one connection per host, each recording its
 * statements as short labels (`s1r2: …` on a cluster) into one log, knowing which partitions its
 * cost_line_items has and which import tables exist; it keeps the journal state and fails the statements
 * matching `failOn`. On a cluster the entry lists the hosts as the cluster's nodes.
 */
function fakeClickhouse(options: FakeOptions) {
  const steps: string[] = [];
  let state: string | undefined;
  const hostIds = Object.keys(options.existing);
  const clustered = hostIds.some((id) => id !== '');
  const label = (sql: string, params: Record<string, unknown>): string => {
    const text = sql.replace(/\s+/g, ' ').trim();
    let match: RegExpExecArray | null;
    if ((match = /^CREATE TABLE db\.(\S+) AS db\.cost_line_items$/.exec(text))) return `create ${match[1]}`;
    if ((match = /^ALTER TABLE db\.(\S+) REPLACE PARTITION ID '(\w+)' FROM db\.(\S+)$/.exec(text)))
      return `${match[1]} ← ${match[2]} from ${match[3]}`;
    if ((match = /^ALTER TABLE db\.cost_line_items DROP PARTITION ID '(\w+)'$/.exec(text))) return `cost_line_items drop ${match[1]}`;
    if ((match = /^DROP TABLE IF EXISTS db\.(\S+)$/.exec(text))) return `drop ${match[1]}`;
    if (text.startsWith('INSERT INTO db.import_journal (import_id')) return `journal swapping ${JSON.stringify(params.step_backed_up)}`;
    if (text.startsWith('INSERT INTO db.import_journal SELECT * REPLACE (CAST')) return `journal ${String(params.state)}`;
    if (text.startsWith('INSERT INTO db.import_journal SELECT * REPLACE (now64(3) + toIntervalSecond')) return 'journal lease renewed';
    throw new Error(`unexpected statement: ${text}`);
  };
  const connection = (hostId: string) => {
    const tables = new Set<string>([IMPORT_ID]);
    const record = (step: string) => {
      const labelled = clustered && hostId !== 'entry' ? `${hostId}: ${step}` : step;
      steps.push(labelled);
      if (options.failOn?.some((pattern) => pattern.test(labelled))) throw new Error(`injected failure: ${labelled}`);
      if (step.startsWith('journal swapping')) state = 'swapping';
      options.afterStep?.(labelled);
    };
    return {
      database: 'db',
      embedded: false,
      cluster: clustered && hostId === 'entry' ? fakeCluster : undefined,
      table: (name: string) => `db.${name}`,
      async query(sql: string, params: Record<string, unknown>) {
        if (sql.includes('system.parts')) {
          const existing = options.existing[hostId] ?? [];
          return existing.filter((id) => (params.partition_ids as string[]).includes(id)).map((id) => ({ partition_id: id }));
        }
        if (sql.includes('startsWith(name')) {
          return [...tables]
            .filter((name) => name.startsWith(String(params.import_id)))
            .sort()
            .map((name) => ({ name }));
        }
        if (sql.includes('system.tables')) return [{ found: tables.has(String(params.name)) ? '1' : '0' }];
        if (sql.startsWith('SELECT state')) return state ? [{ state }] : [];
        if (sql.includes('backup_runs')) return []; // no backup runs (the fence: publish-fence.ts)
        if (sql.includes('tag_key_activations')) return [{ changed: 0 }]; // no activation changed (activated-maps.ts)
        throw new Error(`unexpected query: ${sql}`);
      },
      async command(sql: string, params: Record<string, unknown> = {}) {
        const step = label(sql, params);
        record(step);
        if (params.state) state = String(params.state);
        if (step.startsWith('create ')) tables.add(step.slice('create '.length));
        if (step.startsWith('drop ')) tables.delete(step.slice('drop '.length));
      },
    } as unknown as ClickhouseService;
  };
  const hosts = new Map(hostIds.map((id) => [id, { id, clickhouse: connection(id) } satisfies PartitionHost]));
  const fakeCluster = {
    name: 'c',
    nodes: async () => ({
      reachable: hostIds.map((id) => ({
        id,
        shard: Number(id[1]),
        replica: Number(id.slice(3)),
        address: id,
        url: id,
        connection: hosts.get(id)!.clickhouse,
      })),
      unreachable: [],
    }),
  };
  const entry = clustered ? connection('entry') : hosts.get('')!.clickhouse;
  return { clickhouse: entry, host: (id: string) => hosts.get(id)!, steps, state: () => state };
}

type Fake = ReturnType<typeof fakeClickhouse>;

/** p07, p08 and p09 of one integration, on the given hosts. */
function planOn(fake: Fake, hostIds: string[]): PublishPlan {
  return {
    importId: IMPORT_ID,
    organizationId: '6f1c1f5e-8a4b-4c1e-9a53-2d7f0c8b1a11',
    integrationIds: ['aws-1'],
    partitions: ['p07', 'p08', 'p09'].map((partitionId) => ({ partitionId, hosts: hostIds.map((id) => fake.host(id)) })),
  };
}

describe('publishPartitions on one server', () => {
  const server = (options: Omit<FakeOptions, 'existing'> & { existing: string[] }) => {
    const fake = fakeClickhouse({ ...options, existing: { '': options.existing } });
    return { fake, plan: planOn(fake, ['']) };
  };

  it('backs up the partitions that exist, journals, swaps every partition, commits, then drops the backup', async () => {
    const { fake, plan } = server({ existing: ['p08', 'p09', 'other'] });
    await publishPartitions(fake.clickhouse, plan);
    expect(fake.steps).toEqual([
      `create ${BACKUP}`,
      `${BACKUP} ← p08 from cost_line_items`,
      `${BACKUP} ← p09 from cost_line_items`,
      'journal swapping [0,1,1]',
      `cost_line_items ← p07 from ${IMPORT_ID}`,
      `cost_line_items ← p08 from ${IMPORT_ID}`,
      `cost_line_items ← p09 from ${IMPORT_ID}`,
      'journal committed',
      `drop ${BACKUP}`,
    ]);
    expect(importsPublishingInThisProcess.size).toBe(0);
  });

  it('rolls back at once when a swap fails: restores what existed, drops what did not, and says so in the journal', async () => {
    const { fake, plan } = server({ existing: ['p08', 'p09'], failOn: [new RegExp(`^cost_line_items ← p08 from ${IMPORT_ID}$`)] });
    await expect(publishPartitions(fake.clickhouse, plan)).rejects.toThrow('injected failure');
    expect(fake.steps.slice(4)).toEqual([
      `cost_line_items ← p07 from ${IMPORT_ID}`,
      `cost_line_items ← p08 from ${IMPORT_ID}`,
      'cost_line_items drop p07',
      `cost_line_items ← p08 from ${BACKUP}`,
      `cost_line_items ← p09 from ${BACKUP}`,
      'journal rolled_back',
      `drop ${IMPORT_ID}`,
      `drop ${BACKUP}`,
    ]);
    expect(fake.state()).toBe('rolled_back');
  });

  it('rolls back when the commit cannot be journaled', async () => {
    const { fake, plan } = server({ existing: [], failOn: [/^journal committed$/] });
    await expect(publishPartitions(fake.clickhouse, plan)).rejects.toThrow('injected failure');
    expect(fake.steps.slice(-7)).toEqual([
      'journal committed',
      'cost_line_items drop p07',
      'cost_line_items drop p08',
      'cost_line_items drop p09',
      'journal rolled_back',
      `drop ${IMPORT_ID}`,
      `drop ${BACKUP}`,
    ]);
    expect(fake.state()).toBe('rolled_back');
  });

  it('keeps the backup and the swapping journal row for recovery when the rollback fails too', async () => {
    const { fake, plan } = server({
      existing: ['p07'],
      failOn: [/^cost_line_items ← p09 from focus/, /^cost_line_items ← p07 from .*_backup$/],
    });
    await expect(publishPartitions(fake.clickhouse, plan)).rejects.toThrow(/could not be rolled back .*run `ingest recover`/);
    expect(fake.state()).toBe('swapping');
    expect(fake.steps).not.toContain(`drop ${BACKUP}`);
  });

  it('drops the backup and journals nothing when backing up fails (nothing visible has changed)', async () => {
    const { fake, plan } = server({ existing: ['p08'], failOn: [new RegExp(`^${BACKUP} ← p08`)] });
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
      const { fake, plan } = server({ existing: [], afterStep: slowFirstSwap(lease * 0.4) });
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
      const { fake, plan } = server({ existing: [], afterStep: slowFirstSwap(lease * 0.9) });
      await expect(publishPartitions(fake.clickhouse, plan)).rejects.toThrow(/stalled longer than its lease/);
      expect(fake.steps).not.toContain(`cost_line_items ← p08 from ${IMPORT_ID}`);
      expect(fake.state()).toBe('rolled_back');
    });
  });

  it('refuses a partition id that is not one ClickHouse prints', async () => {
    const { fake, plan } = server({ existing: [] });
    await expect(
      publishPartitions(fake.clickhouse, { ...plan, partitions: [{ partitionId: "x' OR '1", hosts: plan.partitions[0].hosts }] }),
    ).rejects.toThrow(/unexpected partition id/);
    expect(fake.steps).toEqual([]);
  });
});

describe('publishPartitions on the replicas of a shard', () => {
  it('backs up on each replica, journals every (node, partition) step, and swaps each partition on both replicas in turn', async () => {
    const fake = fakeClickhouse({ existing: { s1r1: ['p08'], s1r2: ['p08'] } });
    await publishPartitions(fake.clickhouse, planOn(fake, ['s1r1', 's1r2']));
    expect(fake.steps).toEqual([
      `s1r1: create ${BACKUP}`,
      `s1r1: ${BACKUP} ← p08 from cost_line_items`,
      `s1r2: create ${BACKUP}`,
      `s1r2: ${BACKUP} ← p08 from cost_line_items`,
      'journal swapping [0,0,1,1,0,0]',
      `s1r1: cost_line_items ← p07 from ${IMPORT_ID}`,
      `s1r2: cost_line_items ← p07 from ${IMPORT_ID}`,
      `s1r1: cost_line_items ← p08 from ${IMPORT_ID}`,
      `s1r2: cost_line_items ← p08 from ${IMPORT_ID}`,
      `s1r1: cost_line_items ← p09 from ${IMPORT_ID}`,
      `s1r2: cost_line_items ← p09 from ${IMPORT_ID}`,
      'journal committed',
      `s1r1: drop ${BACKUP}`,
      `s1r2: drop ${BACKUP}`,
    ]);
  });

  it('rolls back every step done so far on its own node when one replica fails mid-publish', async () => {
    const fake = fakeClickhouse({
      existing: { s1r1: ['p08'], s1r2: ['p08'] },
      failOn: [new RegExp(`^s1r2: cost_line_items ← p08 from ${IMPORT_ID}$`)],
    });
    await expect(publishPartitions(fake.clickhouse, planOn(fake, ['s1r1', 's1r2']))).rejects.toThrow('injected failure');
    const rollback = fake.steps.slice(fake.steps.indexOf(`s1r2: cost_line_items ← p08 from ${IMPORT_ID}`) + 1);
    expect(rollback).toEqual([
      's1r1: cost_line_items drop p07',
      's1r2: cost_line_items drop p07',
      `s1r1: cost_line_items ← p08 from ${BACKUP}`,
      `s1r2: cost_line_items ← p08 from ${BACKUP}`,
      's1r1: cost_line_items drop p09',
      's1r2: cost_line_items drop p09',
      'journal rolled_back',
      `s1r1: drop ${IMPORT_ID}`,
      `s1r1: drop ${BACKUP}`,
      `s1r2: drop ${IMPORT_ID}`,
      `s1r2: drop ${BACKUP}`,
    ]);
    expect(fake.state()).toBe('rolled_back');
  });

  it('moves a partition published on another shard (the cluster grew): dropped there in the same publish, restored there on rollback', async () => {
    const moved = (failOn?: RegExp[]) => {
      const fake = fakeClickhouse({ existing: { s1r1: [], s2r1: ['p07'] }, failOn });
      const plan: PublishPlan = {
        importId: IMPORT_ID,
        organizationId: '6f1c1f5e-8a4b-4c1e-9a53-2d7f0c8b1a11',
        integrationIds: ['aws-1'],
        partitions: [{ partitionId: 'p07', hosts: [fake.host('s1r1')], elsewhere: [fake.host('s2r1')] }],
      };
      return { fake, plan };
    };
    const { fake, plan } = moved();
    await publishPartitions(fake.clickhouse, plan);
    expect(fake.steps).toEqual([
      `s1r1: create ${BACKUP}`,
      `s2r1: create ${BACKUP}`,
      `s2r1: ${BACKUP} ← p07 from cost_line_items`,
      'journal swapping [0,1]',
      `s1r1: cost_line_items ← p07 from ${IMPORT_ID}`,
      's2r1: cost_line_items drop p07',
      'journal committed',
      `s1r1: drop ${BACKUP}`,
      `s2r1: drop ${BACKUP}`,
    ]);

    const failing = moved([/^journal committed$/]);
    await expect(publishPartitions(failing.fake.clickhouse, failing.plan)).rejects.toThrow('injected failure');
    expect(failing.fake.steps).toContain(`s2r1: cost_line_items ← p07 from ${BACKUP}`);
    expect(failing.fake.steps).toContain('s1r1: cost_line_items drop p07');
  });
});
