import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../..');

/** Paths of a private build of the server and the CLI (`dist/` of its own, so tests never race over one). */
export interface PrivateBuild {
  dist: string;
  cli: string;
  server: string;
}

/**
 * Where a build under `dir` lives. The migrations and the Settings page's files are found relative to dist/, hence
 * `clickhouse` and `web` linked beside it.
 */
export function privateBuildPaths(dir: string): PrivateBuild {
  const dist = join(dir, 'dist');
  return { dist, cli: join(dist, 'cli', 'main.js'), server: join(dist, 'main.js') };
}

/** Compiles the application into `dir`. Type errors still emit JavaScript (the type check is its own step); only missing output fails. */
export function buildPrivately(dir: string): PrivateBuild {
  const build = privateBuildPaths(dir);
  mkdirSync(dir, { recursive: true });
  for (const shipped of ['clickhouse', 'web']) symlinkSync(join(ROOT, shipped), join(dir, shipped));
  const tsc = spawnSync(
    process.execPath,
    [
      require.resolve('typescript/bin/tsc'),
      '-p',
      join(ROOT, 'tsconfig.build.json'),
      '--outDir',
      build.dist,
      '--tsBuildInfoFile',
      join(build.dist, '.tsbuildinfo'),
    ],
    { cwd: ROOT, encoding: 'utf8' },
  );
  if (!existsSync(build.cli) || !existsSync(build.server)) throw new Error(`build failed:\n${tsc.stdout}\n${tsc.stderr}`);
  return build;
}

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI to its end (killed after 90 s), capturing its output. */
export function runCli(cli: string, args: string[], env: NodeJS.ProcessEnv): Promise<CliRun> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(process.execPath, [cli, ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolveRun({ code, signal, stdout, stderr });
    });
  });
}
