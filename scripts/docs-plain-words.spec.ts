import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * The docs a user reads (README.md, SECURITY.md, docs/**) speak the user's words: no number of this project's
 * issues (`issue 34`, `issues 32, 34`, `(#34)`), no bench machine by its letter (`host M`), no work session
 * (`stop 39`) — words that mean nothing outside the team. Name the feature, the estate, the machine instead.
 * bench/results/ is the lab notebook and keeps its own words.
 *
 * The rule, on each line once link targets, bare URLs and the text of links to absolute URLs are set aside (a link
 * target such as `HISTORY.md#host-m-…-issue-32` is an address, and a linked `[opencost #883](https://…)` names the
 * page it leads to):
 * - `issue N` / `issues N, M` / `issue-N` / `Issue #N`, any case: always (an upstream issue is a link to it);
 * - `#N` standing alone — at the start, after punctuation (`(#34)`, `#32, #34`) or after a word that introduces a
 *   reference (`see #34`, `PR #34`, `and #35`); `opencost #883` (a project's name before it), `owner/repo#N` and a
 *   `#N` glued to a word pass;
 * - `host X` / `hosts X, Y`: `host` in any case, then one capital letter as a word (`host M`, `Host G′`);
 * - `stop N` / `stops N–M`, unless a word other than `and`, `or`, `to` follows the number: `stop 2 replicas` is a
 *   count, `stop 39's`, `(stop 39)` and `stop 39 and 40` are work sessions.
 */
const ROOT = resolve(__dirname, '..');

/** Words that introduce a reference to this project's own tracker: `see #34` is one, `opencost #883` is not. */
const REFERENCE_LEAD_INS = new Set([
  ...['issue', 'issues', 'pr', 'prs', 'request', 'requests', 'fixes', 'fixed', 'closes', 'closed'],
  ...['see', 'and', 'or', 'also', 'in', 'per', 'by', 'from', 'via'],
]);
/** Words after `stop N` that keep it a work session's name (`stop 39 and 40`); any other word makes N a count. */
const STOP_JOINERS = new Set(['and', 'or', 'to']);

/** What a reader sees of a line, with the places the rule leaves alone blanked out. */
function readableText(line: string): string {
  return line
    .replace(/\[[^\]]*\]\((?:[a-z][a-z0-9+.-]*:)[^)\s]*\)/gi, ' ') // a link to an absolute URL: its text names its page
    .replace(/\]\([^)\s]*\)/g, ']') // a relative link's target (anchors included)
    .replace(/<?\b[a-z][a-z0-9+.-]*:\/\/[^\s)>]+>?/gi, ' ') // a bare URL
    .replace(/&#\d+;/g, ' '); // an HTML character reference
}

/** Each reference on a line that a user cannot read, as `"issue 34" (an issue number)`. */
export function jargonIn(line: string): string[] {
  const found: string[] = [];
  const flag = (match: string, kind: string) => found.push(`"${match}" (${kind})`);
  // Each `issue N` is reported once, then blanked, so its `#N` is not reported again.
  const text = readableText(line).replace(/\bissues?[\s-]+#?\d+(?:\s*(?:,|and|&)\s*#?\d+)*/gi, (match) => {
    flag(match, 'an issue number');
    return ' '.repeat(match.length);
  });

  for (const match of text.matchAll(/(?<![&\w])#\d+\b/g)) {
    const qualifier = /([A-Za-z][\w.-]*) $/.exec(text.slice(0, match.index))?.[1];
    if (qualifier && !REFERENCE_LEAD_INS.has(qualifier.toLowerCase())) continue; // `opencost #883`
    flag(match[0], 'an issue number');
  }

  for (const [match] of text.matchAll(/\b[Hh]osts?\s+[A-Z](?!\w)[′″]?/g)) flag(match, 'a bench host name');

  for (const match of text.matchAll(/\b[Ss]tops?\s+\d+(?:\s*[–-]\s*\d+)?(?![\d–-])/g)) {
    const nextWord = /^\s+([A-Za-z]+)/.exec(text.slice(match.index + match[0].length))?.[1];
    if (nextWord && !STOP_JOINERS.has(nextWord.toLowerCase())) continue; // `stop 2 replicas`: a count
    flag(match[0], 'a work-session number');
  }
  return found;
}

const userDocs = execFileSync('git', ['ls-files', '--', 'README.md', 'SECURITY.md', 'docs'], { cwd: ROOT, encoding: 'utf8' })
  .split('\n')
  .filter((path) => path.endsWith('.md') && existsSync(join(ROOT, path)));

describe('the user docs speak plainly', () => {
  it('checks README.md, SECURITY.md and every Markdown file under docs/', () => {
    expect(userDocs).toEqual(expect.arrayContaining(['README.md', 'SECURITY.md', 'docs/api.md', 'docs/performance.md']));
  });

  it('README.md stays a front door: at most 300 lines, the rest in docs/', () => {
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8').trimEnd().split('\n').length).toBeLessThanOrEqual(300);
  });

  it('have no issue number, bench host name or work-session number (file and line named)', () => {
    const found = userDocs.flatMap((path) =>
      readFileSync(join(ROOT, path), 'utf8')
        .split('\n')
        .flatMap((line, index) => jargonIn(line).map((what) => `${path}:${index + 1}: ${what}`)),
    );
    expect(found).toEqual([]);
  });

  it.each<[string, string[]]>([
    ["on issue 34's estate", ['"issue 34" (an issue number)']],
    ['the scan (issues 32, 34)', ['"issues 32, 34" (an issue number)']],
    ['Issue #20 added paging', ['"Issue #20" (an issue number)']],
    ['the issue-34 shape', ['"issue-34" (an issue number)']],
    ['data sources (#31)', ['"#31" (an issue number)']],
    ['both (#32, #34)', ['"#32" (an issue number)', '"#34" (an issue number)']],
    ['see #34 and PR #35', ['"#34" (an issue number)', '"#35" (an issue number)']],
    ['355 against 219 ms, host M', ['"host M" (a bench host name)']],
    ['Host G′ is noisy', ['"Host G′" (a bench host name)']],
    ['on hosts I, J, K, L', ['"hosts I" (a bench host name)']],
    ["runs 4–6 were stop 39's", ['"stop 39" (a work-session number)']],
    ['measured again (stop 39)', ['"stop 39" (a work-session number)']],
    ['stops 38–40 and stop 41 and 42', ['"stops 38–40" (a work-session number)', '"stop 41" (a work-session number)']],
  ])('flags %j', (line, expected) => {
    expect(jargonIn(line)).toEqual(expected);
  });

  it.each([
    'a known bug upstream: [opencost #883](https://github.com/opencost/opencost/issues/883)',
    'as opencost #883 and ClickHouse #45678 describe',
    'fixed upstream in chdb-io/chdb#12',
    '[why](../bench/results/HISTORY.md#host-m-the-scans-series-as-arrays-issue-32-2026-11-28)',
    'tracked at https://github.com/example/project/issues/34 and <https://example.com/#12>',
    'the service issues a new cursor; a cursor the list did not issue',
    'Stop the server, or stop 2 replicas of 4 and wait; the API stops 30 s later',
    "the host's CPU, the hosts of system.clusters, on the 2-core reference machine",
    'RFC 6749 §4.1.2.1, a zero&#8203;width space, migration 0027, the #1 cost driver',
  ])('leaves %j alone', (line) => {
    expect(jargonIn(line)).toEqual([]);
  });
});
