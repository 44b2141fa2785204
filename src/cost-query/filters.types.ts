/** Plain shapes of the spec's Filters objects, as the query kernel consumes them. */
export interface DateRange {
  start: string;
  end: string;
}

export interface FilterFields {
  costLayers?: string[];
  clouds?: string[];
  services?: string[];
  resourceFamilies?: string[];
  regions?: string[];
  instanceTypes?: string[];
  usageTypes?: string[];
  billingPeriods?: string[];
  dateRange?: DateRange;
  costTypes?: string[];
  accountIds?: string[];
  integrationIds?: string[];
  resourceTag?: string;
  resourceTagValues?: string[];
  costCategory?: string;
  costCategoryValues?: string[];
}

export interface Filters {
  inclusions?: FilterFields;
  exclusions?: FilterFields;
}

/** The organisation every query is confined to. It comes from the API key, never from a request. */
export interface OrganizationScope {
  organizationId: string;
}
