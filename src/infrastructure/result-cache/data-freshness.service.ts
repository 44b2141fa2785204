import { Injectable, Logger } from '@nestjs/common';
import { ClickhouseService } from '../clickhouse/clickhouse.service';
import { CostDataVersion } from './cost-data-version.service';

/** How fresh an organisation's cost data is: what every dashboard shows as "data through …". */
export interface DataFreshness {
  /** The last usage date (YYYY-MM-DD) with cost data; null without any. */
  dataThrough: string | null;
  /** When the latest of those rows was written (ISO 8601, UTC, whole seconds); null without any. */
  importedAt: string | null;
}

/** The response headers that carry a DataFreshness (absent when the organisation has no data). */
export const FRESHNESS_HEADERS = { dataThrough: 'X-Data-Through', importedAt: 'X-Data-Imported-At' } as const;

export function freshnessHeaders(freshness: DataFreshness): Record<string, string> {
  const headers: Record<string, string> = {};
  if (freshness.dataThrough !== null) headers[FRESHNESS_HEADERS.dataThrough] = freshness.dataThrough;
  if (freshness.importedAt !== null) headers[FRESHNESS_HEADERS.importedAt] = freshness.importedAt;
  return headers;
}

/** Organisations whose freshness is remembered at once (the least recently asked for is forgotten first). */
const REMEMBERED_ORGANIZATIONS = 10_000;

/**
 * One organisation's DataFreshness, read once per data version (CostDataVersion): a single small
 * statement after each write, never one per request. Read for the version an answer is keyed by, so an
 * answer and its freshness describe the same data.
 */
@Injectable()
export class DataFreshnessService {
  private readonly logger = new Logger(DataFreshnessService.name);
  private readonly known = new Map<string, { version: string; freshness: Promise<DataFreshness> }>();

  constructor(
    private readonly clickhouse: ClickhouseService,
    private readonly versions: CostDataVersion,
  ) {}

  /** The freshness at the organisation's current data version. */
  async current(organizationId: string): Promise<DataFreshness> {
    return this.at(organizationId, await this.versions.current(organizationId));
  }

  /** The freshness at `version` (as CostDataVersion.current gave it): read once, then remembered. */
  at(organizationId: string, version: string): Promise<DataFreshness> {
    const known = this.known.get(organizationId);
    this.known.delete(organizationId); // re-inserted last: the map's order is the order of use
    if (known?.version === version) {
      this.known.set(organizationId, known);
      return known.freshness;
    }
    const freshness = this.read(organizationId).catch((error: unknown) => {
      // Advisory headers: an answer is never refused for want of them; the next request reads again.
      if (this.known.get(organizationId)?.freshness === freshness) this.known.delete(organizationId);
      this.logger.warn(`Data freshness not read: ${error instanceof Error ? error.message : String(error)}`);
      return { dataThrough: null, importedAt: null };
    });
    this.known.set(organizationId, { version, freshness });
    if (this.known.size > REMEMBERED_ORGANIZATIONS) this.known.delete(this.known.keys().next().value as string);
    return freshness;
  }

  private async read(organizationId: string): Promise<DataFreshness> {
    const [row] = await this.clickhouse.query<DataFreshness>(
      `SELECT toString(maxOrNull(usage_date)) AS dataThrough,
              formatDateTime(maxOrNull(imported_at), '%Y-%m-%dT%H:%i:%SZ', 'UTC') AS importedAt
       FROM ${this.clickhouse.table('cost_line_items')}
       WHERE organization_id = {organization_id:UUID}`,
      { organization_id: organizationId },
      { organizationId },
    );
    return { dataThrough: row?.dataThrough ?? null, importedAt: row?.importedAt ?? null };
  }
}
