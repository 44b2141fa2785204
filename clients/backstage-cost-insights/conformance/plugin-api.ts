/**
 * The client against the published plugin's own types (scripts/backstage-plugin-types.sh fetches them): compiles
 * only if CostInsightsApiClient is a CostInsightsApi of @backstage/plugin-cost-insights 0.11.32, which is what a
 * Backstage app's `createApiFactory({ api: costInsightsApiRef, … })` requires of it.
 */
import type { CostInsightsApi, ProductInsightsOptions as PluginProductInsightsOptions } from '@backstage/plugin-cost-insights';
import type { Cost } from '@backstage/plugin-cost-insights-common';
import { CostInsightsApiClient, ProductInsightsOptions } from '../src';

const client = new CostInsightsApiClient({ baseUrl: '/api/proxy/cost-insights', groups: { tag: 'team' } });

export const api: CostInsightsApi = client;

// The options type is the plugin's, both ways.
export const fromPlugin = (options: PluginProductInsightsOptions): ProductInsightsOptions => options;
export const toPlugin = (options: ProductInsightsOptions): PluginProductInsightsOptions => options;

// The later plugin's optional getCatalogEntityDailyCost(catalogEntityRef, intervals): Promise<Cost>.
export const catalogEntityDailyCost: (catalogEntityRef: string, intervals: string) => Promise<Cost> = (ref, intervals) =>
  client.getCatalogEntityDailyCost(ref, intervals);
