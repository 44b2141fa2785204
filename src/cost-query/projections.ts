/**
 * The aggregate projections of cost_line_items (migrations 0005, 0006, 0015, 0027), by grain and by the maps they
 * keep: none (dimensions only), the full tag and cost-category maps, or the activated ones. Written once: the
 * statements that name a projection and the activation back-fill read them from here, and a test checks the
 * migrations define exactly these.
 */
export const AGGREGATE_PROJECTIONS = {
  daily: { dimensions: 'daily_dimension_sums', fullMaps: 'daily_tag_sums', activatedMaps: 'daily_activated_tag_sums' },
  monthly: { dimensions: 'monthly_dimension_sums', fullMaps: 'monthly_tag_sums', activatedMaps: 'monthly_activated_tag_sums' },
} as const;

export const ACTIVATED_PROJECTIONS = [AGGREGATE_PROJECTIONS.daily.activatedMaps, AGGREGATE_PROJECTIONS.monthly.activatedMaps];
