import { INestApplicationContext, Logger } from '@nestjs/common';
import { mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../config/app-config';
import { parseCommandLine } from './cli-args';
import { relayToRunningApi, serveCliRelay, withAbsolutePaths } from './cli-relay';
import { StoreCommand } from './command-line';

Logger.overrideLogger(false); // the relay's own log lines are not what these tests read

const ORG = '11111111-1111-4111-8111-111111111111';
const command = (argv: string[]) => parseCommandLine(argv) as StoreCommand;

describe('a relayed command reads its files from the CLI’s folder', () => {
  it('resolves the files of ingest, rates import, cost-categories set, budgets set and metrics import against the CLI’s folder', () => {
    expect(withAbsolutePaths(command(['ingest', 'focus', 'a.csv', '/abs/b.csv', '--org', ORG]), '/home/op')).toMatchObject({
      paths: ['/home/op/a.csv', '/abs/b.csv'],
    });
    expect(withAbsolutePaths(command(['rates', 'import', '../r.csv', '--org', ORG]), '/home/op/x')).toMatchObject({
      path: '/home/op/r.csv',
    });
    expect(withAbsolutePaths(command(['cost-categories', 'set', 'Unit', 'unit.json', '--org', ORG]), '/w')).toMatchObject({
      file: '/w/unit.json',
    });
    expect(withAbsolutePaths(command(['budgets', 'set', '--file', 'budget.json', '--org', ORG]), '/w')).toMatchObject({
      file: '/w/budget.json',
    });
    expect(withAbsolutePaths(command(['metrics', 'import', 'orders.csv', '--org', ORG, '--name', 'orders']), '/w')).toMatchObject({
      file: '/w/orders.csv',
    });
  });

  it('leaves a command without files as it is', () => {
    const list = command(['keys', 'list', '--org', ORG]);
    expect(withAbsolutePaths(list, '/home/op')).toEqual(list);
  });
});

describe('the relay between the CLI and the API serving its store (real sockets)', () => {
  const home = mkdtempSync(join(tmpdir(), 'relay-spec-'));
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  /** The API's side as serveCliRelay sees it: its configuration, nothing else. */
  const apiWith = (environment: Record<string, string>) => ({ get: () => loadConfig(environment) }) as unknown as INestApplicationContext;

  /** What the CLI prints, captured. */
  function captured() {
    const lines: string[] = [];
    return { lines, io: { out: (text: string) => lines.push(`out ${text}`), err: (text: string) => lines.push(`err ${text}`) } };
  }

  it('runs the command in the serving process, with its files resolved from the CLI’s folder, and passes back output and exit code', async () => {
    const environment = { DATA_DIR: join(home, 'store') };
    const seen: StoreCommand[] = [];
    const stop = await serveCliRelay(apiWith(environment), async (_app, command, io) => {
      seen.push(command);
      io.out('imported');
      io.err('a warning');
      return 3;
    });
    expect(stop).toBeDefined();
    expect((statSync(join(home, 'store', 'cli')).mode & 0o777).toString(8)).toBe('700');
    try {
      const { lines, io } = captured();
      const code = await relayToRunningApi(['rates', 'import', 'rates.csv', '--org', ORG], io, environment);
      expect({ code, lines }).toEqual({ code: 3, lines: ['out imported', 'err a warning'] });
      expect(seen).toEqual([expect.objectContaining({ name: 'rates import', path: join(process.cwd(), 'rates.csv') })]);

      const refused = captured();
      expect(await relayToRunningApi(['backup', 'restore', 'b1', '--force'], refused.io, environment)).toBe(1);
      expect(refused.lines).toEqual([expect.stringMatching(/^err Error: `backup restore` does not run while the API serves this store/)]);
      expect(seen).toHaveLength(1);
    } finally {
      stop!();
    }
    // Stopped: no API answers, so the CLI opens the store itself.
    expect(await relayToRunningApi(['keys', 'list', '--org', ORG], captured().io, environment)).toBeUndefined();
  });

  it('serves no relay where its folder is a symbolic link, or its socket path too long, and the API goes on', async () => {
    mkdirSync(join(home, 'linked'), { recursive: true });
    symlinkSync(home, join(home, 'linked', 'cli'));
    const run = () => Promise.resolve(0);
    expect(await serveCliRelay(apiWith({ DATA_DIR: join(home, 'linked') }), run)).toBeUndefined();
    expect(await serveCliRelay(apiWith({ DATA_DIR: join(home, 'x'.repeat(120)) }), run)).toBeUndefined();
    expect(await serveCliRelay(apiWith({ DATA_DIR: home, CLICKHOUSE_URL: 'http://localhost:8123' }), run)).toBeUndefined();
  });
});
