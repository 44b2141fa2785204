import { HttpStatus, Injectable } from '@nestjs/common';
import { formatMonthNumber, isCalendarDate, monthNumber, todayUtc } from '../common/dates/calendar-date';
import { ApiError, InvalidRequestException } from '../common/errors/api-errors';
import { buildCategoryPreviewQuery, CategoryPreviewRow } from '../cost-query/category-preview.query';
import { CostCategoryDefinition, definitionProblems } from '../cost-query/cost-category-definition';
import { compileCategories, effectiveSegments, unionOfVersions, VersionedCategory } from '../cost-query/cost-category-rules';
import { decimalText, scaled, shareHalfUp } from '../common/money/scaled-decimal';
import { NOT_SET } from '../cost-query/filter-fields';
import type { DateRange, OrganizationScope } from '../cost-query/filters.types';
import { CostDataQuery, windowQuestion } from '../cost-query/cost-data.query';
import type { CurrencyConversion } from '../cost-query/currency-conversion';
import { AnswerCurrencyService } from '../currency/answer-currency.service';
import { ClickhouseService } from '../store/clickhouse/clickhouse.service';
import { costRowsTable } from '../store/cost-rows';
import { CategoryVersionRecord, CostCategoriesRepository } from '../store/repositories/cost-categories.repository';
import type {
  CostCategoryListDto,
  CostCategoryPreviewDto,
  CostCategoryVersionDto,
  CostCategoryVersionsDto,
  PreviewChangeDto,
} from './dto/cost-category.dto';
import { CATEGORY_COLUMNS, ruleDefinedCategory, RuleCategoriesService, versionedCategories } from './rule-categories.service';
import { SplitsService } from './splits.service';

/** The values a preview lists as changing most. */
const PREVIEW_CHANGES = 10;
/**
 * The most SQL the organisation's categories may compile to, all named in one question: a statement embeds it a few
 * times (grouping, filters, data scope), and its analysis grows faster than its length (two categories of 500 rules,
 * ~100,000 characters, took over 20 s to answer 5 rows; one of 500 failed on a ClickHouse server). 150 rules with a
 * service and a tag condition each compile to about 18,000 characters; 500 rules giving a value alone, about 15,000.
 */
const MAX_CATEGORIES_SQL = 25_000;
/** Months before the current one a preview covers by default. */
const PREVIEW_PAST_MONTHS = 2;

/** A preview's window as asked (`from`, `to`: yyyy-MM-dd), either end optional. */
export interface PreviewWindow {
  from?: string;
  to?: string;
}

/**
 * An organisation's rule-defined cost categories: versions saved and deleted (never lost), each checked against the
 * others (no cycle), and previews of a definition's effect before it is saved.
 */
@Injectable()
export class CostCategoriesService {
  constructor(
    private readonly repository: CostCategoriesRepository,
    private readonly rules: RuleCategoriesService,
    private readonly currencies: AnswerCurrencyService,
    private readonly clickhouse: ClickhouseService,
    private readonly splits: SplitsService,
  ) {}

  async list(organizationId: string): Promise<CostCategoryListDto> {
    const records = await this.repository.versions(organizationId);
    const latest = new Map(records.map((record) => [record.key, record]));
    const categories = [...latest.values()].flatMap((record) =>
      record.definition
        ? [
            {
              key: record.key,
              version: record.version,
              effectiveFrom: record.effectiveFrom,
              defaultValue: record.definition.defaultValue,
              ruleCount: record.definition.rules.length,
              updatedAt: record.createdAt,
            },
          ]
        : [],
    );
    return { categories };
  }

  /** Every version of one category; 404 when the organisation never defined it. */
  async versions(organizationId: string, key: string): Promise<CostCategoryVersionsDto> {
    const records = await this.repository.versions(organizationId, key);
    if (records.length === 0) throw notDefined(key);
    return { key, versions: records.map(versionDto) };
  }

