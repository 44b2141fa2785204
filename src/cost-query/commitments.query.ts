import { bucketStartSql, DateGrouping } from './date-bucketing';
import { ANSWER_SCALE, CurrencyConversion, MoneySql } from './currency-conversion';
import { compileWhere } from './filter-compiler';
import type { DateRange, Filters, OrganizationScope } from './filters.types';
import { withCommitmentProjectionPreference } from './projection-preference';
import { CompiledSql, SqlParameters } from './sql-parameters';

/**
 * Commitment discounts (rate optimisation, FOCUS): what each commitment used and left unused, what its usage would
 * have cost on demand, and how much of the eligible usage commitments covered, from the commitment columns every
 * import keeps (migration 0031).
 */
export interface CommitmentsQuery {
  /** The organisation and the key's data scope. */
  scope: OrganizationScope;
  /** The request's filters, the window among them (filters.inclusions.dateRange). */
  filters: Filters;
  window: DateRange;
  /** A series per bucket as well; none: the window's figures only. */
  dateGrouping?: DateGrouping;
  /**
   * The services whose usage commitments could cover (coverage's denominator), for rows without program eligibility;
   * none: those on which a commitment discount applied in the window, found by the same statement.
   */
  eligibleServices?: readonly string[];
  conversion?: CurrencyConversion;
}

/** The most services a request may name as eligible (`eligibleServices`). */
export const MAX_ELIGIBLE_SERVICES = 1_000;

/** Places of the rates (utilisation, coverage, effective savings rate, a quantity's utilisation). */
export const RATE_PLACES = 6;

/** A group's figures, in the answer's order (CommitmentFiguresDto): money as exact decimals, rates as fractions. */
export const COMMITMENT_FIGURES = [
  'used_cost',
  'unused_cost',
  'utilization',
  'coverage',
  'on_demand_equivalent',
  'savings',
  'effective_savings_rate',
] as const;

export type CommitmentFigures = Record<(typeof COMMITMENT_FIGURES)[number], number | null>;

/**
 * A line of the answer's head: the total (and per bucket), and the `service` and `program_type` rows, whose `applied`
 * tells whether a commitment discount applied there (eligibility); with the group's figures (coverage: totals only).
 */
export interface CommitmentHeadLine extends CommitmentFigures {
  kind: 'total' | 'total_bucket' | 'service' | 'program_type';
  /** The bucket's first day (`total_bucket`). */
  bucket_date: string;
  service: string;
  /** The `program_type` row's commitment discount type. */
  type: string;
  /** 1 where a commitment discount covered usage in the group (status Used, charge category Usage), else 0. */
  applied: number;
}

/** The statement's result read: its head lines, and the commitments as the inside of a JSON array (the API's bytes). */
export interface CommitmentsResult {
  heads: CommitmentHeadLine[];
  commitments: Buffer[];
}

const COMMITMENT_KEYS = ['commitment_discount_id', 'name', 'type', 'category', 'provider', 'billing_account_id'];

/**
 * The columns the commitments' figures are computed from, beside the bucket: the line items are first summed by these
 * (the commitments' aggregate projections answer that), and the figures' conditions run on those groups.
 */
export const COMMITMENT_GROUPED_COLUMNS = [
  'commitment_discount_id',
  'commitment_discount_name',
  'commitment_discount_type',
  'commitment_discount_category',
  'commitment_discount_status',
  'commitment_discount_unit',
  'commitment_program_eligibility',
  'charge_category',
  'service',
  'cloud',
  'billing_account_id',
];

/**
 * One statement, one read: the rows with a commitment or of usage, summed by COMMITMENT_GROUPED_COLUMNS (money in the
 * answer's currency), then per commitment discount and in total (and per bucket of a date grouping): used and unused
 * cost (EffectiveCost of rows of status Used and Unused), the used usage's on-demand equivalent (its list cost), and
 * coverage's numerator and denominator (list cost of usage not of an unused commitment, eligible, covered by a
 * commitment or all of it). Eligibility is found over the same groups (window functions): the services on which a
 * commitment applied (unless named), and for rows with FOCUS 1.4 program eligibility the commitment discount types
 * that applied; the `service` and `program_type` sets tell the answer which.
 *
 * ClickHouse computes every figure exactly and writes the answer's lines (TabSeparatedRaw, one per row):
 *
 *     {"kind":"total",…,"used_cost":…}      the head: totals, per bucket, services and program types (parsed)
 *     ,{"commitment_discount_id":…}          each commitment as the answer's JSON, its series in it, largest first
 *
 * so the API copies the commitments' bytes into its answer without parsing or re-serializing thousands of them.
 */
