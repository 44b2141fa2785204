import { CostCategoryValuesRequestDto, TagValuesRequestDto } from '../../filter-options/dto/map-key-values.dto';
import { compactKeyValues } from '../compact-answers';
import { integer, searchText, ToolDefinition, ToolServices } from './tool-definition';

/** get_tag_values and get_cost_category_values: the values of one key, searched and paged. */
export function mapKeyValuesTools({ filterOptions }: ToolServices): ToolDefinition[] {
  return (['tag', 'costCategory'] as const).map((kind): ToolDefinition => ({
    name: kind === 'tag' ? 'get_tag_values' : 'get_cost_category_values',
    title: kind === 'tag' ? 'Values of one resource tag key' : 'Values of one cost category key',
    description: () =>
      `Every value ever billed for one ${kind === 'tag' ? 'resource tag key (e.g. env, team)' : 'cost category key (e.g. Business Unit)'} in the organisation, over all time (no date window), ` +
      `sorted by Unicode code point (POST /v1/cost-insights/${kind === 'tag' ? 'tag-values' : 'cost-category-values'}). The key is exact and case-sensitive; an unknown key gives no values. ` +
      `Filter on a value with filters.inclusions.${kind === 'tag' ? 'resourceTag + resourceTagValues' : 'costCategory + costCategoryValues'} in the other tools, ` +
      `or group by "${kind === 'tag' ? 'tag' : 'costCategory'}:<key>". search keeps values containing a text (case-insensitive); values are paged (limit, offset).`,
    scope: 'cost:read',
    endpoint: { method: 'post', path: `/v1/cost-insights/${kind === 'tag' ? 'tag-values' : 'cost-category-values'}` },
    dto: kind === 'tag' ? TagValuesRequestDto : CostCategoryValuesRequestDto,
    controls: {
      // Searched by the endpoint itself (uncapped); this tool pages the matching values by offset.
      search: searchText,
      limit: integer(1, 1000, 100, 'Values to return, at most 1000.'),
      offset: integer(0, Number.MAX_SAFE_INTEGER, 0, 'Index of the first value to return, for the next page.'),
    },
    run: async ({ body, controls, principal }) => {
      const key = kind === 'tag' ? (body as TagValuesRequestDto).tagKey : (body as CostCategoryValuesRequestDto).categoryKey;
      const { values } = await filterOptions.mapKeyValues(principal, kind, { key, search: controls.search as string | undefined });
      return compactKeyValues(
        key,
        values,
        controls.search as string | undefined,
        (controls.offset as number | undefined) ?? 0,
        (controls.limit as number | undefined) ?? 100,
      );
    },
  }));
}
