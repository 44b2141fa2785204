export { CostInsightsApiClient, CostInsightsApiError, DAILY_METRICS, entityName, GROWTH_ALERT_RATIO } from './client';
export type {
  CostInsightsClientOptions,
  CostMetric,
  FilterFields,
  GroupKey,
  GrowthAlert,
  ProductConfiguration,
  ProductInsightsOptions,
} from './client';
export { parseIntervals } from './intervals';
export type { DateRange, ParsedIntervals } from './intervals';
export { changeBetween, changeOf, trendlineOf } from './statistics';