export function buildCommitmentsQuery(table: string, query: CommitmentsQuery): CompiledSql {
  const params = new SqlParameters();
  const money = new MoneySql(query.conversion, params);
  const where = compileWhere(query.scope, query.filters, params, windowOptions(query.window));
  const sums = groupSumsSql(commitmentGroupsSql(table, query, money, where, params), money, Boolean(query.dateGrouping));
  const sql = answerLinesSql(figuresSql(sums), Boolean(query.dateGrouping));
  return { sql: withCommitmentProjectionPreference(sql), params: params.toObject() };
}

/** The grouping sets' sums (Decimal, the answer's currency): per commitment, in total, per bucket, service and type. */
function groupSumsSql(groups: string, money: MoneySql, withBuckets: boolean): string {
  const sums: [string, string, string][] = [
    ['sum_used', 'amortized', "status = 'used'"],
    ['sum_unused', 'amortized', "status = 'unused'"],
    ['sum_on_demand', 'on_demand', "status = 'used'"],
    ['sum_covered', 'on_demand', "eligible AND commitment_discount_id != ''"],
    ['sum_eligible', 'on_demand', 'eligible'],
  ];
  const { sets, kind } = groupingSets(withBuckets);
  return [
    `SELECT ${kind} AS kind, ${withBuckets ? 'bucket' : 'toDate(0)'} AS bucket_start, ${COMMITMENT_KEYS.join(', ')}, service,`,
    '  toUInt8(max(applied)) AS group_applied,',
    `  ${sums.map(([name, column, condition]) => `${money.total(`sumIf(${column}, ${condition})`)} AS ${name}`).join(',\n  ')},`,
    // Quantities are no money: summed as they are, in the commitment's unit.
    "  sumIf(quantity, status = 'used') AS sum_used_quantity, sumIf(quantity, status = 'unused') AS sum_unused_quantity,",
    "  anyIf(unit, unit != '') AS group_unit",
    `FROM (\n${groups}\n)`,
    `GROUP BY GROUPING SETS (${sets.map((set) => `(${set.join(', ')})`).join(', ')})`,
  ].join('\n');
}

/**
 * Each group's figures as JSON members (COMMITMENT_FIGURES: coverage in the totals only, else null), a usage-category
 * commitment's quantities, and its cost (the commitments' order).
 */
function figuresSql(sums: string): string {
  const totals = "kind IN ('total', 'total_bucket')";
  const savings = 'sum_on_demand - sum_used - sum_unused';
  const figures: Record<(typeof COMMITMENT_FIGURES)[number], string> = {
    used_cost: 'toString(sum_used)',
    unused_cost: 'toString(sum_unused)',
    utilization: `toString(${rateSql('sum_used', 'sum_used + sum_unused')})`,
    coverage: `if(${totals}, toString(${rateSql('sum_covered', 'sum_eligible')}), 'null')`,
    on_demand_equivalent: 'toString(sum_on_demand)',
    savings: `toString(${savings})`,
    effective_savings_rate: `toString(${rateSql(savings, 'sum_on_demand')})`,
  };
  const quantities = jsonObjectSql([
    ['unit', 'toJSONString(group_unit)'],
    ['used', 'toString(sum_used_quantity)'],
    ['unused', 'toString(sum_unused_quantity)'],
    ['utilization', `toString(${rateSql('sum_used_quantity', 'sum_used_quantity + sum_unused_quantity')})`],
  ]);
  return [
    `SELECT kind, bucket_start, ${COMMITMENT_KEYS.join(', ')}, service, group_applied, sum_used + sum_unused AS cost,`,
    `  ${jsonMembersSql(COMMITMENT_FIGURES.map((name) => [name, figures[name]]))} AS figures,`,
    `  if(lower(category) = 'usage' AND group_unit != '', concat(',"quantities":', ${quantities}), '') AS quantities`,
    `FROM (\n${sums}\n)`,
  ].join('\n');
}

