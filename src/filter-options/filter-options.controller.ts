import { Body, Controller, HttpCode, HttpStatus, Post } from '@nestjs/common';
import { ApiBadRequestResponse, ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ok, SuccessEnvelope } from '../common/http/envelope';
import { Authorized } from '../common/http/authorized.decorator';
import { CurrentPrincipal } from '../common/http/request-context';
import { SETTING_DEFAULTS } from '../config/settings';
import { MAX_MAP_KEY_LENGTH, NOT_SET, OPTIONS_FIELDS } from '../cost-query/dimension-registry';
import {
  FilterOptions,
  MAX_MAP_KEY_VALUES,
  MAX_OPTIONS_PER_FIELD,
  MAX_SEARCH_LENGTH,
  MAX_TAG_VALUE_KEYS,
  MAX_VALUES_PER_TAG_KEY,
} from '../cost-query/filter-options.query';
import {
  AvailableFiltersRequestDto,
  AvailableFiltersResponseDto,
  EnrichedOptionDto,
  MAX_REQUESTED_FIELDS,
} from './dto/available-filters.dto';
import { CostCategoryValuesRequestDto, MapKeyValuesResponseDto, TagValuesRequestDto } from './dto/map-key-values.dto';
import { FilterOptionsService, MapKeyValues } from './filter-options.service';
import { CurrentDataFreshness, DATA_ANSWER_HEADERS, DataAnswer, MONEY_ANSWER_HEADERS } from '../answers/data-answer.interceptor';
import type { DataFreshness } from '../answers/data-freshness.service';
import type { Principal } from '../common/http/principal';

const MAP_KEY_VALUES_RULES = [
  '- Scope: the organization of the API key, over **all time** (no date window), so a value picker sees every ' +
    'value ever billed, not only recent ones.',
  '- Values are the distinct non-empty values of exactly that key (case-sensitive; any characters, taken as data). ' +
    'A key that does not exist gives `[]`.',
  '- Sorted ascending by Unicode code point.',
  `- \`search\` (optional, at most ${MAX_SEARCH_LENGTH} characters): only values containing it, case-insensitively; ` +
    '`%` and `_` are literal.',
  `- **Unpaged** (no \`limit\`, no \`cursor\`): at most ${MAX_MAP_KEY_VALUES} values; when there are more, the ones ` +
    'with the highest amortized cost are kept and the answer carries `truncated: true`.',
  `- **Paged** (\`limit\` 1–${MAX_MAP_KEY_VALUES}, or \`cursor\`): the values in pages, ascending; a page carries ` +
    '`nextCursor` when more follow: send the same request with `cursor` set to it. Pages never repeat or skip a ' +
    "value: a cursor holds on to the organisation's data version, and once the data changed (an import landed) it " +
    'is refused with a 400 naming `cursor`, as is a cursor of another organisation, key or search, or one this API ' +
    'did not issue. Start again without a cursor.',
  `- The key is required, a non-empty string of at most ${MAX_MAP_KEY_LENGTH} characters; otherwise 400.`,
];

const BAD_VALUES_REQUEST = (keyField: string) =>
  `\`${keyField}\` missing, not a string, empty or too long; \`search\` too long; \`limit\` not an integer from 1 to ` +
  `${MAX_MAP_KEY_VALUES}; \`cursor\` expired, of another organisation, key or search, or not issued by this API; or an ` +
  'unknown field. The message names the field.';

@ApiTags('Filters')
@ApiExtraModels(EnrichedOptionDto)
@Controller('cost-insights')
export class FilterOptionsController {
  constructor(private readonly filters: FilterOptionsService) {}

