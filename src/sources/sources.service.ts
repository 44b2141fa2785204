import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { mkdir, stat } from 'node:fs/promises';
import { clickhouseTimestamp, isoFromClickhouse } from '../common/dates/clickhouse-time';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { confiningFolder, isInsideFolder, isUnderRoot, organizationFolder, OutsideFolder, realPathInside } from './file-confinement';
import { PeriodChange, SourceCheckService } from './source-check.service';
import { type SourceKind, CheckOutcome, CheckRow, SourceRow, SourcesRepository } from '../store/repositories/sources.repository';
import { locationUrl, parseSourceLocation, SourceOptions } from './source-location';

/** Sources of one organisation at most (each is listed and checked at every poll). */
export const MAX_SOURCES_PER_ORGANIZATION = 100;

export interface NewSource {
  integrationId: string;
  kind: SourceKind;
  url: string;
  options?: SourceOptions;
}

/**
 * Who adds a source: the admin API only a folder of the organisation's under INGEST_FILE_ROOT; the operator's CLI also
 * any folder outside the root (under it, the same organisation's folder).
 */
export type SourceAuthor = 'operator' | 'api';

export interface SourceStatus {
  lastCheckAt: string | null;
  lastOutcome: CheckOutcome | null;
  lastImportAt: string | null;
  lastImportDelivery: string | null;
  lastImportBillingPeriods: string[];
  /** Seconds from the imported delivery's arrival to its publication. */
  lastImportLagSeconds: number | null;
  lastProblem: { at: string; outcome: CheckOutcome; message: string } | null;
}

export interface SourceView {
  sourceId: string;
  integrationId: string;
  kind: SourceKind;
  url: string;
  /** Endpoint, region, path style and the names of the credentials' environment variables (never their values). */
  options: SourceOptions;
  createdAt: string;
  status: SourceStatus;
}

export interface CheckView {
  checkedAt: string;
  outcome: CheckOutcome;
  delivery: string;
  deliveredAt: string | null;
  billingPeriods: string[];
  rows: number;
  changes: PeriodChange[];
  message: string;
}

/** A source that cannot be added as asked: the message names the field. */
export class SourceRefused extends Error {
  constructor(
    message: string,
    readonly status: 400 | 403,
  ) {
    super(message);
  }
}

const PROBLEMS: readonly CheckOutcome[] = ['incomplete', 'refused', 'unreadable', 'unreachable', 'failed'];

