import { organizationScopeOf } from '../cost-query/data-scope';
import { HttpException, HttpStatus, Inject, Injectable, Logger, Type } from '@nestjs/common';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { InvalidRequestException } from '../common/errors/api-errors';
import type { Principal, Scope } from '../common/http/principal';
import { ApiValidationPipe } from '../common/validation/api-validation.pipe';
import { describeType } from '../common/validation/messages';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { DIMENSIONS, OPTIONS_FIELDS, OptionsField } from '../cost-query/dimension-registry';
import { ComparisonService } from '../comparison/comparison.service';
import { CompareRequestDto } from '../comparison/dto/compare-request.dto';
import { CostsService } from '../costs/costs.service';
import { CostDataRequestDto } from '../costs/dto/cost-data-request.dto';
import { AvailableFiltersRequestDto } from '../filter-options/dto/available-filters.dto';
import { CostCategoryValuesRequestDto, TagValuesRequestDto } from '../filter-options/dto/map-key-values.dto';
import { FilterOptionsService } from '../filter-options/filter-options.service';
import { SharingService } from '../sharing/sharing.service';
import {
  compactComparison,
  compactCostData,
  compactFilterOptions,
  compactKeyValues,
  CostItem,
  TAG_VALUES_PER_KEY,
  TOP_VALUES,
  TopValue,
} from './compact-answers';
import { JsonSchema, OpenApiDocumentLike, operationInputSchema } from './tool-schemas';

/** A tool's own controls (paging, search), checked here; everything else is the endpoint's body, checked by its DTO. */
interface Control {
  schema: JsonSchema;
  read(value: unknown): string | undefined; // the problem, if any
}

const integer = (min: number, max: number, byDefault: number, description: string): Control => ({
  schema: { type: 'integer', minimum: min, maximum: max, default: byDefault, description },
  read: (value) =>
    Number.isInteger(value) && (value as number) >= min && (value as number) <= max
      ? undefined
      : `Expected an integer from ${min} to ${max}, received ${typeof value === 'number' ? value : describeType(value)}`,
});
const searchText: Control = {
  schema: {
    type: 'string',
    minLength: 1,
    maxLength: 256,
    description: 'Keep only values containing this text (case-insensitive), e.g. "prod" or "ec2". Counts and paging apply to the matches.',
  },
  read: (value) =>
    typeof value === 'string' && value.length >= 1 && value.length <= 256 ? undefined : 'Expected a string of 1 to 256 characters',
};
const flag = (description: string): Control => ({
  schema: { type: 'boolean', default: false, description },
  read: (value) => (typeof value === 'boolean' ? undefined : `Expected boolean, received ${describeType(value)}`),
});

interface ToolDefinition {
  name: string;
  title: string;
  description: (config: AppConfig) => string;
  scope: Scope;
  /** The endpoint whose request schema (OpenAPI, from the DTOs) is the tool's input, besides `controls`. */
  endpoint: { method: 'post' | 'get'; path: string };
  /** The DTO that validates the endpoint part of the arguments (ApiValidationPipe, as for HTTP bodies). */
  dto?: Type;
  controls: Record<string, Control>;
  run(input: { body: object; controls: Record<string, unknown>; principal: Principal }): Promise<unknown>;
}

export const MCP_TOOL_NAMES = [
  'get_cost_data',
  'compare_costs',
  'get_filter_values',
  'get_tag_values',
  'get_cost_category_values',
  'get_shared_filter',
] as const;

const MONEY =
  'Money amounts are summed exactly, all in one currency, stated as `currency` in the answer: the `currency` argument (ISO 4217, e.g. EUR) or else the ' +
  "organisation's reporting currency; costs billed in another currency are converted at their day's exchange rate (a day without one is an error naming " +
  'the currency pair and the dates, never a 1:1 sum). effective_savings_rate is a fraction (0.25 = 25 %).';
const windowText = (config: AppConfig) =>
  `Dates are YYYY-MM-DD (UTC), ranges include both ends and span at most ${config.maxDateRangeDays} days; without filters.inclusions.dateRange ` +
  `(or billingPeriods) the window is the last ${config.defaultWindowDays} days up to today. Weeks start on Monday.`;
const DIMENSIONS_TEXT = `Dimensions: ${[...DIMENSIONS, 'tag:<key>', 'costCategory:<key>'].join(', ')}; "(not set)" groups rows without a value.`;

