'use strict';
/**
 * The application as `npm run build` compiles it (`dist/`): built at install (`prepare`), and again only when a source
 * changed since (`npm start`, `npm run cli`, `npm run mcp` and the test suites ask it first). Plain JavaScript, as it
 * runs before anything is compiled.
 *
 *   node scripts/built-dist.js                    builds dist/ if it is stale
 *   node scripts/built-dist.js <entry> [args…]    then runs dist/<entry> with the arguments, as its own process
 */
const { spawn, spawnSync } = require('node:child_process');
const { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } = require('node:fs');
const { join, resolve } = require('node:path');

const ROOT = resolve(__dirname, '..');
const DIST = join(ROOT, 'dist');
/** Written after every build: newer than every source file while `dist/` is current. */
const STAMP = join(DIST, '.built');
/** Held while one process builds (another waits for it instead of building beside it). */
const LOCK = join(ROOT, '.test-tmp', 'build.lock');
/** A lock older than any build is a crashed builder's. */
const LOCK_STALE_MS = 600_000;

const BUILT = {
  dist: DIST,
  server: join(DIST, 'main.js'),
  cli: join(DIST, 'cli', 'main.js'),
  mcpStdio: join(DIST, 'mcp', 'stdio.js'),
};

/** Builds `dist/` when a source changed since its last build; `say` tells what it does (never stdout: MCP's). */
function ensureBuilt(say = () => undefined) {
  if (!isStale()) return;
  withLock(() => {
    if (!isStale()) return; // another process built it while this one waited
    say(mtime(STAMP) === undefined ? 'Compiling the API (first run)…' : 'Sources changed since the last build: compiling the API…');
    const started = Date.now();
    const tsc = spawnSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', join(ROOT, 'tsconfig.build.json')], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    // Type errors still emit JavaScript (the type check is its own step); only a missing output fails here.
    if (!exists(BUILT.server) || !exists(BUILT.cli)) throw new Error(`npm run build failed:\n${tsc.stdout}\n${tsc.stderr}`);
    writeFileSync(STAMP, `${new Date().toISOString()}\n`);
    say(`Compiled in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  });
}

function isStale() {
  const built = mtime(STAMP);
  return built === undefined || newestSource() > built;
}

function newestSource() {
  const sources = readdirSync(join(ROOT, 'src'), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => join(ROOT, 'src', file));
  return Math.max(...[...sources, join(ROOT, 'tsconfig.json'), join(ROOT, 'tsconfig.build.json')].map((file) => mtime(file) ?? 0));
}

function withLock(build) {
  mkdirSync(join(ROOT, '.test-tmp'), { recursive: true });
  const deadline = Date.now() + LOCK_STALE_MS;
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch {
      if ((mtime(LOCK) ?? Date.now()) < Date.now() - LOCK_STALE_MS || Date.now() > deadline) rmSync(LOCK, { recursive: true, force: true });
      else spawnSync('sleep', ['0.5']);
    }
  }
  try {
    build();
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

function mtime(path) {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
}

function exists(path) {
  return mtime(path) !== undefined;
}

/** Runs the built entry as a child process: signals passed on, its exit code this process's. */
function runBuilt(entry, args) {
  const child = spawn(process.execPath, [join(ROOT, entry), ...args], { stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 128 : 1)));
}

module.exports = { BUILT, ensureBuilt };

if (require.main === module) {
  const [entry, ...args] = process.argv.slice(2);
  try {
    ensureBuilt((message) => process.stderr.write(`${message}\n`));
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
  if (entry) runBuilt(entry, args);
}
