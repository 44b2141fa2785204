// modes: embedded — the CLI over the business-metrics service; the store's topology is covered by unit-costs.e2e-spec.ts
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { childEnv, spawnBuiltApi, waitForHttp } from '../support/built-app';
import { BUILT } from '../support/built-dist';
import { CliRun, runCli } from '../support/cli-run';
import { stopProcess } from '../support/local-servers';
import { sumDecimalText } from '../support/decimals';

/**
 * `metrics define|import|list` as an operator runs them: the compiled CLI in a child process on an embedded store of
 * this file's own. What a load stored is read back from the built API's /unit-costs on that store, which then relays
 * one more import; every expected figure is summed here from the CSV lines.
 */
// A short folder: the relay's socket path is at most 107 bytes.
const WORK = mkdtempSync(join(tmpdir(), 'cli-metrics-'));
const STORE = { DATA_DIR: join(WORK, 'store'), CLICKHOUSE_DATABASE: process.env.CLICKHOUSE_DATABASE! };
const ORG = randomUUID();
const WINDOW = { start: '2026-10-01', end: '2026-10-04' };

const VALUES = [
  { date: '2026-10-01', value: '120', team: 'payments' },
  { date: '2026-10-01', value: '80.5', team: 'search' },
  { date: '2026-10-02', value: '0.0000000001', team: 'payments' },
];

function csv(name: string, lines: string[]): string {
  const path = join(WORK, name);
  writeFileSync(path, ['date,value,team', ...lines, ''].join('\n'));
  return path;
}

function cli(args: string[], cwd?: string): Promise<CliRun> {
  return runCli(BUILT.cli, args, childEnv(STORE), cwd);
}

function json<T>(result: CliRun): T {
  expect(result).toMatchObject({ code: 0, stderr: '' });
  expect(result.stdout.trimEnd().split('\n')).toHaveLength(1);
  return JSON.parse(result.stdout) as T;
}

/** Each day's units, summed exactly from `values`. */
function unitsPerDay(values: ReadonlyArray<{ date: string; value: string }>): Array<{ usage_date: string; units: string }> {
  const days = [...new Set(values.map((v) => v.date))].sort();
  return days.map((day) => ({ usage_date: day, units: sumDecimalText(values.filter((v) => v.date === day).map((v) => v.value)) }));
}

describe('operator CLI: business metrics (embedded)', () => {
  afterAll(() => rmSync(WORK, { recursive: true, force: true }));

  it('defines a metric, refusing a name that is not one, and lists it', async () => {
    const refused = await cli(['metrics', 'define', '--org', ORG, '--name', 'Orders', '--unit', 'order']);
    expect(refused).toMatchObject({ code: 1, stdout: '' });
    expect(refused.stderr).toMatch(/^Error: the metric was refused, nothing was saved:\n {2}name: expected lower-case letters/);

    const defined = await cli([
      'metrics',
      'define',
      '--org',
      ORG,
      '--name',
      'orders',
      '--unit',
      'order',
      '--unit-scale',
      '1000',
      '--dimension',
      'tag:team',
    ]);
    expect(defined).toMatchObject({ code: 0, stderr: '', stdout: 'Defined orders: unit costs per 1000 × order, values per tag:team.\n' });

    const listed = json<{ organizationId: string; metrics: unknown[] }>(await cli(['metrics', 'list', '--org', ORG, '--json']));
    expect(listed).toEqual({
      organizationId: ORG,
      metrics: [{ name: 'orders', unit: 'order', unitScale: 1000, dimension: 'tag:team', updatedAt: expect.any(String) }],
    });
    const table = await cli(['metrics', 'list', '--org', ORG]);
    expect(
      table.stdout
        .trimEnd()
        .split('\n')
        .map((line) => line.split(/ {2,}/)),
    ).toEqual([
      ['NAME', 'UNIT', 'SCALE', 'DIMENSION', 'UPDATED'],
      ['orders', 'order', '1000', 'tag:team', expect.any(String)],
    ]);
  }, 60_000);

  it('imports a CSV file; a file with a negative value on line 2 is refused naming the line, nothing of it stored', async () => {
    const lines = VALUES.map((v) => `${v.date},${v.value},${v.team}`);
    const loaded = json(await cli(['metrics', 'import', csv('orders.csv', lines), '--org', ORG, '--name', 'orders', '--json']));
    expect(loaded).toEqual({ name: 'orders', values: 3, days: 2, first: '2026-10-01', last: '2026-10-02' });

    // Line 1 is the header; line 3's good value must not be stored either.
    const bad = csv('bad.csv', ['2026-10-04,-1,payments', '2026-10-03,5,payments']);
    const refused = await cli(['metrics', 'import', bad, '--org', ORG, '--name', 'orders']);
    expect(refused).toMatchObject({
      code: 1,
      stdout: '',
      stderr: 'Error: the values were refused, nothing was stored:\n  line 2, value: units are never negative, received "-1"\n',
    });
    const unknown = await cli(['metrics', 'import', bad, '--org', ORG, '--name', 'visitors']);
    expect(unknown).toMatchObject({ code: 1, stdout: '' });
    expect(unknown.stderr).toContain('name: no business metric named "visitors"');
  }, 60_000);

  it('the API answers the units loaded; an import relayed through it reads its file from the CLI’s folder', async () => {
    const key = json<{ key: string }>(await cli(['keys', 'create', '--org', ORG, '--name', 'reader', '--scopes', 'cost:read', '--json']));
    const api = await spawnBuiltApi(BUILT.server, childEnv({ ...STORE, MIGRATE_ON_START: 'true', DEMO_ON_EMPTY_STORE: 'false' }));
    const units = async () => {
      const response = await fetch(`${api.url}/v1/cost-insights/unit-costs`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${key.key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ metric: 'orders', filters: { inclusions: { dateRange: WINDOW } } }),
      });
      expect(response.status).toBe(200);
      const { items } = ((await response.json()) as { data: { items: Array<{ usage_date: string; units: string }> } }).data;
      return items.map(({ usage_date, units }) => ({ usage_date, units }));
    };
    try {
      await waitForHttp(`${api.url}/health/ready`, api.child, api.output, 180_000);
      expect(await units()).toEqual(unitsPerDay(VALUES));

      // A load replaces the days it names: 2026-10-02 then reads search's 7 alone.
      csv('more.csv', ['2026-10-02,7,search']);
      const relayed = await cli(['metrics', 'import', 'more.csv', '--org', ORG, '--name', 'orders'], WORK);
      expect(relayed).toMatchObject({
        code: 0,
        stderr: '',
        stdout: 'Loaded 1 value of orders over 1 day (2026-10-02); each of those days now reads these values only.\n',
      });
      const after = [...VALUES.filter((v) => v.date !== '2026-10-02'), { date: '2026-10-02', value: '7', team: 'search' }];
      expect(await units()).toEqual(unitsPerDay(after));
    } finally {
      await stopProcess(api.child);
    }
  }, 240_000);
});
