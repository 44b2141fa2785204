import { randomUUID } from 'node:crypto';
import { redisSharedFilterKey, redisSharedFilterKeySetKey, redisSharedFilterQuotaKeys } from '../infrastructure/redis/redis-key-prefixes';
import { BackupManifest, manifestProblem } from './backup-manifest';

/** A manifest as BackupService writes it: a 2-shard cluster's, with a shared filter's Redis keys. */
function written(): BackupManifest {
  const organizationId = randomUUID();
  const quota = redisSharedFilterQuotaKeys(organizationId);
  return {
    format: 1,
    name: 'nightly-1',
    base: 'nightly-0',
    startedAt: '2026-11-28T02:00:00.123Z',
    finishedAt: '2026-11-28T02:04:10.456Z',
    database: 'cost_insights',
    mode: 'cluster',
    schemaVersion: 31,
    parts: [1, 2].map((shard) => ({ folder: `s${shard}`, shard, rows: { cost_line_items: 10 * shard, api_keys: 0 }, bytes: 4096 })),
    redisKeys: [
      redisSharedFilterKey('sf_kX3v9QmT2bL8wN5rHc1zYa0d'),
      quota.filters,
      quota.bytes,
      redisSharedFilterKeySetKey(organizationId, 'Ab3dE5gH7jK9'),
    ].map((key) => ({ key, ttlMs: 86_400_000, dump: Buffer.from(`payload of ${key}`).toString('base64') })),
  };
}

/** A manifest as someone who can write the backups edits it: any field, any value. */
interface Tampered {
  [field: string]: unknown;
  parts: { [field: string]: unknown; rows: Record<string, unknown> }[];
  redisKeys: { [field: string]: unknown; key: string }[];
}

describe('manifestProblem (a backup manifest checked before use)', () => {
  it('accepts the manifests this service writes: a cluster, one server, a full backup without Redis keys', () => {
    expect(manifestProblem(written(), 'nightly-1')).toBeUndefined();
    const oneServer = {
      ...written(),
      mode: 'server',
      base: null,
      redisKeys: [],
      parts: [{ ...written().parts[0], folder: 'store', shard: 1 }],
    };
    expect(manifestProblem(oneServer, 'nightly-1')).toBeUndefined();
  });

  it.each<[string, (manifest: Tampered) => void]>([
    ['format', (m) => (m.format = 2)],
    ['name', (m) => (m.name = 'another')],
    ['base', (m) => (m.base = '../nightly-0')],
    ['startedAt', (m) => (m.startedAt = "2026-11-28'; DROP")],
    ['database', (m) => (m.database = "cost_insights AS evil FROM File('/tmp/x') ASYNC --")],
    ['database', (m) => (m.database = 'cost-insights')],
    ['mode', (m) => (m.mode = 'sharded')],
    ['schemaVersion', (m) => (m.schemaVersion = '31')],
    ['parts', (m) => (m.parts = [])],
    ['parts', (m) => (m.mode = 'server')], // two parts are not one server's
    ['parts[1].shard', (m) => (m.parts[1].shard = 1)],
    ['parts[0].shard', (m) => (m.parts[0].shard = 1.5)],
    ['parts[0].folder', (m) => (m.parts[0].folder = '../nightly-0/s1')],
    ['parts[1].folder', (m) => (m.parts[1].folder = 's1')],
    ['parts[0].bytes', (m) => (m.parts[0].bytes = -1)],
    ['parts[0].rows', (m) => (m.parts[0].rows = { 'x; DROP TABLE y': 1 })],
    ['parts[0].rows.cost_line_items', (m) => (m.parts[0].rows.cost_line_items = '10')],
    ['redisKeys', (m) => Object.assign(m, { redisKeys: {} })],
    ['redisKeys[0].key', (m) => (m.redisKeys[0].key = 'cost-insights:sign-in:session:0000')],
    ['redisKeys[1].key', (m) => (m.redisKeys[1].key = `${m.redisKeys[1].key}:*`)],
    ['redisKeys[0].ttlMs', (m) => (m.redisKeys[0].ttlMs = -5)],
    ['redisKeys[0].dump', (m) => (m.redisKeys[0].dump = 'not base64!')],
    ['redisKeys[0].dump', (m) => (m.redisKeys[0].dump = '')],
  ])('refuses a tampered %s, naming it', (field, tamper) => {
    const manifest = written() as unknown as Tampered;
    tamper(manifest);
    expect(manifestProblem(manifest, 'nightly-1')).toMatch(
      new RegExp(`^its manifest\\.json field ${field.replace(/[[\].]/g, '\\$&')} must be `),
    );
  });

  it('shows a tampered value readably and short: no line breaks, at most 100 characters', () => {
    const manifest = { ...written(), database: `x\r\n${'=HYPERLINK("y")'.repeat(300)}` };
    const problem = manifestProblem(manifest, 'nightly-1')!;
    expect(problem).not.toMatch(/[\r\n]/);
    expect(problem.length).toBeLessThan(300);
  });

  it('refuses what is not a manifest at all, naming its first field', () => {
    expect(manifestProblem([], 'nightly-1')).toMatch(/^its manifest\.json field format must be 1, got nothing$/);
    expect(manifestProblem(null, 'nightly-1')).toMatch(/field format/);
  });
});
