import { EXAMPLE_LAST_MONTH } from '../common/examples/examples';

/**
 * The field table: every FilterFields field of the spec, in its order, defined once. The request and
 * read DTOs (with their Swagger), the filter compiler, the shared-filter completion, the grouping
 * dimensions and the /filters lists are all derived from it. Adding a dimension is one `list` entry here,
 * a migration adding its column (and to the aggregate projections), and the importer's mapping:
 * docs/adding-a-dimension.md.
 */

/** How a field filters, and so the shape of its value. */
export type FilterFieldKind =
  /** A list of a column's values (OR); a dimension for groupBy and a /filters list. */
  | 'list'
  /** The date window. */
  | 'dateRange'
  /** The key of a Map column (resource tags, cost categories). */
  | 'mapKey'
  /** The values of that key (OR); only with the key. */
  | 'mapValues';

export interface ListFieldDefinition {
  kind: 'list';
  /** The groupBy dimension of this column (API name). */
  dimension: string;
  /** Column SQL in cost_line_items. */
  column: string;
  /** The /filters list of this column's values (its response key and `fields` name). */
  options: string;
  /** Values are billing periods (yyyy-MM), validated as such; a date field: not allowed in /compare. */
  billingPeriods?: true;
  /** One sentence for Swagger, and the examples of the request, of a shared-filter read and of a /filters list. */
  label: string;
  example: string[];
  readExample?: string[];
  optionsExample: string[];
}

export interface DateRangeFieldDefinition {
  kind: 'dateRange';
}

export interface MapKeyFieldDefinition {
  kind: 'mapKey';
  /** The Map dimension: `tag:<key>` / `costCategory:<key>` in groupBy. */
  map: MapDimensionKind;
  /** Swagger: what the key is, in a request and in a shared-filter read. */
  description: string;
  readLabel: string;
  example: string;
}

export interface MapValuesFieldDefinition {
  kind: 'mapValues';
  map: MapDimensionKind;
  label: string;
  example: string[];
}

export type FilterFieldDefinition = ListFieldDefinition | DateRangeFieldDefinition | MapKeyFieldDefinition | MapValuesFieldDefinition;

/** Map-typed attributes, addressed by key: resource tags and cost categories. */
export const MAP_DIMENSIONS = {
  tag: {
    column: 'resource_tags',
    activatedColumn: 'activated_resource_tags',
    keyField: 'resourceTag',
    valuesField: 'resourceTagValues',
    optionsField: 'resourceTags',
    optionsExample: ['env', 'team'],
  },
  costCategory: {
    column: 'cost_categories',
    activatedColumn: 'activated_cost_categories',
    keyField: 'costCategory',
    valuesField: 'costCategoryValues',
    optionsField: 'costCategories',
    optionsExample: ['Business Unit'],
  },
} as const;
export type MapDimensionKind = keyof typeof MAP_DIMENSIONS;

/**
 * The value reported for rows that have no value for a dimension (an untagged resource, an
 * empty column). Filtering on it selects those rows, so every row stays reachable.
 */
export const NOT_SET = '(not set)';

