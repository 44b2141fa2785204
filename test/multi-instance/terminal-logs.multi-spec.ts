import { ChildProcess, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import { join } from 'node:path';
import { ensureBuilt } from '../support/built-dist';
import { decodeRepeatedly, keySpellings } from '../support/key-spellings';
import { freePort } from '../support/local-servers';
import { describeWithTools } from '../support/system-tools';
import { ROOT, waitUntil } from './cluster';

/**
 * The compiled server (`node dist/main.js`, what `npm start` runs) on embedded chDB, its stdout a terminal — a
 * pseudo-terminal from util-linux `script` — or a pipe: readable lines for a person at a terminal, JSON lines
 * for everything else (LOG_FORMAT=auto), JSON on a terminal too when LOG_FORMAT=json; key material sent in
 * URLs and an Authorization header redacted in every case.
 */
const KEY = 'cik_AbCdEfGhIjKl_0123456789abcdefghijABCDEFGHIJ0123456789abcdeXyZ123';
const SECRET = KEY.slice(17);
const dir = join(ROOT, '.test-tmp', `terminal-logs-${process.pid}`);
// eslint-disable-next-line no-control-regex
const plain = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '').replace(/\r/g, '');

/** Starts the server on a terminal or a pipe, sends requests carrying the key, stops it (Ctrl-C / SIGINT); its output. */
async function serverOutput(terminal: boolean, env: Record<string, string> = {}): Promise<string> {
  const port = await freePort();
  const main = join(ROOT, 'dist/main.js');
  const child: ChildProcess = terminal
    ? spawn('script', ['-qefc', `exec ${process.execPath} ${main}`, '/dev/null'], { cwd: ROOT, env: serverEnv(port, env) })
    : spawn(process.execPath, [main], { cwd: ROOT, env: serverEnv(port, env) });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<void>((resolveExit) => child.once('exit', () => resolveExit()));
  try {
    const base = `http://127.0.0.1:${port}`;
    await waitUntil('the server', async () => (await fetch(`${base}/health/ready`)).status === 200, 90_000, child);
    // Sent byte for byte (fetch would turn a backslash into a slash).
    for (const spelling of [KEY, ...Object.values(keySpellings(KEY))]) await rawGet(port, `/v1/nowhere/${spelling}`);
    await fetch(`${base}/v1/cost-insights/data`, { method: 'POST', headers: { Authorization: `Bearer ${KEY}` } });
    await waitUntil(
      'the last request line',
      async () => /cost-insights\/data.{0,200}401|401.{0,200}cost-insights\/data/s.test(plain(output)),
      10_000,
    );
  } finally {
    // Ctrl-C on the terminal reaches the server as SIGINT (a graceful stop), as it would for a person.
    if (terminal) child.stdin!.write('\u0003');
    else child.kill('SIGINT');
    const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    await exited;
    clearTimeout(killer);
  }
  return plain(output);
}

function rawGet(port: number, path: string): Promise<number | undefined> {
  return new Promise((resolveGet, reject) => {
    httpGet({ host: '127.0.0.1', port, path }, (response) => {
      response.resume();
      response.on('end', () => resolveGet(response.statusCode));
    }).on('error', reject);
  });
}

function serverEnv(port: number, extra: Record<string, string>): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    PORT: String(port),
    DATA_DIR: join(dir, 'data'),
    DEMO_ON_EMPTY_STORE: 'false',
    SHUTDOWN_READINESS_DELAY_MS: '0',
    LOG_LEVEL: 'info',
    ...extra,
  };
}

function expectNoKeyMaterial(output: string): void {
  expect(decodeRepeatedly(output)).not.toContain(SECRET.slice(0, 8));
  expect(output).toContain('cik_[redacted]');
}

describeWithTools(['script'])('logs of node dist/main.js on a terminal and on a pipe', () => {
  beforeAll(() => {
    rmSync(dir, { recursive: true, force: true });
    ensureBuilt();
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a terminal gets readable lines (LOG_FORMAT=auto), with key material redacted', async () => {
    const output = await serverOutput(true);
    const lines = output.split('\n').filter((line) => /^\[\d\d:\d\d:\d\d\.\d{3}\] [A-Z]+: /.test(line));
    expect(lines.length).toBeGreaterThan(3);
    expect(output).not.toMatch(/^\{"level"/m);
    expect(lines).toEqual(
      expect.arrayContaining([expect.stringMatching(/ INFO: \[Main\] Cost Insights API on http:\/\/localhost:\d+\/v1/)]),
    );
    expect(lines).toEqual(
      expect.arrayContaining([expect.stringMatching(/ INFO: GET \/v1\/nowhere\/cik_\[redacted\] 404 in \d+ ms \(request /)]),
    );
    expect(lines).toEqual(
      expect.arrayContaining([expect.stringMatching(/ INFO: POST \/v1\/cost-insights\/data 401 in \d+ ms \(request /)]),
    );
    expectNoKeyMaterial(output);
  }, 120_000);

  it('a pipe gets JSON lines (LOG_FORMAT=auto), with key material redacted', async () => {
    const output = await serverOutput(false);
    const entries = output
      .split('\n')
      .filter((line) => line.trim())
      .map((line) => JSON.parse(line) as { msg?: string; req?: { url: string; method: string }; res?: { statusCode: number } });
    expect(entries.map((entry) => entry.msg)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^Cost Insights API on http:\/\/localhost/)]),
    );
    expect(entries.filter((entry) => entry.res?.statusCode === 404).map((entry) => entry.req?.url)).toContain('/v1/nowhere/cik_[redacted]');
    expect(entries.filter((entry) => entry.res?.statusCode === 401).map((entry) => entry.req?.method)).toEqual(['POST']);
    expectNoKeyMaterial(output);
  }, 120_000);

  it('LOG_FORMAT=json keeps JSON lines on a terminal', async () => {
    const output = await serverOutput(true, { LOG_FORMAT: 'json' });
    const lines = output.split('\n').filter((line) => line.startsWith('{'));
    expect(lines.length).toBeGreaterThan(3);
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
    expect(output).not.toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: /m);
    expectNoKeyMaterial(output);
  }, 120_000);
});
