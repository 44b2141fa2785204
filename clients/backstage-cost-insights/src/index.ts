export { CostInsightsApiClient, DAILY_METRICS, entityName } from './client';
export type { CostInsightsClientOptions, CostMetric, FilterFields, GroupKey, ProductConfiguration, ProductInsightsOptions } from './client';
export { parseIntervals } from './intervals';
export type { DateRange, ParsedIntervals } from './intervals';
export { changeBetween, changeOf, trendlineOf } from './statistics';
