import { FilterFields } from './filter-fields';

/** Plain shapes of the spec's Filters objects, as the query kernel consumes them (fields: filter-fields.ts). */
export type { DateRange, FilterFields } from './filter-fields';

export interface Filters {
  inclusions?: FilterFields;
  exclusions?: FilterFields;
}

/** The organisation every query is confined to. It comes from the API key, never from a request. */
export interface OrganizationScope {
  organizationId: string;
}
