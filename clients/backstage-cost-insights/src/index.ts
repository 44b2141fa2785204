export {
  ANOMALY_ALERT_DAYS,
  ANOMALY_ALERT_ROOT_CAUSES,
  CostInsightsApiClient,
  CostInsightsApiError,
  DAILY_METRICS,
  entityName,
  GROWTH_ALERT_RATIO,
} from './client';
export type {
  AnomalyAnswer,
  CostAlert,
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
