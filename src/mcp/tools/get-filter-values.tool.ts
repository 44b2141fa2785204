import { OPTIONS_FIELDS, OptionsField } from '../../cost-query/dimension-registry';
import { AvailableFiltersRequestDto } from '../../filter-options/dto/available-filters.dto';
import { compactFilterOptions, TAG_VALUES_PER_KEY } from '../compact-answers';
import { integer, MONEY, searchText, ToolDefinition, ToolServices, windowText } from './tool-definition';

/** get_filter_values: POST /v1/cost-insights/filters, each field cut to limitPerField values. */
export function getFilterValuesTool({ filterOptions }: ToolServices): ToolDefinition {
  return {
    name: 'get_filter_values',
    title: 'Filter values (what exists, ranked by cost)',
    description: (config) =>
      'Which values each filter field has in a date window, under the current filter selection (POST /v1/cost-insights/filters), each with its amortized cost, highest first. ' +
      "Cross-filtering: a field's values are computed with every other filter applied but not its own. " +
      `Fields: ${OPTIONS_FIELDS.join(', ')} (accounts carry their name; resourceTags and costCategories list keys, and tagValues shows up to ${TAG_VALUES_PER_KEY} values of each listed tag key). ` +
      'search keeps values containing a text (case-insensitive); each field returns at most limitPerField values and counts the rest. ' +
      `Use the values as they are in filters of the other tools (accounts go into accountIds, integrations into integrationIds). ${windowText(config)} ${MONEY}`,
    scope: 'cost:read',
    endpoint: { method: 'post', path: '/v1/cost-insights/filters' },
    dto: AvailableFiltersRequestDto,
    controls: {
      // Searched by the endpoint itself, so options its per-field cap would cut are found too.
      search: searchText,
      limitPerField: integer(1, 1000, 25, 'Values to return per field, at most 1000 (highest amortized cost first).'),
    },
    run: async ({ body, controls, principal }) => {
      const request = body as AvailableFiltersRequestDto;
      const options = await filterOptions.availableFilters(principal, { ...request, search: controls.search as string | undefined });
      const fields = request.fields?.length ? OPTIONS_FIELDS.filter((field) => request.fields!.includes(field)) : [...OPTIONS_FIELDS];
      return compactFilterOptions(
        options,
        fields as OptionsField[],
        controls.search as string | undefined,
        (controls.limitPerField as number | undefined) ?? 25,
      );
    },
  };
}
