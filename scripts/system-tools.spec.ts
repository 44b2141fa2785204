import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { banner, checkSystemTools, findOnPath, installCommand, isCi, SKIP_EXIT_CODE, SYSTEM_TOOLS, systemTool } from './system-tools';

describe('system tools', () => {
  let dir: string;
  let withAll: string;
  let withoutNginx: string;

  /** A directory of fake executables named `commands`. */
  function binDir(name: string, commands: string[]): string {
    const bin = join(dir, name);
    mkdirSync(bin);
    for (const command of commands) {
      writeFileSync(join(bin, command), '#!/bin/sh\n');
      chmodSync(join(bin, command), 0o755);
    }
    return bin;
  }

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'system-tools-'));
    withAll = binDir('all', ['python3', 'redis-server', 'nginx']);
    withoutNginx = binDir('no-nginx', ['python3', 'redis-server']);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const MULTI = ['python3', 'redis-server', 'nginx'];

  it('runs when every tool is on the PATH, whatever CI says', () => {
    expect(checkSystemTools(MULTI, 'the multi suite', { PATH: withAll })).toEqual({ outcome: 'run' });
    expect(checkSystemTools(MULTI, 'the multi suite', { PATH: `${withoutNginx}${delimiter}${withAll}`, CI: 'true' })).toEqual({
      outcome: 'run',
    });
  });

  it('skips outside CI when a tool is missing, naming it and the one command that installs it', () => {
    for (const CI of [undefined, '', 'false', '0', 'FALSE']) {
      const verdict = checkSystemTools(MULTI, 'the multi suite', { PATH: withoutNginx, CI });
      expect(verdict).toEqual({
        outcome: 'skip',
        missing: [systemTool('nginx')],
        message: [
          'SKIPPED: the multi suite.',
          'nginx is not installed (not on the PATH); needed by the multi-instance suite (the load balancer).',
          'Install it with:  sudo apt-get install -y nginx',
          '(With CI=true a missing tool fails the run instead.)',
        ].join('\n'),
      });
    }
  });

  it('fails under CI when a tool is missing', () => {
    for (const CI of ['true', '1', 'TRUE', 'yes']) {
      const verdict = checkSystemTools(MULTI, 'the multi suite', { PATH: withoutNginx, CI });
      expect(verdict.outcome).toBe('fail');
      if (verdict.outcome === 'run') throw new Error('unreachable');
      expect(verdict.message).toMatch(/^FAILED: the multi suite cannot run, and CI is set: a missing system tool is a failure\.\n/);
      expect(verdict.message).toContain('Install it with:  sudo apt-get install -y nginx');
    }
  });

  it('names every missing tool and installs them with one command', () => {
    const verdict = checkSystemTools(MULTI, 'x', { PATH: join(dir, 'nowhere') });
    if (verdict.outcome === 'run') throw new Error('should not run');
    expect(verdict.missing.map((tool) => tool.command)).toEqual(MULTI);
    expect(verdict.message).toContain('Install them with:  sudo apt-get install -y python3 redis-server nginx');
    expect(checkSystemTools(['nginx'], 'x', {}).outcome).toBe('skip'); // no PATH at all
  });

  it('finds only executable files on the PATH, in PATH order', () => {
    const plain = join(dir, 'plain');
    mkdirSync(plain);
    writeFileSync(join(plain, 'nginx'), 'not executable');
    mkdirSync(join(plain, 'redis-server')); // a directory is not a command
    expect(findOnPath('nginx', plain)).toBeUndefined();
    expect(findOnPath('redis-server', plain)).toBeUndefined();
    expect(findOnPath('nginx', [plain, withoutNginx, withAll].join(delimiter))).toBe(join(withAll, 'nginx'));
    expect(findOnPath('python3', [withoutNginx, withAll].join(delimiter))).toBe(join(withoutNginx, 'python3'));
    expect(findOnPath('nginx', undefined)).toBeUndefined();
  });

  it('reads CI as CI runners set it', () => {
    expect([undefined, '', '0', 'false', 'False'].map((CI) => isCi({ CI }))).toEqual([false, false, false, false, false]);
    expect(['true', '1', 'yes'].map((CI) => isCi({ CI }))).toEqual([true, true, true]);
  });

  it('refuses a tool that is not in the table', () => {
    expect(() => checkSystemTools(['ngnix'], 'x', { PATH: withAll })).toThrow('ngnix is not in scripts/system-tools.table.json');
  });

  it('frames the message in a banner, line by line', () => {
    expect(banner('SKIPPED: x.\nInstall it with:  y').split('\n')).toEqual([
      '',
      '!'.repeat(100),
      '!!  SKIPPED: x.',
      '!!  Install it with:  y',
      '!'.repeat(100),
      '',
    ]);
  });

  it('is listed in the README quick start, each tool with what needs it and its install command', () => {
    const readme = readFileSync(resolve(__dirname, '../README.md'), 'utf8');
    for (const tool of SYSTEM_TOOLS) {
      expect(readme).toContain(`| \`${tool.command}\` | ${tool.neededBy} | \`${installCommand([tool])}\` |`);
    }
  });

  it('exits 0, 3 (skip, with the banner on stderr) or 1 (fail, under CI) as scripts/test.sh expects', () => {
    const check = (env: NodeJS.ProcessEnv) =>
      spawnSync(
        process.execPath,
        [require.resolve('ts-node/dist/bin'), '--transpile-only', join(__dirname, 'system-tools.ts'), 'check', 'the multi suite', ...MULTI],
        { env, encoding: 'utf8' },
      );
    expect(check({ PATH: withAll, CI: 'true' })).toMatchObject({ status: 0, stderr: '' });
    const skipped = check({ PATH: withoutNginx });
    expect(skipped.status).toBe(SKIP_EXIT_CODE);
    expect(skipped.stderr).toContain(`!!  SKIPPED: the multi suite.\n`);
    expect(skipped.stderr).toContain('!!  Install it with:  sudo apt-get install -y nginx\n');
    const failed = check({ PATH: withoutNginx, CI: 'true' });
    expect(failed.status).toBe(1);
    expect(failed.stderr).toContain('!!  FAILED: the multi suite cannot run');
  });
});
