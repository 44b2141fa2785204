import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { SETTING_DEFAULTS } from '../src/config/settings';

/**
 * A clone of this repository alone runs `npm test` and reads its docs: no tracked file reaches a folder beside the
 * repository (the workspace's `../shared`), and every relative link of the Markdown files resolves inside it.
 */
const ROOT = resolve(__dirname, '..');

/** The anchors GitHub gives a Markdown file's headings: lower case, punctuation dropped, spaces as dashes, repeats numbered. */
function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = !fenced && /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const slug = heading[1]
      .toLowerCase()
      .replace(/<[^>]+>/g, '')
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}
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

  it("ignores the service's own state in a checkout: the default DATA_DIR and BACKUP_DIR", () => {
    const notIgnored = [SETTING_DEFAULTS.DATA_DIR, SETTING_DEFAULTS.BACKUP_DIR].filter((folder) => {
      try {
        execFileSync('git', ['check-ignore', '-q', join(folder, 'a-file')], { cwd: ROOT });
        return false;
      } catch {
        return true;
      }
    });
    expect(notIgnored).toEqual([]);
  });

  it('has no Markdown link to an anchor that its target does not have', () => {
    const broken: string[] = [];
    for (const path of tracked.filter((p) => p.endsWith('.md'))) {
      for (const [, target, anchor] of readFileSync(join(ROOT, path), 'utf8').matchAll(/\]\(([^)\s#]*)#([^)\s]+)\)/g)) {
        if (/^[a-z]+:/i.test(target)) continue;
        const file = target === '' ? join(ROOT, path) : resolve(join(ROOT, dirname(path)), target);
        if (!file.endsWith('.md') || !existsSync(file)) continue;
        if (!headingAnchors(readFileSync(file, 'utf8')).has(anchor)) broken.push(`${path} → ${target}#${anchor}`);
      }
    }
    expect(broken).toEqual([]);
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
