/**
 * FOCUS 1.0–1.3 → cost_line_items: the ONE place where the mapping lives (docs/focus-mapping.md
 * explains every decision). Everything here produces SQL; values reach it only as query parameters.
 *
 * Pipeline: each export file is read once, by ClickHouse, as FOCUS_SOURCE_STRUCTURE (every FOCUS column the
 * mapping reads as Nullable(String); a column the file does not have reads NULL) with each row's number, and
 * goes through one SELECT (focusSelectSql) in three layers:
 *   1. normalise: trim, '' → NULL (`v_<Column>`);
 *   2. type: decimals, UTC timestamps, provider and scope flags (`m_`, `t_`, `p_` prefixes);
 *   3. the cost_line_items columns, and beside them what validation and reconciliation need (`r_` prefix).
 * The importer inserts that SELECT into a Null-engine table whose two materialized views split it: the cost
 * columns into the import's staging table, the `r_` columns aggregated per block into a small report
 * (reportBlockSql, reportTotalsSql). One read of the file, no intermediate table.
 * Aliases never reuse a column name (a ClickHouse alias would shadow the column in other expressions).
 */
import { MEASURE_COLUMNS, MeasureColumn } from '../cost-query/metrics';
import { COST_ROW_BLOCK_SETTINGS, IMPORT_STATEMENT_SETTINGS } from '../store/statement-text';

/** Every FOCUS column the mapping reads, under each version's name, plus vendor x_ columns. */
export const FOCUS_STAGING_COLUMNS = [
  'BilledCost',
  'EffectiveCost',
  'ListCost',
  'ContractedCost',
  'BillingCurrency',
  'BillingPeriodStart',
  'ChargePeriodStart',
  'ChargeCategory',
  'ChargeClass',
  'ChargeDescription',
  'BillingAccountId',
  'BillingAccountName',
  'SubAccountId',
  'SubAccountName',
  // ≤1.2 ProviderName/PublisherName; 1.3 ServiceProviderName/HostProviderName.
  'ProviderName',
  'PublisherName',
  'ServiceProviderName',
  'HostProviderName',
  'InvoiceIssuerName',
  'InvoiceId',
  'ServiceName',
  'ServiceCategory',
  'RegionId',
  'RegionName',
  'PricingCategory',
  'CommitmentDiscountId',
  'CommitmentDiscountName',
  'CommitmentDiscountType',
  'CommitmentDiscountCategory',
  'CommitmentDiscountStatus',
  'CommitmentDiscountQuantity',
  'CommitmentDiscountUnit',
  'CapacityReservationId',
  'CapacityReservationStatus',
  // FOCUS 1.3: the contract commitments a charge drew down (a JSON object).
  'ContractApplied',
  'SkuMeter',
  'SkuPriceDetails',
  'Tags',
  // FOCUS 1.3: a provider's split of a shared charge (absent before: read as NULL).
  'AllocatedMethodId',
  'AllocatedMethodDetails',
  'AllocatedResourceId',
  'AllocatedResourceName',
  'ResourceId',
  'CommitmentProgramEligibilityDetails',
  'AllocatedTags',
  'x_UsageType',
  'x_SkuMeterName',
  'x_CostCategories',
  'x_Discounts',
  'x_PartnerCreditApplied',
  'x_PartnerCreditRate',
] as const;
export type FocusStagingColumn = (typeof FOCUS_STAGING_COLUMNS)[number];

/**
 * Required columns; an inner list means "any one of these names" (the same column across versions).
 * A file without them is not a FOCUS cost export and is refused before anything is loaded.
 */
export const FOCUS_REQUIRED_COLUMNS: readonly (readonly FocusStagingColumn[])[] = [
  ['BilledCost'],
  ['EffectiveCost'],
  ['ListCost'],
  ['ChargeCategory'],
  ['ChargePeriodStart'],
  ['BillingPeriodStart'],
  ['BillingAccountId'],
  ['ServiceName'],
  ['ProviderName', 'ServiceProviderName', 'HostProviderName'],
  // Mandatory in every FOCUS version: without it no amount could be told from another currency's.
  ['BillingCurrency'],
];

