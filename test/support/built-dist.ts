import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../..');
const DIST = join(ROOT, 'dist');
/** Written after every build: newer than every source file while `dist/` is current. */
const STAMP = join(DIST, '.built');
/** Held while one process builds (another waits for it instead of building beside it). */
const LOCK = join(ROOT, '.test-tmp', 'build.lock');

/**
 * The application as `npm run build` compiles it (`dist/`, what `npm start`, the CLI and the MCP relay run), for the
 * suites that start the built server, CLI or relay. Built once per run, by `npm test` and by each jest project's
 * global setup when it is stale (sources newer than the last build); no suite compiles privately.
 */
export const BUILT = {
  dist: DIST,
  server: join(DIST, 'main.js'),
  cli: join(DIST, 'cli', 'main.js'),
  mcpStdio: join(DIST, 'mcp', 'stdio.js'),
};

/** Builds `dist/` when a source changed since its last build (incremental: only what changed is compiled again). */
export function ensureBuilt(): void {
  if (!isStale()) return;
  withLock(() => {
    if (!isStale()) return; // another process built it while this one waited
    const tsc = spawnSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', join(ROOT, 'tsconfig.build.json')], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    // Type errors still emit JavaScript (the type check is its own step); only a missing output fails here.
    if (!exists(BUILT.server) || !exists(BUILT.cli)) throw new Error(`npm run build failed:\n${tsc.stdout}\n${tsc.stderr}`);
    writeFileSync(STAMP, `${new Date().toISOString()}\n`);
  });
}

function isStale(): boolean {
  const built = mtime(STAMP);
  return built === undefined || newestSource() > built;
}

function newestSource(): number {
  const sources = readdirSync(join(ROOT, 'src'), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => join(ROOT, 'src', file));
  return Math.max(...[...sources, join(ROOT, 'tsconfig.json'), join(ROOT, 'tsconfig.build.json')].map((file) => mtime(file) ?? 0));
}

function withLock(build: () => void): void {
  mkdirSync(join(ROOT, '.test-tmp'), { recursive: true });
  const deadline = Date.now() + 600_000;
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch {
      // A lock older than any build is a crashed builder's.
      if ((mtime(LOCK) ?? Date.now()) < Date.now() - 600_000 || Date.now() > deadline) rmSync(LOCK, { recursive: true, force: true });
      else spawnSync('sleep', ['0.5']);
    }
  }
  try {
    build();
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

function mtime(path: string): number | undefined {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
}

function exists(path: string): boolean {
  return mtime(path) !== undefined;
}