/** An organisation's data sources: added, listed with their status, removed, checked now, and their history. */
@Injectable()
export class SourcesService {
  constructor(
    private readonly sources: SourcesRepository,
    private readonly checker: SourceCheckService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async add(organizationId: string, source: NewSource, author: SourceAuthor): Promise<SourceView> {
    const location = parseSourceLocation(source.url, source.options);
    if ('problem' in location) throw new SourceRefused(location.problem, 400);
    if (location.scheme === 'file') await this.checkFolder(organizationId, location.path, author);
    else if (author === 'api') {
      // The service's credentials (named ones, or the SDK's own chain) would sign requests to wherever a source points.
      throw new SourceRefused(
        `url: ${location.scheme}:// sources read with the service's credentials, so the operator adds them (CLI \`sources add\`)`,
        403,
      );
    }
    const existing = await this.sources.list(organizationId);
    if (existing.length >= MAX_SOURCES_PER_ORGANIZATION) {
      throw new SourceRefused(
        `source limit reached: this organization has ${existing.length} sources (at most ${MAX_SOURCES_PER_ORGANIZATION}); remove one first`,
        403,
      );
    }
    const row: SourceRow = {
      organization_id: organizationId,
      source_id: randomUUID(),
      integration_id: source.integrationId,
      kind: source.kind,
      location: locationUrl(location),
      options: JSON.stringify(source.options ?? {}),
      created_at: clickhouseTimestamp(new Date()),
    };
    await this.sources.save(row);
    return this.view(row, []);
  }

  async list(organizationId: string): Promise<SourceView[]> {
    const rows = await this.sources.list(organizationId);
    const latest = await this.sources.latest(organizationId, PROBLEMS);
    return rows.map((row) =>
      this.view(
        row,
        latest.filter((check) => check.source_id === row.source_id),
      ),
    );
  }

  async find(organizationId: string, sourceId: string): Promise<SourceView | undefined> {
    const row = await this.sources.find(organizationId, sourceId);
    return row && this.view(row, await this.sources.latest(organizationId, PROBLEMS, sourceId));
  }

  /** Removes a source (its imported data stays); undefined when the organisation has no such source. */
  async remove(organizationId: string, sourceId: string): Promise<SourceView | undefined> {
    const row = await this.sources.find(organizationId, sourceId);
    if (!row) return undefined;
    await this.sources.save(row, true);
    return this.view(row, await this.sources.latest(organizationId, PROBLEMS, sourceId));
  }

  /** Checks a source now, in this process; undefined when the organisation has no such source. */
  async run(organizationId: string, sourceId: string): Promise<{ busy: boolean; checks: CheckView[]; source: SourceView } | undefined> {
    const row = await this.sources.find(organizationId, sourceId);
    if (!row) return undefined;
    const result = await this.checker.check(row);
    return {
      busy: result.busy,
      checks: result.checks.map(toCheckView),
      source: this.view(row, await this.sources.latest(organizationId, PROBLEMS, sourceId)),
    };
  }

  async history(organizationId: string, sourceId: string, limit: number): Promise<CheckView[] | undefined> {
    if (!(await this.sources.find(organizationId, sourceId))) return undefined;
    return (await this.sources.history(organizationId, sourceId, limit)).map(toCheckView);
  }

  /**
   * A file source must be a folder this service can read; under INGEST_FILE_ROOT (the only place the admin API may
   * name), a folder of the organisation's own, created on first use. Any other place is the same 403 with the same
   * message, whether it exists or not.
   */
  private async checkFolder(organizationId: string, path: string, author: SourceAuthor): Promise<void> {
    const root = this.config.ingestSources.fileRoot;
    if (author === 'api' && !root) {
      throw new SourceRefused(
        'url: file sources are added by the operator (CLI `sources add`) unless INGEST_FILE_ROOT names where they may be',
        403,
      );
    }
    const folder = organizationFolder(root, organizationId);
    const outside = new SourceRefused(
      `url: a file source of this organisation must be a folder in file://${folder}/ (its folder of INGEST_FILE_ROOT)`,
      403,
    );
    // Made on the organisation's first try, so the refusal names a folder that exists (unmakeable: refused below).
    if (root) await mkdir(folder, { recursive: true, mode: 0o750 }).catch(() => undefined);
    if (author === 'api' && !isUnderRoot(path, root)) throw outside;
    const confinement = confiningFolder(path, organizationId, root);
    if (!isInsideFolder(path, confinement)) throw outside;
    const real = await realPathInside(path, confinement).catch((error: unknown) => {
      if (error instanceof OutsideFolder) throw outside;
      return undefined;
    });
    if (!real || !(await stat(real)).isDirectory()) throw new SourceRefused(`url: ${path} is not a directory this service can read`, 400);
  }

  private view(row: SourceRow, latest: LatestCheck[]): SourceView {
    return {
      sourceId: row.source_id,
      integrationId: row.integration_id,
      kind: row.kind,
      url: row.location,
      options: JSON.parse(row.options || '{}') as SourceOptions,
      createdAt: isoFromClickhouse(row.created_at),
      status: statusOf(latest),
    };
  }
}

type LatestCheck = CheckRow & { role: 'last' | 'import' | 'problem' };

/** A source's status from its newest check, newest import and newest problem (SourcesRepository.latest). */
export function statusOf(latest: LatestCheck[]): SourceStatus {
  const last = latest.find((c) => c.role === 'last');
  const imported = latest.find((c) => c.role === 'import');
  const problem = latest.find((c) => c.role === 'problem');
  const lag = imported?.delivered_at
    ? (Date.parse(isoFromClickhouse(imported.checked_at)) - Date.parse(isoFromClickhouse(imported.delivered_at))) / 1000
    : null;
  return {
    lastCheckAt: last ? isoFromClickhouse(last.checked_at) : null,
    lastOutcome: last?.outcome ?? null,
    lastImportAt: imported ? isoFromClickhouse(imported.checked_at) : null,
    lastImportDelivery: imported?.delivery ?? null,
    lastImportBillingPeriods: imported?.billing_periods ?? [],
    lastImportLagSeconds: lag === null ? null : Math.max(0, Math.round(lag)),
    // A problem older than the last import is history, not the source's state.
    lastProblem:
      problem && (!imported || problem.checked_at > imported.checked_at)
        ? { at: isoFromClickhouse(problem.checked_at), outcome: problem.outcome, message: problem.message }
        : null,
  };
}

function toCheckView(check: CheckRow): CheckView {
  return {
    checkedAt: isoFromClickhouse(check.checked_at),
    outcome: check.outcome,
    delivery: check.delivery,
    deliveredAt: check.delivered_at ? isoFromClickhouse(check.delivered_at) : null,
    billingPeriods: check.billing_periods,
    rows: Number(check.rows),
    changes: JSON.parse(check.changes || '[]') as PeriodChange[],
    message: check.message,
  };
}
