import { InvalidRequestException } from '../../common/errors/api-errors';
import { describeType } from '../../common/validation/messages';
import { ToolDefinition, ToolServices } from './tool-definition';

/** get_shared_filter: GET /v1/cost-insights/shared-filters/{filterId}. */
export function getSharedFilterTool({ sharing }: ToolServices): ToolDefinition {
  return {
    name: 'get_shared_filter',
    title: 'Read a shared filter',
    description: () =>
      'A filter configuration a colleague shared, by its id ("sf_" + 24 characters, e.g. from a dashboard link) (GET /v1/cost-insights/shared-filters/{filterId}). ' +
      'Answer: filterConfiguration with filters (inclusions and exclusions, every field listed, unset ones empty or null), groupBy, metric, comparisonEnabled and metadata (name, description). ' +
      'Its filters and groupBy can be passed as they are to get_cost_data (and its filters, without dateRange and billingPeriods, to compare_costs). ' +
      'A missing, expired or other organisation\'s id answers "Shared filter not found or has expired."',
    scope: 'shared-filters:read',
    endpoint: { method: 'get', path: '/v1/cost-insights/shared-filters/{filterId}' },
    controls: {},
    run: async ({ body, principal }) => {
      const { filterId } = body as { filterId?: unknown };
      if (typeof filterId !== 'string')
        throw new InvalidRequestException([`filterId: Expected string, received ${describeType(filterId)}`]);
      const unknown = Object.keys(body).filter((key) => key !== 'filterId');
      if (unknown.length) throw new InvalidRequestException(unknown.map((key) => `${key}: unknown field`));
      return sharing.get(principal, filterId);
    },
  };
}