export const FILTER_FIELDS = {
  costLayers: {
    kind: 'list',
    dimension: 'costLayer',
    column: 'cost_layer',
    options: 'costLayers',
    label: 'Cost layer names.',
    example: ['Infrastructure'],
    optionsExample: ['Infrastructure', 'Marketplace'],
  },
  clouds: {
    kind: 'list',
    dimension: 'cloud',
    column: 'cloud',
    options: 'clouds',
    label: 'Cloud provider names.',
    example: ['AWS', 'Azure'],
    readExample: ['AWS'],
    optionsExample: ['AWS', 'Azure', 'GCP'],
  },
  services: {
    kind: 'list',
    dimension: 'service',
    column: 'service',
    options: 'services',
    label: 'Cloud service names.',
    example: ['Amazon EC2'],
    optionsExample: ['Amazon EC2', 'Amazon S3'],
  },
  resourceFamilies: {
    kind: 'list',
    dimension: 'resourceFamily',
    column: 'resource_family',
    options: 'resourceFamilies',
    label: 'Resource family names.',
    example: ['Compute'],
    optionsExample: ['Compute', 'Storage'],
  },
  regions: {
    kind: 'list',
    dimension: 'region',
    column: 'region',
    options: 'regions',
    label: 'Cloud region codes.',
    example: ['us-east-1'],
    optionsExample: ['eu-west-1', 'us-east-1'],
  },
  instanceTypes: {
    kind: 'list',
    dimension: 'instanceType',
    column: 'instance_type',
    options: 'instanceTypes',
    label: 'Instance type identifiers.',
    example: ['m6i.xlarge'],
    optionsExample: [NOT_SET, 'm6i.xlarge'],
  },
  usageTypes: {
    kind: 'list',
    dimension: 'usageType',
    column: 'usage_type',
    options: 'usageTypes',
    label: 'Usage type identifiers.',
    example: ['BoxUsage:m6i.xlarge'],
    optionsExample: ['BoxUsage:m6i.xlarge'],
  },
  billingPeriods: {
    kind: 'list',
    dimension: 'billingPeriod',
    column: 'billing_period',
    options: 'billingPeriods',
    billingPeriods: true,
    label: 'Billing periods (yyyy-MM).',
    example: ['2026-10'],
    optionsExample: [EXAMPLE_LAST_MONTH.start.slice(0, 7)],
  },
  dateRange: { kind: 'dateRange' },
  costTypes: {
    kind: 'list',
    dimension: 'costType',
    column: 'cost_type',
    options: 'costTypes',
    label: 'Cost type identifiers.',
    example: ['Usage'],
    optionsExample: ['Tax', 'Usage'],
  },
  accountIds: {
    kind: 'list',
    dimension: 'account',
    column: 'account_id',
    options: 'accounts',
    label: 'Cloud account IDs.',
    example: ['123456789012'],
    optionsExample: ['123456789012'],
  },
  integrationIds: {
    kind: 'list',
    dimension: 'integration',
    column: 'integration_id',
    options: 'integrations',
    label: 'Integration IDs.',
    example: ['aws-cur-main'],
    optionsExample: ['aws-cur-main'],
  },
  resourceTag: {
    kind: 'mapKey',
    map: 'tag',
    description:
      'One resource tag key. With resourceTagValues: rows whose tag has one of those values. Alone: rows that have the tag (in exclusions: rows that lack it).',
    readLabel: 'Resource tag key',
    example: 'env',
  },
  resourceTagValues: { kind: 'mapValues', map: 'tag', label: 'Values of resourceTag.', example: ['production'] },
  costCategory: {
    kind: 'mapKey',
    map: 'costCategory',
    description:
      'One cost category key. With costCategoryValues: rows in one of those values. Alone: rows that have the category (in exclusions: rows that lack it).',
    readLabel: 'Cost category key',
    example: 'Business Unit',
  },
  costCategoryValues: { kind: 'mapValues', map: 'costCategory', label: 'Values of costCategory.', example: ['Platform'] },
  // Extensions of the spec's FilterFields, after its 16 fields.
  billingCurrencies: {
    kind: 'list',
    dimension: 'billingCurrency',
    column: 'billing_currency',
    options: 'billingCurrencies',
    label:
      "Billing currencies (ISO 4217) the costs were billed in. Filtered to one and asked in it (`currency`), an answer shows that currency's amounts unconverted.",
    example: ['EUR'],
    optionsExample: ['EUR', 'USD'],
  },
  allocatedMethods: {
    kind: 'list',
    dimension: 'allocatedMethod',
    column: 'allocated_method_id',
    options: 'allocatedMethods',
    label:
      "FOCUS 1.3 AllocatedMethodId: how the provider split a shared charge onto the rows that carry it ('(not set)': rows not allocated by the provider, and exports of FOCUS 1.2 and older).",
    example: ['cluster-cpu-share'],
    optionsExample: ['cluster-cpu-share', '(not set)'],
  },
} as const satisfies Record<string, FilterFieldDefinition>;

type Table = typeof FILTER_FIELDS;
export type FilterFieldName = keyof Table;
type FieldsOfKind<Kind extends FilterFieldKind> = { [K in FilterFieldName]: Table[K]['kind'] extends Kind ? K : never }[FilterFieldName];

/** FilterFields keys that hold a list of column values. */
export type ListFilterField = FieldsOfKind<'list'>;
/** A grouping dimension that is a column (API name). */
export type Dimension = Table[ListFilterField]['dimension'];
/** Fields of the /filters response (and of its `fields` request enum). */
export type OptionsField = Table[ListFilterField]['options'] | (typeof MAP_DIMENSIONS)[MapDimensionKind]['optionsField'];

export interface DateRange {
  start: string;
  end: string;
}

/** The value each kind of field holds. */
interface FieldValue {
  list: string[];
  dateRange: DateRange;
  mapKey: string;
  mapValues: string[];
}

/** The spec's FilterFields: every field optional. */
export type FilterFields = { [K in FilterFieldName]?: FieldValue[Table[K]['kind']] };

/** FilterFields with every field present (a shared-filter read): lists `[]` when unset, the others `null`. */
export type CompleteFilterFields = {
  [K in FilterFieldName]: FieldValue[Table[K]['kind']] extends string[] ? string[] : FieldValue[Table[K]['kind']] | null;
};

/** The table's entries in the spec's order, typed for iteration. */
export const FILTER_FIELD_ENTRIES = Object.entries(FILTER_FIELDS) as Array<[FilterFieldName, FilterFieldDefinition]>;

/** The list fields (the column dimensions), in the spec's order. */
export const LIST_FIELDS = FILTER_FIELD_ENTRIES.flatMap(([name, field]) =>
  field.kind === 'list'
    ? [{ ...field, name: name as ListFilterField, dimension: field.dimension as Dimension, options: field.options as OptionsField }]
    : [],
);

/** Fields that set dates: /compare refuses them (its periods are the dates). */
export type DateFilterField =
  FieldsOfKind<'dateRange'> | { [K in ListFilterField]: Table[K] extends { billingPeriods: true } ? K : never }[ListFilterField];
export const DATE_FIELDS = FILTER_FIELD_ENTRIES.filter(
  ([, field]) => field.kind === 'dateRange' || (field.kind === 'list' && field.billingPeriods),
).map(([name]) => name as DateFilterField);