/** Names of required columns missing from a file's header (alternatives joined with " or "). */
export function missingRequiredColumns(present: Iterable<string>): string[] {
  const names = new Set(present);
  return FOCUS_REQUIRED_COLUMNS.filter((alternatives) => !alternatives.some((c) => names.has(c))).map((alternatives) =>
    alternatives.join(' or '),
  );
}

/** How an export file is read: the FOCUS columns as text (absent ones NULL). */
export const FOCUS_SOURCE_STRUCTURE = FOCUS_STAGING_COLUMNS.map((column) => `${column} Nullable(String)`).join(', ');

/** One export file as the FROM of focusSelectSql: a table function over it, and the expression of each row's 0-based number. */
export interface FocusSource {
  from: string;
  rowNumber: string;
}

/**
 * Settings for parsing an export: both null encodings of real exports (an unquoted NULL token, and '' which
 * layer 1 turns into NULL), columns matched by header name, unknown columns skipped, absent ones NULL,
 * timestamps rendered in UTC when a typed Parquet column is converted to String. An import is an operator command:
 * the API's per-query time budget does not apply.
 */
export const FOCUS_INPUT_SETTINGS = {
  input_format_with_names_use_header: 1,
  input_format_skip_unknown_fields: 1,
  input_format_defaults_for_omitted_fields: 1,
  format_csv_null_representation: 'NULL',
  input_format_csv_empty_as_default: 0,
  input_format_parquet_allow_missing_columns: 1,
  session_timezone: 'UTC',
  max_execution_time: 0,
} as const;

/**
 * What keeps an import's memory bounded whatever the file's size (measured, docs/operations.md): the Parquet
 * reader decodes ahead of the insert only up to 64 MiB (its default, 4 GiB, is what made a 3M-row file exceed
 * 2 GiB), insert blocks as every write of cost rows cuts them, and the two views of the input table run in
 * parallel, a thread each (otherwise one core does both).
 */
export const IMPORT_MEMORY_SETTINGS = {
  input_format_parquet_memory_high_watermark: 64 * 1024 * 1024,
  ...COST_ROW_BLOCK_SETTINGS,
  max_insert_threads: 2,
  parallel_view_processing: 1,
  max_partitions_per_insert_block: 0,
} as const;

// ---------------------------------------------------------------- layer 1: normalise

const v = (column: FocusStagingColumn) => `v_${column}`;

function normaliseLayerSql(source: FocusSource): string {
  const columns = FOCUS_STAGING_COLUMNS.map((c) => `nullIf(trimBoth(ifNull(${c}, '')), '') AS ${v(c)}`);
  return `SELECT\n    ${columns.join(',\n    ')},\n    ${source.rowNumber} AS v_row\n  FROM ${source.from}`;
}

// ---------------------------------------------------------------- layer 2: type

const ZERO = `toDecimal128(0, 10)`;
/** Decimal text → Decimal(38,10) (digits beyond 10 places truncated), NULL when absent or unparsable. */
const decimalOrNull = (sql: string) => `toDecimal128OrNull(${sql}, 10)`;
const timestampOrNull = (sql: string) => `parseDateTime64BestEffortOrNull(${sql}, 3, 'UTC')`;

/** Sum of the AWS x_Discounts entries with these keys (negative amounts), as a positive saving. */
function discountSaving(keys: string[]): string {
  const terms = keys.map((k) => `toDecimal128OrZero(JSONExtractRaw(ifNull(${v('x_Discounts')}, '{}'), '${k}'), 10)`);
  return `-(${terms.join(' + ')})`;
}

/**
 * Azure CSP partner earned credit (x_PartnerCreditApplied, x_PartnerCreditRate): the price paid is the
 * credit-reduced one, so the credit is contracted × rate ÷ (1 − rate), carved out of the negotiated-rate
 * gap it lives in: capped at list − contracted − product discounts (never negative), so the six savings
 * sources still add up to list − effective. 0 without the columns, when not applied, or at rate ∉ (0, 1).
 */