  /** Saves a new version after checking it (400 naming each problem); answers every version. */
  async save(organizationId: string, key: string, definition: CostCategoryDefinition, createdBy: string): Promise<CostCategoryVersionsDto> {
    await this.check(organizationId, key, definition);
    const { defaultValue, rules, splits = [] } = definition;
    await this.repository.save(organizationId, key, definition.effectiveFrom, createdBy, { defaultValue, rules, splits });
    return this.versions(organizationId, key);
  }

  /** Ends a category (a version recording the deletion); 404 when it is not defined now. */
  async delete(organizationId: string, key: string, createdBy: string): Promise<CostCategoryVersionsDto> {
    const records = await this.repository.versions(organizationId, key);
    if (!records.at(-1)?.definition) throw notDefined(key);
    await this.repository.save(organizationId, key, todayUtc().slice(0, 7), createdBy);
    return this.versions(organizationId, key);
  }

  /** What saving `definition` would change over a window: each value's cost and rows, the unallocated share, the largest changes. */
  async preview(
    scope: OrganizationScope,
    key: string,
    definition: CostCategoryDefinition,
    asked: PreviewWindow,
  ): Promise<CostCategoryPreviewDto> {
    const records = await this.check(scope.organizationId, key, definition);
    const window = previewWindow(asked);
    const before = versionedCategories(records);
    const after = withProposal(before, records, key, definition);
    const beforeDefault = before.find((category) => category.key === key)?.segments.at(-1)?.category.defaultValue;
    const range = { start: window.from, end: window.to };
    return this.currencies.answer(scope, undefined, { dateRanges: [range] }, async (money) => {
      const read = async (categories: VersionedCategory[]) => {
        const ruleCategories = compileCategories(categories, [key], CATEGORY_COLUMNS);
        const questionScope = { ...scope, ...(ruleCategories ? { ruleCategories } : {}) };
        const moved = await this.splits.movedCost(byCategory(questionScope, key, range, money.conversion));
        const query = { scope: questionScope, key, window: range, conversion: money.conversion, splits: moved?.splits };
        const { sql, params } = buildCategoryPreviewQuery(costRowsTable(this.clickhouse), query);
        return this.clickhouse.query<CategoryPreviewRow>(sql, params, scope);
      };
      const [beforeRows, afterRows] = await Promise.all([read(before), read(after)]);
      return {
        key,
        window,
        currency: money.currency,
        values: afterRows.map((row) => ({ value: row.value, amortizedCost: Number(row.amortized_cost), rows: Number(row.rows) })),
        unallocatedShare: {
          before: unallocatedShare(beforeRows, beforeDefault),
          after: unallocatedShare(afterRows, definition.defaultValue),
        },
        changes: largestChanges(beforeRows, afterRows),
      };
    });
  }

  /** The organisation's versions, once `definition` is known to be one they can take (else a 400 naming each problem). */
  private async check(organizationId: string, key: string, definition: CostCategoryDefinition): Promise<CategoryVersionRecord[]> {
    definition.effectiveFrom ??= todayUtc().slice(0, 7);
    const records = await this.repository.versions(organizationId);
    const others = versionedCategories(records).map(unionOfVersions);
    const problems = definitionProblems(key, definition, others);
    if (problems.length === 0) problems.push(...sizeProblems(withProposal(versionedCategories(records), records, key, definition)));
    if (problems.length > 0) throw new InvalidRequestException(problems);
    return records;
  }
}

/** A problem when every rule-defined category, named at once, would compile to more SQL than a statement can hold. */
function sizeProblems(categories: VersionedCategory[]): string[] {
  const compiled = compileCategories(
    categories,
    categories.map((category) => category.key),
    CATEGORY_COLUMNS,
  );
  const size = compiled?.sql.length ?? 0;
  if (size <= MAX_CATEGORIES_SQL) return [];
  return [
    `rules: the organisation's rule-defined categories would compile to ${size} characters of SQL, more than ${MAX_CATEGORIES_SQL}; use fewer rules or merge conditions (one rule can list many values)`,
  ];
}

