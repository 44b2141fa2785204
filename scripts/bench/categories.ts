/**
 * Issue 56 in the bench (`--categories`): a cost category defined by 100 rules, the way an organisation writes one
 * (team tags, then services, then accounts, then an inherited tag), with 3 shared-cost splits, and the bench's tag
 * questions asked by it.
 */
import { TAG_PAIRS, TagPair } from './cases';

export const BENCH_CATEGORY = 'BusinessUnit';
const TEAMS = 40;
const SERVICES = 25;
const ACCOUNTS = 9;

/** 100 rules: 40 on a team tag, 50 on services of two clouds, 9 on accounts, then the `env` tag inherited. */
export function benchCategoryDefinition(): { defaultValue: string; rules: object[]; effectiveFrom: string; splits: object[] } {
  const pad = (n: number) => String(n).padStart(2, '0');
  const teams = Array.from({ length: TEAMS }, (_, i) => ({
    value: `BU-${i % 8}`,
    when: { inclusions: { resourceTag: 'team', resourceTagValues: [`team-${i}`] } },
  }));
  const services = ['AWS', 'Azure'].flatMap((cloud) =>
    Array.from({ length: SERVICES }, (_, s) => ({
      value: `Platform-${s % 5}`,
      when: { inclusions: { services: [`${cloud} Service ${pad(s)}`] } },
    })),
  );
  const accounts = Array.from({ length: ACCOUNTS }, (_, a) => ({
    value: 'Shared',
    when: { inclusions: { accountIds: [String(100000000000 + a)] } },
  }));
  return {
    effectiveFrom: '2025-01',
    defaultValue: 'Unallocated',
    rules: [...teams, ...services, ...accounts, { inheritTag: 'env' }],
    splits: BENCH_SPLITS,
  };
}

/**
 * 3 shared-cost splits, chained: the unallocated rest onto Shared, Shared onto the eight business units by their own
 * cost, one service's rows onto two platforms by fixed shares.
 */
const BENCH_SPLITS = [
  { source: { value: 'Unallocated' }, targets: ['Shared'], method: 'even' },
  { source: { value: 'Shared' }, targets: Array.from({ length: 8 }, (_, i) => `BU-${i}`), method: 'proportional' },
  {
    source: { filters: { inclusions: { services: ['AWS Service 24'] } } },
    targets: ['Platform-0', 'Platform-1'],
    method: 'fixed',
    percentages: [60, 40],
  },
];

/** The /data tag pairs grouping by `tag:team`, asked by the rule-defined category instead. */
export const CATEGORY_PAIRS: TagPair[] = TAG_PAIRS.filter(
  (pair) => pair.path.endsWith('/data') && JSON.stringify(pair.tag).includes('"tag:team"'),
).map((pair) => ({
  ...pair,
  name: pair.name.replace('tag:team', `costCategory:${BENCH_CATEGORY} (100 rules)`),
  tag: JSON.parse(JSON.stringify(pair.tag).replaceAll('"tag:team"', `"costCategory:${BENCH_CATEGORY}"`)) as TagPair['tag'],
}));

/** A /data answer's amortized total, to check that grouping by the category (and its splits) moved no cost in all. */
export function totalOf(answer: Buffer): string {
  return String(
    (JSON.parse(answer.toString('utf8')) as { data: { summary: { total_amortized_cost: number } } }).data.summary.total_amortized_cost,
  );
}