const AZURE_PARTNER_CREDIT_SQL = `if(
      lower(ifNull(${v('x_PartnerCreditApplied')}, '')) IN ('true', '1', 'yes')
        AND ifNull(toDecimal128OrNull(${v('x_PartnerCreditRate')}, 10), ${ZERO}) > 0
        AND ifNull(toDecimal128OrNull(${v('x_PartnerCreditRate')}, 10), ${ZERO}) < 1,
      greatest(${ZERO}, least(
        m_list - m_contracted - (${discountSaving(['bundled_discount', 'private_rate_discount'])}),
        toDecimal128(m_contracted * toDecimal128OrNull(${v('x_PartnerCreditRate')}, 10) / (1 - toDecimal128OrNull(${v('x_PartnerCreditRate')}, 10)), 10))),
      ${ZERO})`;

function typedLayerSql(source: FocusSource): string {
  // The cloud: ≤1.2 ProviderName; 1.3 HostProviderName (the cloud hosting a marketplace product), else ServiceProviderName.
  const provider = `coalesce(${v('ProviderName')}, ${v('HostProviderName')}, ${v('ServiceProviderName')})`;
  const columns = [
    `${decimalOrNull(v('BilledCost'))} AS m_billed_or_null`,
    `${decimalOrNull(v('EffectiveCost'))} AS m_effective_or_null`,
    `${decimalOrNull(v('ListCost'))} AS m_list_or_null`,
    `${decimalOrNull(v('ContractedCost'))} AS m_contracted_or_null`,
    `ifNull(m_billed_or_null, ${ZERO}) AS m_billed`,
    `ifNull(m_effective_or_null, ${ZERO}) AS m_effective`,
    // No list price: the charge is valued at what was paid (no saving is invented).
    `ifNull(m_list_or_null, m_effective) AS m_list`,
    // No negotiated price: contracted = list (all of the saving then goes to commitment/spot/other).
    `ifNull(m_contracted_or_null, m_list) AS m_contracted`,
    `${timestampOrNull(v('ChargePeriodStart'))} AS t_charge_start`,
    `${timestampOrNull(v('BillingPeriodStart'))} AS t_billing_start`,
    `${provider} AS p_provider`,
    `${CLOUD_NAMES_SQL} AS p_cloud`,
    `lower(ifNull(${v('ChargeCategory')}, '')) AS p_category`,
    // Scope U: usage that consumed resources. Unused commitment and purchases carry no on-demand equivalent.
    `p_category = 'usage' AND lower(ifNull(${v('CommitmentDiscountStatus')}, '')) != 'unused' AS p_usage_scope`,
    `${v('CommitmentDiscountId')} IS NOT NULL OR lower(ifNull(${v('CommitmentDiscountStatus')}, '')) = 'used' AS p_committed`,
    `lower(ifNull(${v('PricingCategory')}, '')) = 'dynamic' OR ifNull(${v('x_UsageType')}, '') ILIKE '%SpotUsage%' AS p_spot`,
    `${discountSaving(['bundled_discount', 'private_rate_discount'])} AS m_product_discount`,
    `${discountSaving(['spp_discount'])} + ${AZURE_PARTNER_CREDIT_SQL} AS m_partner_discount`,
  ];
  return `SELECT *,\n    ${columns.join(',\n    ')}\n  FROM (${normaliseLayerSql(source)})`;
}

// ---------------------------------------------------------------- layer 3: cost_line_items

/** Provider names → the API's cloud names (the same names the demo estate uses). */
export const CLOUD_NAMES_SQL = `multiIf(
      lower(p_provider) IN ('aws', 'amazon web services', 'amazon'), 'AWS',
      lower(p_provider) IN ('microsoft', 'azure', 'microsoft azure'), 'Azure',
      lower(p_provider) IN ('google', 'google cloud', 'gcp', 'google cloud platform'), 'GCP',
      lower(p_provider) IN ('oracle', 'oci', 'oracle cloud infrastructure'), 'Oracle',
      ifNull(p_provider, ''))`;

