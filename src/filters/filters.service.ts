import { Inject, Injectable } from '@nestjs/common';
import type { Principal } from '../auth/api-keys.service';
import { InvalidRequestException } from '../common/errors/api-errors';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { todayUtc } from '../cost-query/date-bucketing';
import { MapDimensionKind, OPTIONS_FIELDS, OptionsField } from '../cost-query/dimension-registry';
import {
  buildFilterOptionsQuery,
  buildMapKeyValuesQuery,
  FilterOptionRow,
  FilterOptions,
  readFilterOptions,
  readMapKeyValues,
} from '../cost-query/filter-options.query';
import { Filters } from '../cost-query/filters.types';
import { dateRangeSpanProblem } from '../cost-query/guardrails';
import { ClickhouseService } from '../infrastructure/clickhouse/clickhouse.service';

const COST_TABLE = 'cost_line_items';

@Injectable()
export class FiltersService {
  constructor(
    private readonly clickhouse: ClickhouseService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The options of each requested field under cross-filtering, in one ClickHouse round trip. */
  async availableFilters(
    principal: Principal,
    requested: OptionsField[] | null | undefined,
    filters: Filters | null | undefined,
  ): Promise<FilterOptions> {
    const fields = requestedFields(requested);
    const selection = filters ?? {};
    const spanProblem = dateRangeSpanProblem(
      'filters.inclusions.dateRange',
      selection.inclusions?.dateRange,
      this.config.maxDateRangeDays,
    );
    if (spanProblem) throw new InvalidRequestException([spanProblem]);

    const query = buildFilterOptionsQuery({
      scope: { organizationId: principal.organizationId },
      filters: selection,
      fields,
      table: this.clickhouse.table(COST_TABLE),
      today: todayUtc(),
      defaultWindowDays: this.config.defaultWindowDays,
    });
    const rows = await this.clickhouse.query<FilterOptionRow>(query.sql, query.params);
    return readFilterOptions(rows, fields);
  }

  /** Distinct non-empty values of one tag or cost-category key in the caller's organisation. */
  async mapKeyValues(principal: Principal, kind: MapDimensionKind, key: string): Promise<{ values: string[] }> {
    const query = buildMapKeyValuesQuery({
      scope: { organizationId: principal.organizationId },
      kind,
      key,
      table: this.clickhouse.table(COST_TABLE),
    });
    const rows = await this.clickhouse.query<{ map_value: string }>(query.sql, query.params);
    return { values: readMapKeyValues(rows) };
  }
}

/** Omitted, null or empty: every field. Otherwise the requested ones once each, in registry order. */
function requestedFields(requested: OptionsField[] | null | undefined): OptionsField[] {
  if (!requested?.length) return [...OPTIONS_FIELDS];
  return OPTIONS_FIELDS.filter((field) => requested.includes(field));
}
