/**
 * `npm run -s bench:first-answer`: a newcomer's first hour, timed. On a fresh clone of this repository's HEAD, nothing
 * beside it: `npm ci` (which builds dist/), `npm start` until the first `/data` answer with the demo key, the CLI's
 * `help` (`npx cost-insights help`) and a command relayed through the running API (`keys list`). Run it alone: it
 * measures wall time. Writes bench/results/<time>-first-answer.{json,md}; the clone is removed after.
 */
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..');
const DEMO_ORGANIZATION = '3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d';

interface Step {
  step: string;
  seconds: number;
}

async function main(): Promise<void> {
  const home = mkdtempSync(join(tmpdir(), 'first-answer-'));
  const clone = join(home, 'cost-insights-api');
  const steps: Step[] = [];
  const timed = async <T>(step: string, run: () => T | Promise<T>): Promise<T> => {
    const started = performance.now();
    const result = await run();
    steps.push({ step, seconds: round((performance.now() - started) / 1000) });
    process.stderr.write(`${step}: ${steps[steps.length - 1].seconds} s\n`);
    return result;
  };
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
  let api: ChildProcess | undefined;
  try {
    await timed('git clone', () => execFileSync('git', ['clone', '--quiet', ROOT, clone]));
    await timed('npm ci (with the build of dist/)', () =>
      execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: clone, stdio: 'ignore' }),
    );
    const port = await freePort();
    const started = performance.now();
    api = spawn('npm', ['start'], {
      cwd: clone,
      env: { ...process.env, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const since = (step: string) => {
      steps.push({ step, seconds: round((performance.now() - started) / 1000) });
      process.stderr.write(`${step}: ${steps[steps.length - 1].seconds} s\n`);
    };
    const key = await demoKey(api);
    since('npm start: the demo key printed');
    await firstAnswer(port, key);
    since('npm start: the first /data answer');
    await timed('npx cost-insights help', () => execFileSync('npx', ['cost-insights', 'help'], { cwd: clone, stdio: 'ignore' }));
    await timed('node dist/cli/main.js help', () =>
      execFileSync(process.execPath, ['dist/cli/main.js', 'help'], { cwd: clone, stdio: 'ignore' }),
    );
    await timed('keys list, relayed through the running API', () =>
      execFileSync(process.execPath, ['dist/cli/main.js', 'keys', 'list', '--org', DEMO_ORGANIZATION], { cwd: clone, stdio: 'ignore' }),
    );
  } finally {
    if (api) await stopGroup(api.pid!);
    rmSync(home, { recursive: true, force: true });
  }
  report(commit, steps);
}

/** Stops npm, the build check and the API (the whole process group), and waits until none is left. */
async function stopGroup(pid: number): Promise<void> {
  const alive = () => {
    try {
      process.kill(-pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  if (alive()) process.kill(-pid, 'SIGTERM');
  while (alive()) await new Promise((wait) => setTimeout(wait, 100));
}

/** The demo key `npm start` prints once it loaded the demo estate. */
function demoKey(api: ChildProcess): Promise<string> {
  return new Promise((found, fail) => {
    let output = '';
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const key = /Demo API key[^\n]*\n\n\s+(\S+)/.exec(output)?.[1];
      if (key) found(key);
    };
    api.stdout!.on('data', read);
    api.stderr!.on('data', read);
    api.once('exit', (code) => fail(new Error(`npm start exited (${code}) before printing the demo key:\n${output}`)));
  });
}

async function firstAnswer(port: number, key: string): Promise<void> {
  for (;;) {
    const response = await fetch(`http://localhost:${port}/v1/cost-insights/data`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ groupBy: { dateGrouping: 'monthly', dimension: 'cloud' } }),
    }).catch(() => undefined);
    if (response?.status === 200) return;
    await new Promise((wait) => setTimeout(wait, 100));
  }
}

function report(commit: string, steps: Step[]): void {
  const at = new Date().toISOString().replace(/[:.]/g, '-');
  const file = join(ROOT, 'bench', 'results', `${at}-first-answer`);
  writeFileSync(`${file}.json`, `${JSON.stringify({ bench: 'first-answer', commit, steps }, null, 2)}\n`);
  const rows = steps.map((s) => `| ${s.step} | ${s.seconds.toFixed(1)} |`);
  const text = [`# First answer on a fresh clone (${commit})`, '', '| Step | Seconds |', '|---|---:|', ...rows, ''].join('\n');
  writeFileSync(`${file}.md`, text);
  process.stdout.write(text);
}

function freePort(): Promise<number> {
  return new Promise((found) => {
    const server = createServer().listen(0, () => {
      const { port } = server.address() as { port: number };
      server.close(() => found(port));
    });
  });
}

function round(seconds: number): number {
  return Math.round(seconds * 10) / 10;
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
