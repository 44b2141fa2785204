import { MAP_DIMENSIONS } from '../cost-query/filter-fields';
import { RuleCategoriesService } from '../cost-categories/rule-categories.service';
import { ActivatedKeysService } from '../tag-keys/activated-keys.service';
import { createHash } from 'node:crypto';
import { organizationScopeOf } from '../cost-query/data-scope';
import { type OrganizationScope, Filters } from '../cost-query/filters.types';
import { Inject, Injectable } from '@nestjs/common';
import { InvalidRequestException } from '../common/errors/api-errors';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { todayUtc } from '../common/dates/calendar-date';
import { MapDimensionKind, OPTIONS_FIELDS, OptionsField } from '../cost-query/dimension-registry';
import {
  buildFilterOptionsQuery,
  buildMapKeyValuesQuery,
  FilterOptionRow,
  FilterOptions,
  MapKeyValuesPage,
  MAX_MAP_KEY_VALUES,
  readFilterOptions,
  readMapKeyValues,
} from '../cost-query/filter-options.query';
import { dateRangeSpanProblem } from '../cost-query/guardrails';
import { buildScopeDataVersionQuery } from '../cost-query/scope-data-version.query';
import { ClickhouseService } from '../store/clickhouse/clickhouse.service';
import { costRowsTable } from '../store/cost-rows';
import { CostDataVersion } from '../store/data-version/cost-data-version.service';
import { windowOf } from '../cost-query/currency-conversion';
import { AnswerCurrencyService } from '../currency/answer-currency.service';
import type { Principal } from '../common/http/principal';
import { decodeValueCursor, encodeValueCursor, expiredCursor, ValueCursorScope } from './value-cursor';

/** A /tag-values or /cost-category-values question: the key, and the optional search and paging. */
export interface MapKeyValuesRequest {
  key: string;
  search?: string | null;
  limit?: number | null;
  cursor?: string | null;
}

/** Its answer. `nextCursor`: paged, and more values follow. `truncated`: unpaged, and values were left out. */
export interface MapKeyValues {
  values: string[];
  nextCursor?: string;
  truncated?: true;
}

/** A /filters question: the fields to list, the selection, an optional search and the answer's currency. */
export interface AvailableFiltersRequest {
  fields?: OptionsField[] | null;
  filters?: Filters | null;
  search?: string | null;
  currency?: string | null;
}