/**
 * Cost layer rule, first match wins:
 *   Marketplace     publisher ≠ invoice issuer (≤1.2), or service provider ≠ host provider (1.3);
 *   Shared          tax, support, and the Management and Governance / Security / Identity categories;
 *   Infrastructure  Compute, Storage, Networking, Databases;
 *   Platform        everything else (analytics, AI, integration, developer tools, other).
 */
export const COST_LAYER_SQL = `multiIf(
      (${v('PublisherName')} IS NOT NULL AND ${v('InvoiceIssuerName')} IS NOT NULL AND ${v('PublisherName')} != ${v('InvoiceIssuerName')})
        OR (${v('ServiceProviderName')} IS NOT NULL AND ${v('HostProviderName')} IS NOT NULL AND ${v('ServiceProviderName')} != ${v('HostProviderName')}), 'Marketplace',
      p_category = 'tax' OR ifNull(${v('ServiceName')}, '') ILIKE '%support%'
        OR ${v('ServiceCategory')} IN ('Management and Governance', 'Security', 'Identity'), 'Shared',
      ${v('ServiceCategory')} IN ('Compute', 'Storage', 'Networking', 'Databases'), 'Infrastructure',
      'Platform')`;

/** FOCUS ChargeCategory, with usage split by commitment status and corrections marked. */
export const COST_TYPE_SQL = `concat(multiIf(
      p_category = 'usage' AND lower(ifNull(${v('CommitmentDiscountStatus')}, '')) = 'unused', 'Unused Commitment',
      p_category = 'usage' AND p_committed, 'Committed Usage',
      p_category = 'usage' AND p_spot, 'Spot Usage',
      ifNull(${v('ChargeCategory')}, '')),
    if(lower(ifNull(${v('ChargeClass')}, '')) = 'correction', ' (Correction)', ''))`;

/** AWS instance size: the size-looking token of x_UsageType (BoxUsage:m5.large) or of the charge description. */
const INSTANCE_TYPE_PATTERN = `\\\\b([a-z][a-z0-9-]*[0-9][a-z0-9-]*\\\\.(?:nano|micro|small|medium|large|metal|[0-9]*xlarge)[a-z0-9-]*)\\\\b`;
const skuInstanceType = `JSONExtractString(ifNull(${v('SkuPriceDetails')}, '{}'), 'InstanceType')`;
// On each block's distinct values (toLowCardinality): the same results, the regex run once per value, not per row.
const usageTypeInstanceType = `extract(toLowCardinality(ifNull(${v('x_UsageType')}, '')), '${INSTANCE_TYPE_PATTERN}')`;
// multiIf, not coalesce: it evaluates a regex only for the rows that reach it (coalesce evaluates every argument).
export const INSTANCE_TYPE_SQL = `multiIf(
      ${skuInstanceType} != '', ${skuInstanceType},
      ${usageTypeInstanceType} != '', ${usageTypeInstanceType},
      p_cloud = 'AWS' AND ${v('ChargeDescription')} IS NOT NULL, extract(toLowCardinality(${v('ChargeDescription')}), '${INSTANCE_TYPE_PATTERN}'),
      '')`;

/**
 * The JSON columns the mapping reads as maps: jsonObjectToMapSql takes only these, so their check (jsonObjectCheck)
 * can look at the map the mapping computes anyway.
 */
const MAPPED_JSON_COLUMNS = ['Tags', 'AllocatedTags', 'x_CostCategories'] as const satisfies readonly FocusStagingColumn[];
type MappedJsonColumn = (typeof MAPPED_JSON_COLUMNS)[number];
const isMappedJsonColumn = (column: FocusStagingColumn): column is MappedJsonColumn =>
  (MAPPED_JSON_COLUMNS as readonly FocusStagingColumn[]).includes(column);

