/**
 * The system tools the test suites need besides Node and `npm ci`, defined once in system-tools.table.json (plain
 * JSON, so that `.ci/run` can read it before `npm ci`): the command, the Debian package that installs it and
 * what needs it. Who uses the table:
 *  - `.ci/run` installs every missing one with apt-get before `npm ci && npm test`;
 *  - the suites (test/support/system-tools.ts: describeWithTools, itWithTools) and scripts/test.sh (the
 *    e2e server-mode step, through `check` below) ask checkSystemTools() before they start anything;
 *  - the README's quick start lists them (system-tools.spec.ts checks it does).
 * A missing tool skips what needs it, loudly (a banner naming the tool and the one command that installs
 * it), except under CI (`CI` set, and not `0` or `false`), where it is a failure: CI installs them all.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import TABLE from './system-tools.table.json';

export interface SystemTool {
  /** The executable looked up on the PATH. */
  readonly command: string;
  /** The Debian/Ubuntu package that provides it. */
  readonly package: string;
  /** What needs it, for messages and the README. */
  readonly neededBy: string;
}

export const SYSTEM_TOOLS: readonly SystemTool[] = TABLE;

/** The one command that installs `tools` (Debian, Ubuntu). */
export function installCommand(tools: readonly SystemTool[]): string {
  return `sudo apt-get install -y ${tools.map((tool) => tool.package).join(' ')}`;
}

/** The table's entry for `name`; a name not in it is a mistake in the caller, thrown at once. */
export function systemTool(name: string): SystemTool {
  const tool = SYSTEM_TOOLS.find((candidate) => candidate.command === name);
  if (!tool) throw new Error(`${name} is not in scripts/system-tools.table.json`);
  return tool;
}

/** The absolute path of `command` on `path` (a PATH value), or undefined: an executable regular file, as `command -v` finds it. */
export function findOnPath(command: string, path: string | undefined): string | undefined {
  for (const dir of (path ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, command);
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** CI=true (any value but empty, `0` or `false`): what CI runners and `.ci/run` set. */
export function isCi(env: NodeJS.ProcessEnv): boolean {
  const value = (env.CI ?? '').trim().toLowerCase();
  return value !== '' && value !== '0' && value !== 'false';
}

export type ToolVerdict =
  { readonly outcome: 'run' } | { readonly outcome: 'skip' | 'fail'; readonly missing: readonly SystemTool[]; readonly message: string };

/**
 * Whether `what` (a suite, a step) can run: every tool of `names` on the PATH of `env` → run; a tool missing →
 * skip, or fail under CI. The message names each missing tool, what needs it and the command that installs it.
 */
export function checkSystemTools(names: readonly string[], what: string, env: NodeJS.ProcessEnv = process.env): ToolVerdict {
  const missing = names.map(systemTool).filter((tool) => findOnPath(tool.command, env.PATH) === undefined);
  if (missing.length === 0) return { outcome: 'run' };
  const ci = isCi(env);
  const lines = [
    ci ? `FAILED: ${what} cannot run, and CI is set: a missing system tool is a failure.` : `SKIPPED: ${what}.`,
    missingToolsText(missing),
    ci
      ? '(.ci/run installs every tool of scripts/system-tools.table.json before the tests.)'
      : '(With CI=true a missing tool fails the run instead.)',
  ];
  return { outcome: ci ? 'fail' : 'skip', missing, message: lines.join('\n') };
}

/** Each missing tool, what needs it, and the one command that installs them. */
export function missingToolsText(missing: readonly SystemTool[]): string {
  return [
    ...missing.map((tool) => `${tool.command} is not installed (not on the PATH); needed by ${tool.neededBy}.`),
    `Install ${missing.length === 1 ? 'it' : 'them'} with:  ${installCommand(missing)}`,
  ].join('\n');
}

/** The message framed so that it stands out in a test run's output. */
export function banner(message: string): string {
  const rule = '!'.repeat(100);
  return ['', rule, ...message.split('\n').map((line) => `!!  ${line}`), rule, ''].join('\n');
}

/**
 * `ts-node scripts/system-tools.ts check <what> <tool>...` (scripts/test.sh): exit 0 when every tool is there;
 * otherwise the banner on stderr and exit 3 (skip) or 1 (fail, under CI).
 */
export const SKIP_EXIT_CODE = 3;

if (require.main === module) {
  const [verb, what, ...names] = process.argv.slice(2);
  if (verb !== 'check' || !what || names.length === 0) {
    process.stderr.write('usage: system-tools.ts check <what> <tool>...\n');
    process.exit(2);
  }
  const verdict = checkSystemTools(names, what);
  if (verdict.outcome !== 'run') process.stderr.write(`${banner(verdict.message)}\n`);
  process.exit(verdict.outcome === 'run' ? 0 : verdict.outcome === 'skip' ? SKIP_EXIT_CODE : 1);
}