@Injectable()
export class FilterOptionsService {
  constructor(
    private readonly clickhouse: ClickhouseService,
    private readonly currencies: AnswerCurrencyService,
    private readonly dataVersion: CostDataVersion,
    private readonly activatedKeys: ActivatedKeysService,
    private readonly ruleCategories: RuleCategoriesService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * The options of each requested field under cross-filtering, in one ClickHouse round trip, ranked by amortized cost
   * in the answer's currency.
   */
  async availableFilters(principal: Principal, request: AvailableFiltersRequest): Promise<FilterOptions & { currency: string }> {
    const fields = requestedFields(request.fields);
    const selection = request.filters ?? {};
    const spanProblem = dateRangeSpanProblem('filters.inclusions.dateRange', selection.inclusions?.dateRange, this.config.maxDateRangeDays);
    if (spanProblem) throw new InvalidRequestException([spanProblem]);

    // A tag or cost-category filter naming only active keys reads the activated columns; the keys listed (resourceTags,
    // costCategories, tagValues) always come from the full maps.
    const named = await this.activatedKeys.scopeFor(organizationScopeOf(principal), selection);
    // Listing the category keys lists the rule-defined ones too: every one is computed.
    const scope = fields.includes(MAP_DIMENSIONS.costCategory.optionsField) ? await this.ruleCategories.scopeWithAll(named) : named;
    const today = todayUtc();
    // Each field leaves its own filter out (billingPeriods too, whose list then covers the default window): with
    // billing periods in the selection, the branches read any of their dates.
    const inclusions = selection.inclusions ?? {};
    const window =
      inclusions.billingPeriods?.length && !inclusions.dateRange
        ? {}
        : windowOf(inclusions, { today, defaultWindowDays: this.config.defaultWindowDays });
    return this.currencies.answer(scope, request.currency ?? undefined, window, async (money) => {
      const query = buildFilterOptionsQuery({
        scope,
        filters: selection,
        fields,
        table: costRowsTable(this.clickhouse),
        today,
        defaultWindowDays: this.config.defaultWindowDays,
        search: request.search || undefined,
        conversion: money.conversion,
      });
      const rows = await this.clickhouse.query<FilterOptionRow>(query.sql, query.params, { organizationId: principal.organizationId });
      return { currency: money.currency, ...readFilterOptions(rows, fields) };
    });
  }

  /**
   * Distinct non-empty values of one tag or cost-category key in the caller's organisation. Without `limit`
   * and `cursor`: the unpaged answer (the most expensive MAX_MAP_KEY_VALUES, `truncated` when more exist).
   * With either: one page in byte order, pinned to the data version of the first page.
   */
  async mapKeyValues(principal: Principal, kind: MapDimensionKind, request: MapKeyValuesRequest): Promise<MapKeyValues> {
    const organizationId = principal.organizationId;
    const question = { scope: organizationScopeOf(principal), kind, key: request.key, search: request.search || undefined };
    const search = question.search;
    const paged = request.limit != null || request.cursor != null;
    if (!paged) {
      const { values, more } = await this.readValues(question);
      return more ? { values, truncated: true } : { values };
    }

    const dataScope = principal.dataScope ?? '';
    const scope: ValueCursorScope = { organizationId, dataScope, kind, key: request.key, search: search ?? '' };
    const page: MapKeyValuesPage = { limit: request.limit ?? MAX_MAP_KEY_VALUES };
    // A scoped key's pages are pinned to the rows inside its scope: changes outside it neither expire its
    // cursor nor, through that, tell it they happened.
    const readVersion = () => (dataScope ? this.scopeDataVersion(question.scope) : this.dataVersion.readNow(organizationId));
    let dataVersion: string;
    if (request.cursor != null) {
      const position = decodeValueCursor(request.cursor, scope);
      page.after = position.after;
      dataVersion = position.dataVersion;
    } else {
      // Read before the first page: a change landing while it runs makes the next page's check fail.
      dataVersion = await readVersion();
    }
    const { values, more } = await this.readValues(question, page);
    // Read after this page: unchanged since before the first one, so every page so far saw the same data.
    if (request.cursor != null && (await readVersion()) !== dataVersion) throw expiredCursor(dataScope !== '');
    if (!more) return { values };
    return { values, nextCursor: encodeValueCursor(scope, { after: values[values.length - 1], dataVersion }) };
  }

  /** The version of the rows inside a key's data scope (buildScopeDataVersionQuery), as a short digest. */
  private async scopeDataVersion(scope: OrganizationScope): Promise<string> {
    const { sql, params } = buildScopeDataVersionQuery(costRowsTable(this.clickhouse), scope);
    const [row] = await this.clickhouse.query<Record<string, string>>(sql, params, scope);
    const text = `${row?.row_count ?? 0}:${row?.latest ?? 0}:${row?.written ?? 0}`;
    return `scope:${createHash('sha256').update(text).digest('base64url').slice(0, 22)}`;
  }

  private async readValues(
    question: { scope: OrganizationScope; kind: MapDimensionKind; key: string; search?: string },
    page?: MapKeyValuesPage,
  ): Promise<{ values: string[]; more: boolean }> {
    const scope = await this.activatedKeys.scopeFor(question.scope, {}, [{ kind: question.kind, key: question.key }]);
    const query = buildMapKeyValuesQuery({
      scope,
      kind: question.kind,
      key: question.key,
      table: costRowsTable(this.clickhouse),
      search: question.search,
      page,
    });
    const rows = await this.clickhouse.query<{ map_value: string }>(query.sql, query.params, scope);
    return readMapKeyValues(rows, page);
  }
}

/** Omitted, null or empty: every field. Otherwise the requested ones once each, in registry order. */
function requestedFields(requested: OptionsField[] | null | undefined): OptionsField[] {
  if (!requested?.length) return [...OPTIONS_FIELDS];
  return OPTIONS_FIELDS.filter((field) => requested.includes(field));
}