/** JSON object text → Map(String, String): keys trimmed, empty keys dropped, values as text (`true`, `5`). */
export function jsonObjectToMapSql(column: MappedJsonColumn): string {
  return `mapFilter((k, x) -> k != '', mapApply((k, x) -> (trimBoth(k), x), ${jsonMapSql(column)}))`;
}

/** The column's JSON read as a map, once per row for the mapping and its check alike (one expression, computed once). */
const jsonMapSql = (column: FocusStagingColumn) => `JSONExtract(ifNull(${v(column)}, '{}'), 'Map(String, String)')`;

/**
 * The SELECT that maps one export file (focusSelectSql's source) to the cost_line_items columns (COST_COLUMNS, in
 * table order), followed by the `r_` columns of its report: the row number, per value check whether the row fails it
 * and the value checked, per required column whether the row has a value, the list cost and the currency.
 * Parameters: {organization_id:UUID}, {integration_id:String} ('' = derive from provider + billing account),
 * {currency_codes:Array(String)} (the ISO 4217 codes a BillingCurrency may be).
 * A row that fails a check is still mapped (the import is then refused whole): its dates get a placeholder
 * instead of failing the statement.
 */
export function focusSelectSql(source: FocusSource): string {
  const columns = [
    `{organization_id:UUID} AS organization_id`,
    `ifNull(toDate(t_charge_start), toDate(0)) AS usage_date`,
    `ifNull(formatDateTime(t_billing_start, '%Y-%m'), '') AS billing_period`,
    `ifNull(${v('BillingCurrency')}, '') AS billing_currency`,
    `${COST_LAYER_SQL} AS cost_layer`,
    `p_cloud AS cloud`,
    `ifNull(${v('ServiceName')}, '') AS service`,
    `ifNull(${v('ServiceCategory')}, '') AS resource_family`,
    `coalesce(${v('RegionId')}, ${v('RegionName')}, '') AS region`,
    `${INSTANCE_TYPE_SQL} AS instance_type`,
    `coalesce(${v('x_UsageType')}, ${v('SkuMeter')}, ${v('x_SkuMeterName')}, '') AS usage_type`,
    `${COST_TYPE_SQL} AS cost_type`,
    `coalesce(${v('SubAccountId')}, ${v('BillingAccountId')}, '') AS account_id`,
    `coalesce(${v('SubAccountName')}, if(${v('SubAccountId')} IS NULL, ${v('BillingAccountName')}, NULL), '') AS account_name`,
    `if({integration_id:String} != '', {integration_id:String}, ${defaultIntegrationIdSql('p_cloud')}) AS integration_id`,
    `ifNull(${v('AllocatedMethodId')}, '') AS allocated_method_id`,
    `ifNull(${v('AllocatedMethodDetails')}, '') AS allocated_method_details`,
    `ifNull(${v('AllocatedResourceId')}, '') AS allocated_resource_id`,
    `ifNull(${v('AllocatedResourceName')}, '') AS allocated_resource_name`,
    // AllocatedTags read as tags, under the row's own Tags: a key in both keeps the row's value.
    `mapUpdate(${jsonObjectToMapSql('AllocatedTags')}, ${jsonObjectToMapSql('Tags')}) AS resource_tags`,
    `${jsonObjectToMapSql('x_CostCategories')} AS cost_categories`,
    ...COST_COLUMNS_SQL.map(([column, sql]) => `${sql} AS ${column}`),
    `ifNull(${v('BillingAccountId')}, '') AS billing_account_id`,
    `ifNull(${v('InvoiceId')}, '') AS invoice_id`,
    `ifNull(${v('InvoiceIssuerName')}, '') AS invoice_issuer`,
    `ifNull(${v('ChargeCategory')}, '') AS charge_category`,
    `ifNull(${v('ChargeClass')}, '') AS charge_class`,
    `ifNull(${v('PricingCategory')}, '') AS pricing_category`,
    `ifNull(${v('CommitmentDiscountId')}, '') AS commitment_discount_id`,
    `ifNull(${v('CommitmentDiscountName')}, '') AS commitment_discount_name`,
    `ifNull(${v('CommitmentDiscountType')}, '') AS commitment_discount_type`,
    `ifNull(${v('CommitmentDiscountCategory')}, '') AS commitment_discount_category`,
    `ifNull(${v('CommitmentDiscountStatus')}, '') AS commitment_discount_status`,
    `ifNull(${decimalOrNull(v('CommitmentDiscountQuantity'))}, ${ZERO}) AS commitment_discount_quantity`,
    `ifNull(${v('CommitmentDiscountUnit')}, '') AS commitment_discount_unit`,
    `ifNull(${v('CapacityReservationId')}, '') AS capacity_reservation_id`,
    `ifNull(${v('CapacityReservationStatus')}, '') AS capacity_reservation_status`,
    `ifNull(${v('ContractApplied')}, '') AS contract_applied`,
    `ifNull(${v('ResourceId')}, '') AS resource_id`,
    `ifNull(${v('CommitmentProgramEligibilityDetails')}, '') AS commitment_program_eligibility`,
  ];
  const report = [
    'v_row AS r_row',
    ...FOCUS_VALUE_CHECKS.flatMap((check, i) => [`toUInt8(${check.failsSql}) AS r_fails${i}`, `${v(check.column)} AS r_value${i}`]),
    ...REQUIRED_COLUMNS.map((column) => `toUInt8(${v(column)} IS NOT NULL) AS r_has_${column}`),
    `ifNull(m_list_or_null, ${ZERO}) AS r_list`,
    `ifNull(${v('BillingCurrency')}, '') AS r_currency`,
  ];
  return `SELECT
    ${[...columns, ...report].join(',\n    ')}
FROM (${typedLayerSql(source)})`;
}

