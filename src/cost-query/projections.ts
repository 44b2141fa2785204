/**
 * The aggregate projections of cost_line_items the cost questions read (migrations 0005, 0006, 0015, 0027), by grain and by the maps they
 * keep: none (dimensions only), the full tag and cost-category maps, or the activated ones. Written once: the
 * statements that name a projection and the activation back-fill read them from here, and a test checks the
 * migrations define exactly these.
 */
export const AGGREGATE_PROJECTIONS = {
  daily: { dimensions: 'daily_dimension_sums', fullMaps: 'daily_tag_sums', activatedMaps: 'daily_activated_tag_sums' },
  monthly: { dimensions: 'monthly_dimension_sums', fullMaps: 'monthly_tag_sums', activatedMaps: 'monthly_activated_tag_sums' },
} as const;

export const ACTIVATED_PROJECTIONS = [AGGREGATE_PROJECTIONS.daily.activatedMaps, AGGREGATE_PROJECTIONS.monthly.activatedMaps];

/**
 * The commitments' aggregate projections (migration 0037), by grain: usage and commitment rows by the commitment
 * columns /commitments computes its figures from (commitments.query.ts), and of the list fields only those, so that
 * they stay far smaller than the rows; a question on another field reads the line items.
 */
export const COMMITMENT_PROJECTIONS = { daily: 'daily_commitment_sums', monthly: 'monthly_commitment_sums' } as const;

/** The list fields' columns the commitments' projections keep (the migration's keys; one-definition.spec.ts checks them). */
export const COMMITMENT_PROJECTION_LIST_COLUMNS = ['billing_period', 'billing_currency', 'cloud', 'service', 'account_id'];

/**
 * The projections of a build of category sums (migration 0038, category-sums.query.ts): by day and by month with only
 * the dates, the currencies and the categories, and by month with every column.
 */
export const CATEGORY_SUM_PROJECTIONS = {
  daily: 'daily_category_sums',
  monthly: 'monthly_category_sums',
  monthlyWithColumns: 'monthly_category_dimension_sums',
} as const;