/**
 * The answer's lines: a commitment becomes one JSON object after a comma (with a date grouping its buckets' rows
 * gathered into its series, by date), the largest cost first (then by its keys); every other row a head line, before
 * them.
 */
function answerLinesSql(figures: string, withBuckets: boolean): string {
  // Without buckets a commitment is one row; with them its rows are grouped, its own figures picked from them.
  const own = (column: string) => (withBuckets ? `anyIf(${column}, kind = 'commitment')` : column);
  const one = (column: string) => (withBuckets ? `any(${column})` : column);
  const bucketLine = `concat('{"date":"', toString(bucket_start), '",', figures, '}')`;
  const series = withBuckets
    ? `, concat(',"series":[', arrayStringConcat(arrayMap(b -> b.2, arraySort(groupArrayIf((bucket_start, ${bucketLine}), kind = 'commitment_bucket'))), ','), ']')`
    : '';
  const commitment = `concat(',{', ${jsonMembersSql(COMMITMENT_KEYS.map((key) => [key, `toJSONString(${key})`]))}, ',', ${own('figures')}, ${own('quantities')}${series}, '}')`;
  const head = jsonObjectSql([
    ['kind', 'toJSONString(head_kind)'],
    ['bucket_date', 'toJSONString(toString(head_bucket))'],
    ['service', 'toJSONString(service)'],
    ['type', 'toJSONString(type)'],
    ['applied', `toString(${one('group_applied')})`],
    ['', one('figures')],
  ]);
  return [
    `SELECT if(of_commitment, ${commitment}, ${head}) AS line`,
    'FROM (',
    "  SELECT *, kind IN ('commitment', 'commitment_bucket') AS of_commitment,",
    "         if(of_commitment, '', kind) AS head_kind, if(of_commitment, toDate(0), bucket_start) AS head_bucket",
    `  FROM (\n${figures}\n  )`,
    "  WHERE NOT (of_commitment AND commitment_discount_id = '')",
    ')',
    ...(withBuckets ? [`GROUP BY of_commitment, head_kind, head_bucket, ${COMMITMENT_KEYS.join(', ')}, service`] : []),
    `ORDER BY of_commitment, head_kind, head_bucket, if(of_commitment, '', type), service, ${own('cost')} DESC, ${COMMITMENT_KEYS.join(', ')}`,
  ].join('\n');
}

/**
 * `part / whole` rounded half away from zero to RATE_PLACES (0 when `whole` is 0), exactly: the quotient cut toward
 * zero at the stored amounts' places first, where the digit past RATE_PLACES is exact, so the rounding is the true one.
 */
function rateSql(part: string, whole: string): string {
  const decimal = (value: string) => `toDecimal256(${value}, ${ANSWER_SCALE})`;
  // The divisor is never 0, even where `if` is not short-circuited (a filter merged into the expression).
  return `if(${whole} = 0, ${decimal('0')}, round(${decimal(part)} / ${decimal(`if(${whole} = 0, 1, ${whole})`)}, ${RATE_PLACES}))`;
}

/** JSON object members `"name":value` (each value SQL giving its JSON text; a member without a name: members already). */
function jsonMembersSql(members: [string, string][]): string {
  const parts = members.flatMap(([name, value], i) => [`'${i ? ',' : ''}${name ? `"${name}":` : ''}'`, value]);
  return `concat(${parts.join(', ')})`;
}

/** A JSON object of members as jsonMembersSql's. */
function jsonObjectSql(members: [string, string][]): string {
  return `concat('{', ${jsonMembersSql(members)}, '}')`;
}

/**
 * The line items summed by COMMITMENT_GROUPED_COLUMNS (per bucket, money in the answer's currency), each group with
 * its status, whether a commitment applied on it, and whether it is eligible usage: eligibility found over all the
 * groups (window functions) unless the services are named.
 */