/**
 * Stable default integration id: `<cloud>-<billing account>` in lower case, e.g. `aws-1234567890123`;
 * of a path-like account id (Azure `/providers/Microsoft.Billing/billingAccounts/8611537`) the last segment.
 */
export function defaultIntegrationIdSql(cloudSql: string): string {
  const account = `arrayLast(s -> s != '', splitByChar('/', ifNull(${v('BillingAccountId')}, 'unknown')))`;
  return `lower(concat(${cloudSql}, '-', replaceRegexpAll(${account}, '[^A-Za-z0-9._:-]+', '-')))`;
}

/**
 * The four costs and six savings of a FOCUS row (scope U = usage not of an unused commitment; everything else saves
 * nothing), one per measure column of the metrics table (the compiler refuses a missing or extra one).
 */
const MEASURE_SQL: Record<MeasureColumn, string> = {
  amortized_cost: 'm_effective',
  billed_cost: 'm_billed',
  // FOCUS has no payment timing: cash is what the invoice bills.
  cash_cost: 'm_billed',
  on_demand_cost: `if(p_usage_scope, m_list, ${ZERO})`,
  enterprise_discount_savings: `if(p_usage_scope, m_list - m_contracted - m_product_discount - m_partner_discount, ${ZERO})`,
  product_discount_savings: `if(p_usage_scope, m_product_discount, ${ZERO})`,
  partner_discount_savings: `if(p_usage_scope, m_partner_discount, ${ZERO})`,
  commitment_savings: `if(p_usage_scope AND p_committed, m_contracted - m_effective, ${ZERO})`,
  spot_savings: `if(p_usage_scope AND NOT p_committed AND p_spot, m_contracted - m_effective, ${ZERO})`,
  // The residual, so the six sources always add up to list − effective on usage.
  other_savings: `if(p_usage_scope AND NOT p_committed AND NOT p_spot, m_contracted - m_effective, ${ZERO})`,
};

/** The measure columns and their SQL, in the metrics table's order. */
export const COST_COLUMNS_SQL: readonly (readonly [MeasureColumn, string])[] = MEASURE_COLUMNS.map((column) => [
  column,
  MEASURE_SQL[column],
]);