function notDefined(key: string): ApiError {
  return new ApiError(HttpStatus.NOT_FOUND, `No cost category "${key}" is defined by rules in this organisation.`);
}

function versionDto(record: CategoryVersionRecord): CostCategoryVersionDto {
  const { definition } = record;
  return {
    version: record.version,
    effectiveFrom: record.effectiveFrom,
    ...(definition ? { defaultValue: definition.defaultValue, rules: definition.rules, splits: definition.splits } : {}),
    createdAt: record.createdAt,
    createdBy: record.createdBy,
    deleted: !definition,
  };
}

/** The categories as they would be with `definition` saved as the key's next version. */
function withProposal(
  current: VersionedCategory[],
  records: readonly CategoryVersionRecord[],
  key: string,
  definition: CostCategoryDefinition,
): VersionedCategory[] {
  const own = records
    .filter((record) => record.key === key)
    .map((record) => ({
      effectiveFrom: record.effectiveFrom,
      ...(record.definition ? { category: ruleDefinedCategory(key, record.definition) } : {}),
    }));
  const proposed = ruleDefinedCategory(key, definition);
  const segments = effectiveSegments([...own, { effectiveFrom: definition.effectiveFrom, category: proposed }]);
  return [...current.filter((category) => category.key !== key), { key, segments }];
}

/** The window asked, each end defaulting: from the first day of the month PREVIEW_PAST_MONTHS ago, to today. */
function previewWindow(asked: PreviewWindow): { from: string; to: string } {
  const today = todayUtc();
  const window = { from: asked.from ?? formatMonthNumber(monthNumber(today) - PREVIEW_PAST_MONTHS), to: asked.to ?? today };
  const problems = [
    ...(['from', 'to'] as const).filter((end) => !isCalendarDate(window[end])).map((end) => `${end}: not a calendar date`),
    ...(window.from > window.to ? ['from: after to'] : []),
  ];
  if (problems.length > 0) throw new InvalidRequestException(problems);
  return window;
}

/** The share (4 decimals) of the cost with no owner: the default value, or no value at all. */
function unallocatedShare(rows: readonly CategoryPreviewRow[], defaultValue: string | undefined): number {
  const total = rows.reduce((sum, row) => sum + scaled(row.amortized_cost), 0n);
  const unallocated = rows
    .filter((row) => row.value === NOT_SET || row.value === defaultValue)
    .reduce((sum, row) => sum + scaled(row.amortized_cost), 0n);
  return shareHalfUp(unallocated, total);
}

function largestChanges(before: readonly CategoryPreviewRow[], after: readonly CategoryPreviewRow[]): PreviewChangeDto[] {
  const costs = new Map<string, { before: bigint; after: bigint }>();
  const at = (value: string) => costs.get(value) ?? costs.set(value, { before: 0n, after: 0n }).get(value)!;
  before.forEach((row) => (at(row.value).before += scaled(row.amortized_cost)));
  after.forEach((row) => (at(row.value).after += scaled(row.amortized_cost)));
  const magnitude = (cost: { before: bigint; after: bigint }) =>
    cost.after > cost.before ? cost.after - cost.before : cost.before - cost.after;
  return [...costs]
    .filter(([, cost]) => cost.before !== cost.after)
    .sort(([a, x], [b, y]) => (magnitude(y) > magnitude(x) ? 1 : magnitude(y) < magnitude(x) ? -1 : a < b ? -1 : 1))
    .slice(0, PREVIEW_CHANGES)
    .map(([value, cost]) => ({ value, before: Number(decimalText(cost.before)), after: Number(decimalText(cost.after)) }));
}

/** A preview's window as a /data question grouped by the category alone, monthly (what its splits move). */
function byCategory(scope: OrganizationScope, key: string, window: Required<DateRange>, conversion?: CurrencyConversion): CostDataQuery {
  return windowQuestion({ scope, window, dimensions: [{ kind: 'costCategory', key }], dateGrouping: 'monthly', conversion });
}
