import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * A clone of this repository alone runs `npm test` and reads its docs: no tracked file reaches a folder beside the
 * repository (the workspace's `../shared`), and every relative link of the Markdown files resolves inside it.
 */
const ROOT = resolve(__dirname, '..');
const tracked = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' })
  .split('\n')
  .filter(
    (path) => /\.(ts|js|mjs|json|sh|md|py|yml|yaml)$/.test(path) && !path.startsWith('bench/results/') && existsSync(join(ROOT, path)),
  );

describe('the repository stands alone', () => {
  it('has no file that reads or links ../shared (beside the repository)', () => {
    const reaching = tracked.filter((path) => /\.\.\/(\.\.\/)*shared\//.test(readFileSync(join(ROOT, path), 'utf8')));
    expect(reaching).toEqual([]);
  });

  it('has no Markdown link that leaves the repository or points at a missing file', () => {
    const broken: string[] = [];
    for (const path of tracked.filter((p) => p.endsWith('.md'))) {
      for (const [, target] of readFileSync(join(ROOT, path), 'utf8').matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)) {
        if (/^[a-z]+:/i.test(target)) continue; // https:, mailto:
        const file = resolve(join(ROOT, dirname(path)), target);
        if (relative(ROOT, file).startsWith('..') || !existsSync(file)) broken.push(`${path} → ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