/** The cost_line_items columns focusSelectSql writes, in table order (the other one, imported_at, keeps its default). */
export const COST_COLUMNS = [
  'organization_id',
  'usage_date',
  'billing_period',
  'billing_currency',
  'cost_layer',
  'cloud',
  'service',
  'resource_family',
  'region',
  'instance_type',
  'usage_type',
  'cost_type',
  'account_id',
  'account_name',
  'integration_id',
  'allocated_method_id',
  'allocated_method_details',
  'allocated_resource_id',
  'allocated_resource_name',
  'resource_tags',
  'cost_categories',
  ...COST_COLUMNS_SQL.map(([column]) => column),
  'billing_account_id',
  'invoice_id',
  'invoice_issuer',
  'charge_category',
  'charge_class',
  'pricing_category',
  'commitment_discount_id',
  'commitment_discount_name',
  'commitment_discount_type',
  'commitment_discount_category',
  'commitment_discount_status',
  'commitment_discount_quantity',
  'commitment_discount_unit',
  'capacity_reservation_id',
  'capacity_reservation_status',
  'contract_applied',
  'resource_id',
  'commitment_program_eligibility',
] as const;

// ---------------------------------------------------------------- validation and reconciliation

/** A value check on one raw file: rows where `failsSql` is true make the import fail. */
export interface FocusValueCheck {
  column: FocusStagingColumn;
  problem: string;
  failsSql: string;
}

/**
 * Plain or scientific decimal text: what both toDecimal128OrNull and toFloat64OrNull read. The first alone accepts
 * garbage such as '1.2.3' (as 1.23), which the second refuses; the second alone accepts `inf`, `nan` and hexadecimal,
 * which the first refuses. Together they refuse what `^[+-]?([0-9]+([.][0-9]*)?|[.][0-9]+)([eE][+-]?[0-9]+)?$` refuses
 * (checked on the edge cases), at a sixth of the cost of that expression on every value of a large file.
 */
const decimalCheck = (column: FocusStagingColumn): FocusValueCheck => ({
  column,
  problem: 'is not a decimal number',
  failsSql: `${v(column)} IS NOT NULL AND (toFloat64OrNull(${v(column)}) IS NULL OR ${decimalOrNull(v(column))} IS NULL)`,
});
const timestampCheck = (column: FocusStagingColumn): FocusValueCheck => ({
  column,
  problem: 'is missing or not a date-time',
  failsSql: `${timestampOrNull(v(column))} IS NULL`,
});
// JSONType is 'Object' only for valid JSON whose value is an object: one parse, where isValidJSON AND JSONType took two.
// A column the mapping reads as a map was parsed already: a value whose map has an entry is an object, so JSONType
// parses again only the rows whose map is empty (short-circuit evaluation of AND).
const jsonObjectCheck = (column: FocusStagingColumn): FocusValueCheck => ({
  column,
  problem: 'is not a JSON object',
  failsSql: isMappedJsonColumn(column)
    ? `${v(column)} IS NOT NULL AND empty(${jsonMapSql(column)}) AND JSONType(${v(column)}) != 'Object'`
    : `${v(column)} IS NOT NULL AND JSONType(${v(column)}) != 'Object'`,
});

export const FOCUS_VALUE_CHECKS: readonly FocusValueCheck[] = [
  timestampCheck('ChargePeriodStart'),
  timestampCheck('BillingPeriodStart'),
  { column: 'ChargeCategory', problem: 'is missing', failsSql: `${v('ChargeCategory')} IS NULL` },
  {
    column: 'BillingCurrency',
    problem: 'is missing or not an ISO 4217 currency code',
    failsSql: `${v('BillingCurrency')} IS NULL OR NOT has({currency_codes:Array(String)}, ${v('BillingCurrency')})`,
  },
  decimalCheck('BilledCost'),
  decimalCheck('EffectiveCost'),
  decimalCheck('ListCost'),
  decimalCheck('ContractedCost'),
  decimalCheck('CommitmentDiscountQuantity'),
  jsonObjectCheck('Tags'),
  jsonObjectCheck('AllocatedTags'),
  jsonObjectCheck('ContractApplied'),
  jsonObjectCheck('CommitmentProgramEligibilityDetails'),
  jsonObjectCheck('x_CostCategories'),
  jsonObjectCheck('x_Discounts'),
];

