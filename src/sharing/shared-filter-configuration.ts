import { DATE_GROUPINGS, DateGrouping } from '../cost-query/date-bucketing';
import { ListFilterField } from '../cost-query/dimension-registry';
import { DateRange, FilterFields } from '../cost-query/filters.types';
import { COMPARE_METRICS, CompareMetric } from '../cost-query/metrics';

/** FilterFields where null means unset (as a read returns it, so a read can be stored again). */
export type FilterFieldsInput = { [K in keyof FilterFields]?: FilterFields[K] | null };

/** What a client sends as `filterConfiguration`: every part optional. */
export interface SharedFilterConfigurationInput {
  filters?: { inclusions?: FilterFieldsInput | null; exclusions?: FilterFieldsInput | null } | null;
  groupBy?: { dateGrouping?: DateGrouping | null; dimension?: string | null } | null;
  metric?: CompareMetric | null;
  comparisonEnabled?: boolean | null;
  metadata?: { name?: string | null; description?: string | null } | null;
}

/** A FilterFields with every field present: lists `[]` when unset, the other fields `null`. */
export type CompleteFilterFields = Record<ListFilterField, string[]> & {
  dateRange: DateRange | null;
  resourceTag: string | null;
  resourceTagValues: string[];
  costCategory: string | null;
  costCategoryValues: string[];
};

/** The stored and returned form of a shared filter: defaults filled, every field present. */
export interface SharedFilterConfiguration {
  filters: { inclusions: CompleteFilterFields; exclusions: CompleteFilterFields };
  groupBy: { dateGrouping: DateGrouping; dimension: string | null };
  metric: CompareMetric;
  comparisonEnabled: boolean;
  metadata: { name: string; description: string };
}

export const SHARED_FILTER_DEFAULTS = {
  dateGrouping: 'daily',
  dimension: null,
  metric: 'amortized_cost',
  comparisonEnabled: false,
  name: '',
  description: '',
} as const satisfies {
  dateGrouping: DateGrouping;
  dimension: null;
  metric: CompareMetric;
  comparisonEnabled: boolean;
  name: string;
  description: string;
};

/** Fills the defaults and lists every FilterFields field, in the spec's order. Idempotent. */
export function normalizeSharedFilterConfiguration(input: SharedFilterConfigurationInput): SharedFilterConfiguration {
  const groupBy = input.groupBy ?? {};
  const metadata = input.metadata ?? {};
  return {
    filters: {
      inclusions: completeFilterFields(input.filters?.inclusions),
      exclusions: completeFilterFields(input.filters?.exclusions),
    },
    groupBy: {
      dateGrouping: oneOf(DATE_GROUPINGS, groupBy.dateGrouping) ?? SHARED_FILTER_DEFAULTS.dateGrouping,
      dimension: groupBy.dimension ?? SHARED_FILTER_DEFAULTS.dimension,
    },
    metric: oneOf(COMPARE_METRICS, input.metric) ?? SHARED_FILTER_DEFAULTS.metric,
    comparisonEnabled: input.comparisonEnabled ?? SHARED_FILTER_DEFAULTS.comparisonEnabled,
    metadata: {
      name: metadata.name ?? SHARED_FILTER_DEFAULTS.name,
      description: metadata.description ?? SHARED_FILTER_DEFAULTS.description,
    },
  };
}

export function completeFilterFields(fields: FilterFieldsInput | null | undefined): CompleteFilterFields {
  const source = (fields ?? {}) as Partial<Record<keyof FilterFields, unknown>>;
  const list = (name: keyof FilterFields): string[] => {
    const value = source[name];
    return Array.isArray(value) ? [...(value as string[])] : [];
  };
  const text = (name: keyof FilterFields): string | null => {
    const value = source[name];
    return typeof value === 'string' ? value : null;
  };
  const range = source.dateRange as DateRange | null | undefined;
  // The spec's order of FilterFields.
  return {
    costLayers: list('costLayers'),
    clouds: list('clouds'),
    services: list('services'),
    resourceFamilies: list('resourceFamilies'),
    regions: list('regions'),
    instanceTypes: list('instanceTypes'),
    usageTypes: list('usageTypes'),
    billingPeriods: list('billingPeriods'),
    dateRange: range ? { start: range.start, end: range.end } : null,
    costTypes: list('costTypes'),
    accountIds: list('accountIds'),
    integrationIds: list('integrationIds'),
    resourceTag: text('resourceTag'),
    resourceTagValues: list('resourceTagValues'),
    costCategory: text('costCategory'),
    costCategoryValues: list('costCategoryValues'),
  };
}

function oneOf<T extends string>(allowed: readonly T[], value: unknown): T | undefined {
  return (allowed as readonly unknown[]).includes(value) ? (value as T) : undefined;
}