function commitmentGroupsSql(table: string, query: CommitmentsQuery, money: MoneySql, where: string, params: SqlParameters): string {
  const bucket = query.dateGrouping ? bucketStartSql(query.dateGrouping) : 'toDate(0)';
  const groupedSums = money.select((branch, and) =>
    [
      `    SELECT ${bucket} AS bucket, ${COMMITMENT_GROUPED_COLUMNS.join(', ')},`,
      `           ${branch
        .sums(['amortized_cost', 'on_demand_cost'])
        .map((sum, i) => `${sum} AS ${['amortized', 'on_demand'][i]}`)
        .join(', ')},`,
      '           sum(commitment_discount_quantity) AS quantity',
      `    FROM ${table}`,
      `    WHERE ${and(where)}`,
      `      AND (commitment_discount_id != '' OR charge_category = 'Usage')`,
      `    GROUP BY ${['bucket', ...COMMITMENT_GROUPED_COLUMNS, ...branch.groupKeys].join(', ')}`,
    ].join('\n'),
  );
  const eligibleService = query.eligibleServices
    ? `service IN ${params.add('Array(String)', [...query.eligibleServices])}`
    : 'max(applied) OVER (PARTITION BY service) = 1';
  const programs = "JSONExtractArrayRaw(commitment_program_eligibility, 'CommitmentPrograms')";
  // FOCUS 1.4 eligibility, where a row carries it, decides; other rows are eligible by their service.
  const eligibleRow = `if(commitment_program_eligibility != '', commitment_discount_id != '' OR arrayExists(p -> has(applied_types, JSONExtractString(p, 'ProgramType')), ${programs}), ${eligibleService})`;
  return [
    '  SELECT bucket, commitment_discount_id, commitment_discount_name AS name, commitment_discount_type AS type,',
    '         commitment_discount_category AS category, cloud AS provider, billing_account_id, service,',
    '         commitment_discount_unit AS unit, amortized, on_demand, quantity,',
    '         lower(commitment_discount_status) AS status,',
    "         commitment_discount_id != '' AND charge_category = 'Usage' AND status = 'used' AS applied,",
    "         groupUniqArrayIf(type, applied AND type != '') OVER () AS applied_types,",
    `         charge_category = 'Usage' AND status != 'unused' AND ${eligibleRow} AS eligible`,
    `  FROM (\n${groupedSums}\n  )`,
  ].join('\n');
}

/**
 * The grouping sets and each row's kind: the totals and the commitments (per bucket too with a date grouping), the
 * services and the commitment discount types (eligibility).
 */
function groupingSets(withBuckets: boolean): { sets: string[][]; kind: string } {
  const eligibility = [['service'], ['type']];
  const eligibilityKind = "grouping(service) = 0, 'service', grouping(commitment_discount_id) = 1 AND grouping(type) = 0, 'program_type'";
  if (!withBuckets)
    return {
      sets: [[], COMMITMENT_KEYS, ...eligibility],
      kind: `multiIf(${eligibilityKind}, grouping(commitment_discount_id) = 1, 'total', 'commitment')`,
    };
  return {
    sets: [[], COMMITMENT_KEYS, ['bucket'], ['bucket', ...COMMITMENT_KEYS], ...eligibility],
    kind: `multiIf(${eligibilityKind}, grouping(bucket) = 1 AND grouping(commitment_discount_id) = 1, 'total', grouping(bucket) = 1, 'commitment', grouping(commitment_discount_id) = 1, 'total_bucket', 'commitment_bucket')`,
  };
}

/** The statement's lines: the head's parsed, the commitments' bytes kept (the inside of a JSON array). */
export function readCommitmentsResult(chunks: Buffer[]): CommitmentsResult {
  const bytes = Buffer.concat(chunks);
  const itemsAt = firstCommitmentAt(bytes);
  const heads = bytes
    .subarray(0, itemsAt)
    .toString('utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as CommitmentHeadLine);
  // Past the first commitment's comma: `{…}\n,{…}\n`, newlines being JSON whitespace.
  return { heads, commitments: itemsAt < bytes.length ? [bytes.subarray(itemsAt + 1)] : [] };
}

/** Where the first commitment's line starts (its comma), or the end: none. */
function firstCommitmentAt(bytes: Buffer): number {
  if (bytes[0] === COMMA) return 0;
  const newline = bytes.indexOf('\n,');
  return newline < 0 ? bytes.length : newline + 1;
}

const COMMA = 0x2c;

/** The window is the request's dateRange (always given here): no default window applies. */
function windowOptions(window: DateRange) {
  return { today: window.end, defaultWindowDays: 1 };
}
