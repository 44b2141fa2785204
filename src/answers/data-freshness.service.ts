import { Injectable, Logger } from '@nestjs/common';
import { organizationScopeOf } from '../cost-query/data-scope';
import { RuleCategoriesService } from '../cost-categories/rule-categories.service';
import { buildDataFreshnessQuery } from '../cost-query/data-freshness.query';
import { ClickhouseService } from '../store/clickhouse/clickhouse.service';
import { costRowsTable } from '../store/cost-rows';
import { CostDataVersion } from '../store/data-version/cost-data-version.service';

/** How fresh the cost data a key sees is: what every dashboard shows as "data through …". */
export interface DataFreshness {
  /** The last usage date (YYYY-MM-DD) with cost data; null without any. */
  dataThrough: string | null;
  /** When the latest of those rows was written (ISO 8601, UTC, whole seconds); null without any. */
  importedAt: string | null;
}

/** Whose freshness: an organisation, and the data scope of the asking key (its canonical JSON, if any). */
export interface FreshnessSubject {
  organizationId: string;
  dataScope?: string;
}

/** The response headers that carry a DataFreshness (absent when the organisation has no data). */
export const FRESHNESS_HEADERS = { dataThrough: 'X-Data-Through', importedAt: 'X-Data-Imported-At' } as const;

export function freshnessHeaders(freshness: DataFreshness): Record<string, string> {
  const headers: Record<string, string> = {};
  if (freshness.dataThrough !== null) headers[FRESHNESS_HEADERS.dataThrough] = freshness.dataThrough;
  if (freshness.importedAt !== null) headers[FRESHNESS_HEADERS.importedAt] = freshness.importedAt;
  return headers;
}

/** Organisations (and data scopes) whose freshness is remembered at once (the least recently asked for is forgotten first). */
const REMEMBERED_SUBJECTS = 10_000;

/**
 * The DataFreshness of what a key sees (its organisation, within its data scope), read once per data
 * version (CostDataVersion): a single small statement after each write, never one per request. Read for
 * the version an answer is keyed by, so an answer and its freshness describe the same data.
 */
@Injectable()
export class DataFreshnessService {
  private readonly logger = new Logger(DataFreshnessService.name);
  private readonly known = new Map<string, { version: string; freshness: Promise<DataFreshness> }>();

  constructor(
    private readonly clickhouse: ClickhouseService,
    private readonly versions: CostDataVersion,
    private readonly ruleCategories: RuleCategoriesService,
  ) {}

  /** The freshness at the organisation's current data version. */
  async current(subject: FreshnessSubject): Promise<DataFreshness> {
    return this.at(subject, await this.versions.current(subject.organizationId));
  }

  /** The freshness at `version` (as CostDataVersion.current gave it for the organisation): read once, then remembered. */
  at(subject: FreshnessSubject, version: string): Promise<DataFreshness> {
    const id = `${subject.organizationId.toLowerCase()}\n${subject.dataScope ?? ''}`;
    const known = this.known.get(id);
    this.known.delete(id); // re-inserted last: the map's order is the order of use
    if (known?.version === version) {
      this.known.set(id, known);
      return known.freshness;
    }
    const freshness = this.read(subject).catch((error: unknown) => {
      // Advisory headers: an answer is never refused for want of them; the next request reads again.
      if (this.known.get(id)?.freshness === freshness) this.known.delete(id);
      this.logger.warn(`Data freshness not read: ${error instanceof Error ? error.message : String(error)}`);
      return { dataThrough: null, importedAt: null };
    });
    this.known.set(id, { version, freshness });
    if (this.known.size > REMEMBERED_SUBJECTS) this.known.delete(this.known.keys().next().value as string);
    return freshness;
  }

  private async read(subject: FreshnessSubject): Promise<DataFreshness> {
    // A data scope naming a rule-defined category is the rows its rules give that value, as in the answers.
    const scope = await this.ruleCategories.scopeFor(organizationScopeOf(subject), {});
    const { sql, params } = buildDataFreshnessQuery(costRowsTable(this.clickhouse), scope);
    const [row] = await this.clickhouse.query<DataFreshness>(sql, params, scope);
    return { dataThrough: row?.dataThrough ?? null, importedAt: row?.importedAt ?? null };
  }
}