  @Post('filters')
  @HttpCode(HttpStatus.OK)
  @Authorized('cost:read')
  @DataAnswer({ money: true })
  @ApiOperation({
    operationId: 'getAvailableFilters',
    summary: 'List the valid filter values for a filter selection (cross-filtering)',
    description: [
      'Requires the scope `cost:read`.',
      '',
      '- **Cross-filtering**: each requested field’s options are computed with every other active filter applied ' +
        '(inclusions and exclusions); the field’s own inclusion and exclusion are left out. So a services filter ' +
        'narrows `regions` but `services` still lists every service; a tag filter narrows the other fields but ' +
        '`resourceTags` still lists every key.',
      '- **Date window**: `filters.inclusions.dateRange`, else `filters.inclusions.billingPeriods`, else the last ' +
        `DEFAULT_WINDOW_DAYS (default ${SETTING_DEFAULTS.DEFAULT_WINDOW_DAYS}) days up to today (UTC). The \`billingPeriods\` list itself, when billingPeriods ` +
        'set the window, leaves them out like any own filter and so covers the default window. A dateRange longer ' +
        'than MAX_DATE_RANGE_DAYS is 400.',
      `- \`fields\`: any of the ${OPTIONS_FIELDS.length} fields; omitted, null or empty means all. An unknown value is 400 naming \`fields[i]\`; ` +
        `repeats are harmless (at most ${MAX_REQUESTED_FIELDS} entries).`,
      `- **Response**: all ${OPTIONS_FIELDS.length} lists are always present; a field not requested is \`[]\`. Lists are ascending by Unicode ` +
        `code point. Rows without a value for a column field are listed as \`${NOT_SET}\`. \`resourceTags\` and ` +
        '`costCategories` list keys. Only options with data in the window appear.',
      `- **Bounds**: at most ${MAX_OPTIONS_PER_FIELD} options per field; \`tagValues\` covers the ${MAX_TAG_VALUE_KEYS} ` +
        `tag keys with the highest amortized cost, with at most ${MAX_VALUES_PER_TAG_KEY} values each. Whenever a ` +
        'bound cuts, the options with the highest amortized cost are kept, and the answer says so: `truncated` lists ' +
        'the cut lists (fields, and `tagValues` when it covers only some keys), `truncatedTagValues` the tag keys ' +
        'whose values were cut. Both are absent when nothing was cut.',
      `- \`search\` (optional, at most ${MAX_SEARCH_LENGTH} characters): each requested list keeps only the options ` +
        'containing it, case-insensitively (`%`, `_` literal), before the bounds: accounts by ID or name, ' +
        '`resourceTags`/`costCategories` by key, `tagValues` for the matching tag keys.',
      '- `accountIdToName`: account ID → latest non-empty account name ("" if none), for the listed accounts.',
      '- `tagValues`: tag key → its non-empty values (ascending), under the same filters (and search) as `resourceTags`.',
      '- `enriched`: for each requested field, `{value, amortized_cost}` (accounts also `name`), highest amortized ' +
        'cost first, then by value.',
      '- Extensions `dataThrough` and `dataImportedAt`: how fresh the organisation’s data is, as the X-Data-Through ' +
        'and X-Data-Imported-At headers (null without data).',
      '- Extension `currency` (also `X-Currency`): the currency of the amortized costs that rank the options and fill ' +
        '`enriched` — the request’s `currency`, else the organisation’s reporting currency; costs billed in another ' +
        'currency are converted as in /data (a cost without a rate refuses the request, naming the pair and dates).',
    ].join('\n'),
  })
  @ApiOkResponse({ type: AvailableFiltersResponseDto, headers: MONEY_ANSWER_HEADERS })
  @ApiBadRequestResponse({
    description: 'Invalid body (e.g. an unknown `fields` value, a `search` too long); the message names each offending path.',
  })
  async getAvailableFilters(
    @CurrentPrincipal() principal: Principal,
    @Body() body: AvailableFiltersRequestDto,
    @CurrentDataFreshness() freshness: DataFreshness,
  ): Promise<SuccessEnvelope<FilterOptions & { currency: string; dataThrough: string | null; dataImportedAt: string | null }>> {
    const options = await this.filters.availableFilters(principal, body);
    return ok({ ...options, dataThrough: freshness.dataThrough, dataImportedAt: freshness.importedAt });
  }

  @Post('tag-values')
  @HttpCode(HttpStatus.OK)
  @Authorized('cost:read')
  @DataAnswer()
  @ApiOperation({
    operationId: 'getTagValues',
    summary: 'List the values of one resource tag key',
    description: ['Requires the scope `cost:read`.', '', ...MAP_KEY_VALUES_RULES].join('\n'),
  })
  @ApiOkResponse({ type: MapKeyValuesResponseDto, headers: DATA_ANSWER_HEADERS })
  @ApiBadRequestResponse({ description: BAD_VALUES_REQUEST('tagKey') })
  async getTagValues(@CurrentPrincipal() principal: Principal, @Body() body: TagValuesRequestDto): Promise<SuccessEnvelope<MapKeyValues>> {
    const { tagKey, ...options } = body;
    return ok(await this.filters.mapKeyValues(principal, 'tag', { key: tagKey, ...options }));
  }

  @Post('cost-category-values')
  @HttpCode(HttpStatus.OK)
  @Authorized('cost:read')
  @DataAnswer()
  @ApiOperation({
    operationId: 'getCostCategoryValues',
    summary: 'List the values of one cost category key',
    description: ['Requires the scope `cost:read`.', '', ...MAP_KEY_VALUES_RULES].join('\n'),
  })
  @ApiOkResponse({ type: MapKeyValuesResponseDto, headers: DATA_ANSWER_HEADERS })
  @ApiBadRequestResponse({ description: BAD_VALUES_REQUEST('categoryKey') })
  async getCostCategoryValues(
    @CurrentPrincipal() principal: Principal,
    @Body() body: CostCategoryValuesRequestDto,
  ): Promise<SuccessEnvelope<MapKeyValues>> {
    const { categoryKey, ...options } = body;
    return ok(await this.filters.mapKeyValues(principal, 'costCategory', { key: categoryKey, ...options }));
  }
}
