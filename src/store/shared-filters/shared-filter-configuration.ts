import { DATE_GROUPINGS, DateGrouping } from '../../cost-query/date-bucketing';
import { CompleteFilterFields, DateRange, FILTER_FIELD_ENTRIES, FilterFields } from '../../cost-query/filter-fields';
import { COMPARE_METRICS, CompareMetric } from '../../cost-query/cost-metrics';

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

export type { CompleteFilterFields } from '../../cost-query/filter-fields';

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

/**
 * The stored form of a normalised configuration. Its UTF-8 byte length is what SHARED_FILTER_MAX_BYTES
 * bounds and what the per-organisation byte quota adds up.
 */
export function serializeSharedFilterConfiguration(configuration: SharedFilterConfiguration): string {
  return JSON.stringify(configuration);
}

/** Every FilterFields field, in the spec's order (the field table's): lists `[]` when unset, the others `null`. */
export function completeFilterFields(fields: FilterFieldsInput | null | undefined): CompleteFilterFields {
  const source = (fields ?? {}) as Partial<Record<keyof FilterFields, unknown>>;
  const complete: Record<string, unknown> = {};
  for (const [name, field] of FILTER_FIELD_ENTRIES) {
    const value = source[name];
    switch (field.kind) {
      case 'list':
      case 'mapValues':
        complete[name] = Array.isArray(value) ? [...(value as string[])] : [];
        break;
      case 'dateRange': {
        const range = value as DateRange | null | undefined;
        complete[name] = range ? { start: range.start, end: range.end } : null;
        break;
      }
      case 'mapKey':
        complete[name] = typeof value === 'string' ? value : null;
        break;
    }
  }
  return complete as CompleteFilterFields;
}

function oneOf<T extends string>(allowed: readonly T[], value: unknown): T | undefined {
  return (allowed as readonly unknown[]).includes(value) ? (value as T) : undefined;
}
