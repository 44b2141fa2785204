import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { E2E_MODE, E2E_MODES, E2eMode } from './e2e-mode';

/**
 * Which modes each e2e and timing suite runs in, declared by the suite itself on its first line:
 *
 *   // modes: embedded server cluster — why, in a few words
 *
 * All three where storage topology matters (ClickHouse SQL, ingestion, the publish protocol, backups, currency,
 * insights, sources, the cluster); once (embedded) what only tests HTTP, validation, auth, pages or documents; two
 * where Redis or a server changes the path taken. jest.config.js runs each suite only in its modes; the unit test
 * (suite-modes.spec.ts) fails on a suite that declares none, so no suite silently drops out of a mode.
 */
const HEADER = /^\/\/ modes: ([a-z]+(?: [a-z]+)*)(?: — .+)?$/;

/** The suite folders and their file names (each declares its modes). */
export const SUITE_FOLDERS = [
  { folder: 'test/e2e', pattern: /\.e2e-spec\.ts$/ },
  { folder: 'test/timing', pattern: /\.timing-spec\.ts$/ },
] as const;

/** The modes a suite's text declares, or why it declares none it may (a message naming the rule). */
export function declaredModes(text: string): E2eMode[] | string {
  const first = text.split('\n', 1)[0];
  const match = HEADER.exec(first);
  if (!match) return `its first line must be "// modes: <${E2E_MODES.join('|')} …> — why"`;
  const modes = match[1].split(' ');
  const unknown = modes.filter((mode) => !(E2E_MODES as readonly string[]).includes(mode));
  if (unknown.length > 0) return `unknown mode(s) ${unknown.join(', ')} (modes: ${E2E_MODES.join(', ')})`;
  if (new Set(modes).size !== modes.length) return 'a mode named twice';
  return modes as E2eMode[];
}

/** Every suite file (relative to `root`) with what it declares. */
export function suites(root: string): Array<{ file: string; modes: E2eMode[] | string }> {
  return SUITE_FOLDERS.flatMap(({ folder, pattern }) =>
    readdirSync(join(root, folder))
      .filter((name) => pattern.test(name))
      .sort()
      .map((name) => {
        const path = join(root, folder, name);
        return { file: relative(root, path), modes: declaredModes(readFileSync(path, 'utf8')) };
      }),
  );
}

/** The suites that do not run in `mode` (jest's testPathIgnorePatterns); a suite declaring nothing runs nowhere. */
export function suitesNotIn(root: string, mode: E2eMode): string[] {
  return suites(root)
    .filter(({ modes }) => typeof modes === 'string' || !modes.includes(mode))
    .map(({ file }) => file);
}

/**
 * `it` in `modes`, skipped (and counted as skipped) in the others: for a case of a many-mode suite whose subject does
 * not depend on the store — a usage message, an object store's listing — so it runs once, not once per mode.
 */
export function itIn(modes: readonly E2eMode[]): jest.It {
  return modes.includes(E2E_MODE) ? it : it.skip;
}