/** Every column named by FOCUS_REQUIRED_COLUMNS (of any version). */
const REQUIRED_COLUMNS = [...new Set(FOCUS_REQUIRED_COLUMNS.flat())];

/**
 * The report of one block of an export (the input table's second view): its rows, per value check the failing
 * rows, the first one's row number and value, per required column whether any row has a value, and the exact
 * Decimal reconciliation sums and currencies.
 */
export function reportBlockSql(inputTable: string): string {
  const checks = FOCUS_VALUE_CHECKS.flatMap((_, i) => [
    `toUInt64(countIf(r_fails${i} = 1)) AS check${i}_rows`,
    `minIf(r_row, r_fails${i} = 1) AS check${i}_first_row`,
    `argMinIf(r_value${i}, r_row, r_fails${i} = 1) AS check${i}_value`,
  ]);
  return `SELECT toUInt64(count()) AS row_count,
    ${[
      ...checks,
      ...REQUIRED_COLUMNS.map((column) => `max(r_has_${column}) AS has_${column}`),
      'sum(billed_cost) AS billed_cost',
      'sum(amortized_cost) AS effective_cost',
      'sum(r_list) AS list_cost',
      'groupUniqArray(r_currency) AS currencies',
    ].join(',\n    ')}
FROM ${inputTable}`;
}

/**
 * One file's report: its blocks' reports added up (sums as exact Decimal text), under names that are not the block
 * report's column names (an alias would shadow the column in the other aggregates).
 */
export function reportTotalsSql(reportTable: string): string {
  const checks = FOCUS_VALUE_CHECKS.flatMap((_, i) => [
    `toString(sum(check${i}_rows)) AS failing${i}`,
    `toString(minIf(check${i}_first_row, check${i}_rows > 0)) AS first_failing${i}`,
    `argMinIf(check${i}_value, check${i}_first_row, check${i}_rows > 0) AS failing_value${i}`,
  ]);
  return `SELECT toString(sum(row_count)) AS file_rows,
    ${[
      ...checks,
      ...REQUIRED_COLUMNS.map((column) => `max(has_${column}) AS present_${column}`),
      'toString(sum(billed_cost)) AS file_billed_cost',
      'toString(sum(effective_cost)) AS file_effective_cost',
      'toString(sum(list_cost)) AS file_list_cost',
      'arrayDistinct(arrayFlatten(groupArray(currencies))) AS file_currencies',
    ].join(',\n    ')}
FROM ${reportTable}`;
}

/** The required columns a file's report shows with a value in some row. */
export function reportedColumns(report: Record<string, unknown>): string[] {
  return REQUIRED_COLUMNS.filter((column) => Number(report[`present_${column}`]) === 1);
}

/** One partition of an import's staging table: its rows and exact sums. */
export interface StagedPartition {
  partition_id: string;
  integration_id: string;
  billing_period: string;
  row_count: string;
  billed_cost: string;
  effective_cost: string;
}

/** The staged rows per partition (the import units it will swap in), checked against the files' reports. */
export function stagedPartitionsSql(stagingTable: string): string {
  return `SELECT _partition_id AS partition_id, integration_id, billing_period, toString(count()) AS row_count,
       toString(sum(billed_cost)) AS billed_cost, toString(sum(amortized_cost)) AS effective_cost
FROM ${stagingTable} GROUP BY partition_id, integration_id, billing_period ORDER BY billing_period, integration_id
${IMPORT_STATEMENT_SETTINGS}`;
}
