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
  /** The services whose usage commitments could cover (coverage's denominator), for rows without program eligibility. */
  eligibleServices: readonly string[];
  /**
   * The commitment discount types used in the window: a row carrying FOCUS 1.4 CommitmentProgramEligibilityDetails is
   * eligible when one of its programs is of these types (or a commitment covered it), whatever its service.
   */
  eligibleProgramTypes: readonly string[];
  conversion?: CurrencyConversion;
}

/** The most services a coverage is measured over (eligible services found or given). */
export const MAX_ELIGIBLE_SERVICES = 1_000;

/** The sums of one group, decimal text in the answer's currency. */
export interface CommitmentSumsRow {
  /** `total`, `commitment`, and with a date grouping `total_bucket`, `commitment_bucket`. */
  kind: 'total' | 'commitment' | 'total_bucket' | 'commitment_bucket';
  /** The bucket's first day (with a date grouping). */
  bucket_date: string;
  commitment_discount_id: string;
  name: string;
  type: string;
  category: string;
  provider: string;
  billing_account_id: string;
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

/** What the window's used commitments say is eligible: the services and the commitment discount types they applied on. */
export interface EligibilityRow {
  services: string[];
  program_types: string[];
}

/**
 * The services on which a commitment discount applied (usage it covered) in the window, and the commitment discount
 * types that applied, in the question's filters and data scope (each at most MAX_ELIGIBLE_SERVICES + 1: more is refused).
 */
export function buildEligibilityQuery(
  table: string,
  query: Omit<CommitmentsQuery, 'eligibleServices' | 'eligibleProgramTypes'>,
): CompiledSql {
  const params = new SqlParameters();
  const where = compileWhere(query.scope, query.filters, params, windowOptions(query.window));
  const most = MAX_ELIGIBLE_SERVICES + 1;
  // Grouped first by the two columns it lists, which the commitments' projections answer.
  const sql = [
    `SELECT arraySort(groupUniqArray(${most})(service)) AS services,`,
    `       arraySort(groupUniqArrayIf(${most})(commitment_discount_type, commitment_discount_type != '')) AS program_types`,
    'FROM (',
    '  SELECT service, commitment_discount_type, count() AS line_items',
    `  FROM ${table}`,
    `  WHERE ${where}`,
    "    AND commitment_discount_id != '' AND charge_category = 'Usage' AND lower(commitment_discount_status) = 'used'",
    '  GROUP BY service, commitment_discount_type',
    ')',
  ].join('\n');
  return { sql: withCommitmentProjectionPreference(sql), params: params.toObject() };
}

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

/** The grouped sums the figures read, by the line items' column they sum. */
const GROUPED_SUMS = { amortized: 'amortized_cost', on_demand: 'on_demand_cost', quantity: 'commitment_discount_quantity' };

/**
 * Per commitment discount and in total (and per bucket of a date grouping): used and unused cost (EffectiveCost of
 * rows of status Used and Unused), the used usage's on-demand equivalent (its list cost), and coverage's numerator
 * and denominator (list cost of usage not of an unused commitment, in the eligible services, covered by a commitment
 * or all of it), from the rows with a commitment or of usage summed by COMMITMENT_GROUPED_COLUMNS, each pre-aggregated in the
 * answer's currency.
 */
export function buildCommitmentsQuery(table: string, query: CommitmentsQuery): CompiledSql {
  const params = new SqlParameters();
  const money = new MoneySql(query.conversion, params);
  const where = compileWhere(query.scope, query.filters, params, windowOptions(query.window));
  const zero = 'toDecimal128(0, 10)';
  const status = 'lower(commitment_discount_status)';
  const services = params.add('Array(String)', [...query.eligibleServices]);
  const programs = "JSONExtractArrayRaw(commitment_program_eligibility, 'CommitmentPrograms')";
  const programEligible = `arrayExists(p -> JSONExtractString(p, 'ProgramType') IN ${params.add('Array(String)', [...query.eligibleProgramTypes])}, ${programs})`;
  // FOCUS 1.4 eligibility, where a row carries it, decides; other rows are eligible by their service.
  const eligibleRow = `if(commitment_program_eligibility != '', commitment_discount_id != '' OR ${programEligible}, service IN ${services})`;
  const eligible = `charge_category = 'Usage' AND ${status} != 'unused' AND ${eligibleRow}`;
  const sums: [string, string][] = [
    ['used_cost', `if(${status} = 'used', amortized, ${zero})`],
    ['unused_cost', `if(${status} = 'unused', amortized, ${zero})`],
    ['on_demand_equivalent', `if(${status} = 'used', on_demand, ${zero})`],
    ['covered_list', `if(${eligible} AND commitment_discount_id != '', on_demand, ${zero})`],
    ['eligible_list', `if(${eligible}, on_demand, ${zero})`],
  ];
  const quantities: [string, string][] = [
    ['used_quantity', `if(${status} = 'used', quantity, ${zero})`],
    ['unused_quantity', `if(${status} = 'unused', quantity, ${zero})`],
  ];
  const bucket = query.dateGrouping ? bucketStartSql(query.dateGrouping) : 'toDate(0)';
  const keys = ['bucket', ...COMMITMENT_KEYS];
  const parts = money.select((branch, and) => {
    const grouped = ['bucket', ...new Set([...COMMITMENT_GROUPED_COLUMNS, ...branch.groupKeys])];
    return [
      `  SELECT bucket, commitment_discount_id, commitment_discount_name AS name, commitment_discount_type AS type,`,
      '         commitment_discount_category AS category, cloud AS provider, billing_account_id,',
      `         ${branch
        .sums(sums.map(([, sql]) => sql))
        .map((sum, i) => `${sum} AS part_${sums[i][0]}`)
        .join(', ')},`,
      // Quantities are no money: summed as they are, in the commitment's unit.
      `         ${quantities.map(([name, sql]) => `sum(${sql}) AS part_${name}`).join(', ')}, commitment_discount_unit AS unit`,
      '  FROM (',
      `    SELECT ${bucket} AS bucket, ${grouped.slice(1).join(', ')},`,
      `           ${Object.entries(GROUPED_SUMS)
        .map(([name, column]) => `sum(${column}) AS ${name}`)
        .join(', ')}`,
      `    FROM ${table}`,
      `    WHERE ${and(where)}`,
      `      AND (commitment_discount_id != '' OR charge_category = 'Usage')`,
      `    GROUP BY ${grouped.join(', ')}`,
      '  )',
      `  GROUP BY ${[...keys, 'unit', ...branch.groupKeys].join(', ')}`,
    ].join('\n');
  });
  // Without a date grouping the bucket is one constant: the sets by it are the totals and the commitments.
  const sets = query.dateGrouping ? [[], COMMITMENT_KEYS, ['bucket'], keys] : [['bucket'], keys];
  const kind = query.dateGrouping
    ? `multiIf(grouping(bucket) = 1 AND grouping(commitment_discount_id) = 1, 'total', grouping(bucket) = 1, 'commitment', grouping(commitment_discount_id) = 1, 'total_bucket', 'commitment_bucket')`
    : `if(grouping(commitment_discount_id) = 1, 'total', 'commitment')`;
  const sql = [
    `SELECT ${kind} AS kind, toString(bucket) AS bucket_date, ${COMMITMENT_KEYS.join(', ')},`,
    `  ${sums.map(([name]) => `toString(${money.total(`sum(part_${name})`)}) AS ${name}`).join(',\n  ')},`,
    `  ${quantities.map(([name]) => `toString(sum(part_${name})) AS ${name}`).join(', ')}, anyIf(unit, unit != '') AS unit`,
    `FROM (\n${parts}\n)`,
    `GROUP BY GROUPING SETS (${sets.map((set) => `(${set.join(', ')})`).join(', ')})`,
    `ORDER BY kind, bucket, ${COMMITMENT_KEYS.join(', ')}`,
  ].join('\n');
  return { sql: withCommitmentProjectionPreference(sql), params: params.toObject() };
}

/** The window is the request's dateRange (always given here): no default window applies. */
function windowOptions(window: DateRange) {
  return { today: window.end, defaultWindowDays: 1 };
}