/**
 * The MCP tools: each calls the same service as its HTTP endpoint, after the same scope check (a missing
 * scope is a tool error with the 403 message) and the same validation pipe (a tool error with the 400
 * message), and answers compactly (compact-answers.ts).
 */
@Injectable()
export class McpTools {
  private readonly logger = new Logger('Mcp');
  private readonly pipe = new ApiValidationPipe();
  private listed?: Tool[];
  private readonly definitions: ToolDefinition[];

  constructor(
    costs: CostsService,
    comparison: ComparisonService,
    filterOptions: FilterOptionsService,
    sharing: SharingService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    const scope = (principal: Principal) => organizationScopeOf(principal);
    this.definitions = [
      {
        name: 'get_cost_data',
        title: 'Cost data (time series and totals)',
        description: (config) =>
          'Cloud cost of the organisation as a time series with totals (POST /v1/cost-insights/data). ' +
          'Answer: `summary` (totals over the whole window: amortized, billed, cash and on-demand cost, total_savings and its six sources, effective_savings_rate), ' +
          `\`topValues\` (the ${TOP_VALUES} dimension values with the highest amortized cost over the whole window, when grouped), and a page of \`items\` ` +
          "(one per date bucket × dimension value, ordered by date then value; usage_date is the bucket's first day). " +
          'Items are paged (limit, offset) and `page.remaining` says how many were left out: for "what costs most" read topValues and summary instead of paging; ' +
          `prefer monthly or weekly buckets to daily ones. ${windowText(config)} ${DIMENSIONS_TEXT} ${MONEY}`,
        scope: 'cost:read',
        endpoint: { method: 'post', path: '/v1/cost-insights/data' },
        dto: CostDataRequestDto,
        controls: {
          limit: integer(1, 500, 100, 'Items to return (a page), at most 500.'),
          offset: integer(0, Number.MAX_SAFE_INTEGER, 0, 'Index of the first item to return, for the next page.'),
        },
        // The page is cut in the statement (issue 35 §1): a limit of 1 reads back one item and the top values, not the window.
        run: async ({ body, controls, principal }) => {
          const offset = (controls.offset as number | undefined) ?? 0;
          const limit = (controls.limit as number | undefined) ?? 100;
          const result = await costs.getCostDataPage(scope(principal), body as CostDataRequestDto, {
            offset,
            limit,
            topValues: TOP_VALUES,
          });
          return compactCostData(
            { ...result, items: result.items as CostItem[], topValues: result.topValues as unknown as TopValue[] },
            offset,
            limit,
          );
        },
      },
      {
        name: 'compare_costs',
        title: 'Compare a metric between two periods',
        description: (config) =>
          'One metric between a baseline and a comparison period, per value of an optional dimension (POST /v1/cost-insights/compare). ' +
          'Answer: `totals` (the metric over each whole period and the delta), `metric_totals` (amortized_cost, on_demand_cost, total_savings, effective_savings_rate, whatever the metric), ' +
          '`metadata` (periods and readable labels) and a page of `rows` ordered by |delta.absolute| descending (largest movers first). ' +
          'delta.absolute = comparison − baseline; delta.percentage is in percent (12.5 = +12.5 %; 100 when the baseline is 0 and the comparison is not); direction increase/decrease/unchanged. ' +
          `Rows carry period totals only unless includeByDate is true. Filters here must not contain dateRange or billingPeriods: the periods set the dates. Periods: both ends included, at most ${config.maxDateRangeDays} days each. ${DIMENSIONS_TEXT} ${MONEY}`,
        scope: 'cost:read',
        endpoint: { method: 'post', path: '/v1/cost-insights/compare' },
        dto: CompareRequestDto,
        controls: {
          limit: integer(1, 200, 25, 'Rows to return, at most 200.'),
          offset: integer(0, Number.MAX_SAFE_INTEGER, 0, 'Index of the first row to return, for the next page.'),
          includeByDate: flag(
            "Also return each row's per-bucket series (by_date, zero-filled, bucketed by groupBy.dateGrouping, default daily). Larger answers.",
          ),
        },
        run: async ({ body, controls, principal }) =>
          compactComparison(
            await comparison.compare(scope(principal), body as CompareRequestDto),
            (controls.offset as number | undefined) ?? 0,
            (controls.limit as number | undefined) ?? 25,
            (controls.includeByDate as boolean | undefined) ?? false,
          ),
      },
      {
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
      },
      ...(['tag', 'costCategory'] as const).map((kind): ToolDefinition => ({
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
      })),
      {
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
      },
    ];
  }

