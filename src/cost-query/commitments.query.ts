import { bucketStartSql, DateGrouping } from './date-bucketing';
import { CurrencyConversion, MoneySql } from './currency-conversion';
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

/** The sums of one group, decimal text in the answer's currency. */
export interface CommitmentSumsRow {
  /**
   * The grouping set: `total`, `commitment`, with a date grouping `total_bucket` and `commitment_bucket`; and
   * `service` and `program_type`, whose `applied` tells whether a commitment discount applied there (eligibility).
   */
  kind: 'total' | 'commitment' | 'total_bucket' | 'commitment_bucket' | 'service' | 'program_type';
  /** The bucket's first day (with a date grouping). */
  bucket_date: string;
  commitment_discount_id: string;
  name: string;
  /** The commitment discount type (of a commitment, or the `program_type` row's). */
  type: string;
  category: string;
  provider: string;
  billing_account_id: string;
  /** The `service` row's service. */
  service: string;
  /** 1 where a commitment discount covered usage in the group (status Used, charge category Usage), else 0. */
  applied: number;
  used_cost: string;
  unused_cost: string;
  /** List cost of the used commitment's usage: what it would have cost on demand. */
  on_demand_equivalent: string;
  /** List cost of eligible usage a commitment covered, and of all eligible usage. */
  covered_list: string;
  eligible_list: string;
  /** CommitmentDiscountQuantity of the rows of status Used and Unused, and the unit they are in (a commitment's). */
  used_quantity: string;
  unused_quantity: string;
  unit: string;
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
 */
export function buildCommitmentsQuery(table: string, query: CommitmentsQuery): CompiledSql {
  const params = new SqlParameters();
  const money = new MoneySql(query.conversion, params);
  const where = compileWhere(query.scope, query.filters, params, windowOptions(query.window));
  const groups = commitmentGroupsSql(table, query, money, where, params);
  const sums: [string, string, string][] = [
    ['used_cost', 'amortized', "status = 'used'"],
    ['unused_cost', 'amortized', "status = 'unused'"],
    ['on_demand_equivalent', 'on_demand', "status = 'used'"],
    ['covered_list', 'on_demand', "eligible AND commitment_discount_id != ''"],
    ['eligible_list', 'on_demand', 'eligible'],
  ];
  const { sets, kind } = groupingSets(Boolean(query.dateGrouping));
  const ordered = query.dateGrouping ? ['kind', 'bucket', ...COMMITMENT_KEYS] : ['kind', ...COMMITMENT_KEYS];
  const sql = [
    `SELECT ${kind} AS kind, ${query.dateGrouping ? 'toString(bucket)' : "''"} AS bucket_date, ${COMMITMENT_KEYS.join(', ')}, service,`,
    '  toUInt8(max(applied)) AS applied,',
    `  ${sums.map(([name, column, condition]) => `toString(${money.total(`sumIf(${column}, ${condition})`)}) AS ${name}`).join(',\n  ')},`,
    // Quantities are no money: summed as they are, in the commitment's unit.
    `  toString(sumIf(quantity, status = 'used')) AS used_quantity, toString(sumIf(quantity, status = 'unused')) AS unused_quantity,`,
    "  anyIf(unit, unit != '') AS unit",
    `FROM (\n${groups}\n)`,
    `GROUP BY GROUPING SETS (${sets.map((set) => `(${set.join(', ')})`).join(', ')})`,
    `ORDER BY ${[...ordered, 'service'].join(', ')}`,
  ].join('\n');
  return { sql: withCommitmentProjectionPreference(sql), params: params.toObject() };
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

/** The window is the request's dateRange (always given here): no default window applies. */
function windowOptions(window: DateRange) {
  return { today: window.end, defaultWindowDays: 1 };
}