  /** Builds the tools' input schemas from the OpenAPI document (once, at start-up: app.factory.ts). */
  describe(document: OpenApiDocumentLike): void {
    this.listed = this.definitions.map((tool) => {
      const endpoint = operationInputSchema(document, tool.endpoint.method, tool.endpoint.path);
      const properties = { ...(endpoint.properties as Record<string, JsonSchema>) };
      for (const [name, control] of Object.entries(tool.controls)) properties[name] = control.schema;
      return {
        name: tool.name,
        title: tool.title,
        description: `${tool.description(this.config)} Needs the API key scope ${tool.scope}.`,
        inputSchema: { ...endpoint, type: 'object', properties, additionalProperties: false } as Tool['inputSchema'],
        annotations: { title: tool.title, readOnlyHint: true, openWorldHint: false },
      };
    });
  }

  list(): Tool[] {
    if (!this.listed) throw new Error('McpTools.describe(document) was not called at start-up');
    return this.listed;
  }

  /** Runs one tool for the key's principal: its answer as compact JSON text, or a tool error with the API's message. */
  async call(name: string, args: Record<string, unknown>, principal: Principal): Promise<CallToolResult> {
    const tool = this.definitions.find((definition) => definition.name === name);
    if (!tool) return toolError(`Unknown tool ${quotedName(name)}. Tools: ${MCP_TOOL_NAMES.join(', ')}.`);
    const started = Date.now();
    try {
      if (!principal.scopes.includes(tool.scope)) {
        throw new HttpException(`This API key lacks the scope required for this operation: ${tool.scope}.`, HttpStatus.FORBIDDEN);
      }
      const { body, controls } = this.split(tool, args);
      const validated = tool.dto ? ((await this.pipe.transform(body, { type: 'body', metatype: tool.dto })) as object) : body;
      const answer = await tool.run({ body: validated, controls, principal });
      this.logger.debug(`${name}: answered in ${Date.now() - started} ms`);
      return { content: [{ type: 'text', text: JSON.stringify(answer) }] };
    } catch (error) {
      if (error instanceof HttpException) {
        this.logger.debug(`${name}: ${error.getStatus()} in ${Date.now() - started} ms`);
        return toolError(messageOf(error));
      }
      this.logger.error(`${name} failed: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
      return toolError('Internal server error.');
    }
  }

  /** The tool's controls, checked, and the rest of the arguments (the endpoint's body, for its DTO). */
  private split(tool: ToolDefinition, args: Record<string, unknown>): { body: Record<string, unknown>; controls: Record<string, unknown> } {
    const body: Record<string, unknown> = {};
    const controls: Record<string, unknown> = {};
    const problems: string[] = [];
    for (const [key, value] of Object.entries(args)) {
      const control = Object.prototype.hasOwnProperty.call(tool.controls, key) ? tool.controls[key] : undefined;
      if (!control) {
        // As an own property even for `__proto__`, so the validation pipe reports it as an unknown field.
        Object.defineProperty(body, key, { value, enumerable: true, writable: true, configurable: true });
        continue;
      }
      if (value === undefined || value === null) continue;
      const problem = control.read(value);
      if (problem) problems.push(`${key}: ${problem}`);
      else controls[key] = value;
    }
    if (problems.length) throw new InvalidRequestException(problems);
    return { body, controls };
  }
}

/** The longest part of an unknown tool's name an answer repeats: enough to spot a typo, never a reflection of the request. */
const ECHOED_NAME_LENGTH = 64;

function quotedName(name: string): string {
  if (name.length <= ECHOED_NAME_LENGTH) return `"${name}"`;
  return `"${name.slice(0, ECHOED_NAME_LENGTH)}…" (${name.length} characters)`;
}

function toolError(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

function messageOf(error: HttpException): string {
  const response = error.getResponse();
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown }).message;
  if (Array.isArray(message)) return message.join('; ');
  return typeof message === 'string' ? message : error.message;
}
