import { Inject, Injectable, Logger } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Redis from 'ioredis';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { describeKey, TagKeyActivationService } from '../tag-keys/tag-key-activation.service';
import type { KeyActivation } from '../store/repositories/tag-keys.repository';
import { clickhouseTimestamp } from '../common/dates/clickhouse-time';
import { ClickhouseService } from '../store/clickhouse/clickhouse.service';
import { REDIS } from '../infrastructure/redis/redis.module';
import { metrics } from '../observability/prometheus-metrics';
import { describeImportedContracts } from '../ingest/contract-commitment-load';
import { FocusIngestError } from '../ingest/focus-files';
import { FilesToWrite, ingestFocus } from '../ingest/ingest-focus';
import { PublishProtocol } from '../store/publish/publish-protocol';
import { Delivery, findDeliveries, manifestKeys } from './delivery-layouts';
import { planSource } from './delivery-plan';
import { ManifestCache } from './manifest-cache';
import { MetricFilesImport } from './metric-files-import';
import { OutsideFolder } from './file-confinement';
import { MissingCredential, openStore, SourceStore } from './object-stores';
import { ListingTooLong, RefusedObject, refusedObjectsText, SourceListing } from './source-listing';
import { RedisLease } from '../infrastructure/redis/redis-lease';
import { parseSourceLocation, SourceOptions } from './source-location';
import { CheckOutcome, CheckRow, PeriodTotal, SourceRow, SourcesRepository } from '../store/repositories/sources.repository';

/** A source's lock while it is checked: held by one process at a time; renewed while an import runs. */
const SOURCE_LOCK_TTL_MS = 60_000;

/** Per billing period and currency, a restatement's Σ before → after (exact Decimal text; '0' where there was none). */
export interface PeriodChange {
  billingPeriod: string;
  currency: string;
  billedBefore: string;
  billedAfter: string;
  amortizedBefore: string;
  amortizedAfter: string;
}

/** What one check did: the rows it recorded (none when another process was checking the same source). */
export interface CheckResult {
  busy: boolean;
  checks: CheckRow[];
}

/**
 * One check of one source: list its objects (one listing; only manifests are read), find its deliveries by its
 * layout's rule, import each new complete delivery through the importer (all or nothing, per billing period), and
 * record what it found and did, with each imported period's totals before → after.
 */
@Injectable()
export class SourceCheckService {
  private readonly logger = new Logger('DataSources');
  private readonly manifests = new ManifestCache();

  constructor(
    private readonly clickhouse: ClickhouseService,
    private readonly sources: SourcesRepository,
    @Inject(REDIS) private readonly redis: Redis | null,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly tagKeys: TagKeyActivationService,
    private readonly metricFiles: MetricFilesImport,
  ) {}

  /** `retryAfterMs`: when the worker tries again should the source be unreachable (said in that check's message). */
  async check(source: SourceRow, options: { retryAfterMs?: number } = {}): Promise<CheckResult> {
    const lock = new RedisLease(this.redis, `cost-insights:ingest-source:${source.source_id}`, SOURCE_LOCK_TTL_MS);
    if (!(await lock.acquire())) return { busy: true, checks: [] };
    const renewal = setInterval(() => void lock.renew().catch(() => undefined), SOURCE_LOCK_TTL_MS / 3);
    try {
      const checks = (await this.checkHeld(source)).map((check) =>
        check.outcome === 'unreachable' && options.retryAfterMs !== undefined
          ? { ...check, message: `${check.message}; the worker tries again in ${duration(options.retryAfterMs)}` }
          : check,
      );
      for (const check of checks) {
        await this.sources.recordCheck(check);
        metrics.sourceChecks.inc({ outcome: check.outcome });
        if (check.outcome === 'imported' && check.delivered_at) {
          metrics.sourceImportLag.observe(Math.max(0, (Date.parse(`${check.checked_at}Z`) - Date.parse(`${check.delivered_at}Z`)) / 1000));
        }
      }
      return { busy: false, checks };
    } finally {
      clearInterval(renewal);
      await lock.release().catch(() => undefined);
    }
  }

  private async checkHeld(source: SourceRow): Promise<CheckRow[]> {
    const location = parseSourceLocation(source.location, JSON.parse(source.options || '{}') as SourceOptions);
    if ('problem' in location) return [this.row(source, 'unreachable', { message: location.problem })];
    const now = Date.now();
    let listing: SourceListing;
    let deliveries: Delivery[];
    let store: SourceStore;
    try {
      store = openStore(location, {
        organizationId: source.organization_id,
        fileRoot: this.config.ingestSources.fileRoot,
        maxListedObjects: this.config.ingestSources.maxListedObjects,
      });
      listing = await store.list();
      const { objects } = listing;
      const manifests = await this.manifests.texts(source.source_id, objects, manifestKeys(source.kind, objects), (key) => {
        metrics.sourceObjectReads.inc({ object: 'manifest' });
        return store.readText(key);
      });
      deliveries = await findDeliveries(source.kind, objects, manifests, {
        nowMs: now,
        settleMs: this.config.ingestSources.settleSeconds * 1000,
      });
    } catch (error) {
      if (error instanceof OutsideFolder || error instanceof ListingTooLong) {
        return [this.row(source, 'refused', { message: `${source.location}: ${error.message}` })];
      }
      return [this.row(source, 'unreachable', { message: `${source.location}: ${unreachableReason(error)}` })];
    }
    const [imported, reported] = await Promise.all([
      this.sources.imported(source.organization_id, source.source_id),
      this.sources.reported(source.organization_id, source.source_id),
    ]);
    const refused = new Set([...reported].filter((key) => key.startsWith('refused:')).map((key) => key.slice('refused:'.length)));
    const plan = planSource(deliveries, imported, refused, now, this.config.ingestSources.incompleteAfterSeconds * 1000);
    const fresh = (outcome: CheckOutcome, d: Pick<Delivery, 'fingerprint'>) => !reported.has(`${outcome}:${d.fingerprint}`);
    const refusedObjects = refusedObjectsRow(listing.refused);
    const rows = [
      ...(refusedObjects && fresh('refused', refusedObjects) ? [this.row(source, 'refused', refusedObjects)] : []),
      ...plan.unreadable.filter((d) => fresh('unreadable', d)).map((d) => this.row(source, 'unreadable', deliveryFields(d, d.problem!))),
      ...plan.incomplete
        .filter((d) => fresh('incomplete', d))
        .map((d) => this.row(source, 'incomplete', deliveryFields(d, `incomplete delivery: ${listed(d.missing)}`))),
    ];
    for (const delivery of plan.toImport) {
      rows.push(await this.importDelivery(source, store, delivery));
    }
    if (source.kind !== 'metrics-files' && rows.some((row) => row.outcome === 'imported')) await this.activateSuggestedKeys(source);
    return rows.length > 0 ? rows : [this.row(source, 'unchanged', { message: waitingText(plan.waiting, this.config.ingestSources) })];
  }

  /** The default once data came in (TAG_KEYS_DEFAULT): waited for, so one check's back-fill never overlaps the next. */
  private async activateSuggestedKeys(source: SourceRow): Promise<void> {
    const keys = await this.reportingFailure(source, () => this.tagKeys.activateSuggestedKeys(source.organization_id), []);
    if (keys.length > 0) this.logger.log(`source ${source.source_id}: activated the suggested tag keys ${keys.join(', ')}`);
  }

  /** The default before a first import writes a row, from its files: the keys then in force (none: decided after it). */
  private async activateSuggestedBeforeFirstImport(source: SourceRow, files: FilesToWrite): Promise<KeyActivation[]> {
    const activate = () => this.tagKeys.activateSuggestedBeforeFirstImport(source.organization_id, () => files.keyPresence());
    const keys = await this.reportingFailure(source, activate, []);
    if (keys.length > 0)
      this.logger.log(
        `source ${source.source_id}: activated the suggested tag keys ${keys.map(describeKey).join(', ')} before its first import`,
      );
    return keys;
  }

  /** An activation's failure fails nothing imported: logged, and `none` answered. */
  private async reportingFailure<T>(source: SourceRow, activate: () => Promise<T>, none: T): Promise<T> {
    try {
      return await activate();
    } catch (error) {
      this.logger.warn(`source ${source.source_id}: activating the suggested tag keys failed (the import stands): ${describe(error)}`);
      return none;
    }
  }

  private async importDelivery(source: SourceRow, store: SourceStore, delivery: Delivery): Promise<CheckRow> {
    const oversized = delivery.parts.filter((part) => part.size > this.config.ingestSources.maxObjectBytes);
    if (oversized.length > 0) {
      const reason = `larger than INGEST_MAX_OBJECT_BYTES (${this.config.ingestSources.maxObjectBytes} bytes)`;
      const named = refusedObjectsText(oversized.map((part) => ({ key: part.key, reason: `${part.size} bytes, ${reason}` })));
      return this.row(source, 'refused', deliveryFields(delivery, `delivery refused, the data before it stays: ${named}`));
    }
    // Remote parts are streamed to a directory of their own (disk, not memory), removed once imported or refused.
    const downloads = await mkdtemp(join(tmpdir(), 'cost-insights-delivery-'));
    try {
      if (source.kind === 'metrics-files') return await this.loadMetricFiles(source, store, delivery, downloads);
      // First what an import killed while publishing left (the importer would do it too, after `before` was read):
      // the totals before are those readers saw, not a half-published state.
      await new PublishProtocol(this.clickhouse).recover();
      const periods = await this.sources.integrationPeriods(source.organization_id, source.integration_id);
      const before = await this.sources.periodTotals(source.organization_id, source.integration_id, periods);
      metrics.sourceObjectReads.inc({ object: 'part' }, delivery.parts.length);
      const summary = await ingestFocus(this.clickhouse, {
        paths: await store.parts(delivery.parts, downloads),
        organizationId: source.organization_id,
        integrationId: source.integration_id,
        beforeWriting: (files) => this.activateSuggestedBeforeFirstImport(source, files),
      });
      const after = await this.sources.periodTotals(source.organization_id, source.integration_id, summary.billingPeriods);
      this.logger.log(`source ${source.source_id}: imported ${delivery.id} (${summary.rows} rows, ${summary.billingPeriods.join(', ')})`);
      return this.row(source, 'imported', {
        ...deliveryFields(
          delivery,
          [...summary.warnings, ...(summary.contracts ? [describeImportedContracts(summary.contracts)] : [])].join('\n'),
        ),
        billing_periods: summary.billingPeriods,
        rows: summary.rows,
        changes: JSON.stringify(periodChanges(before, after, summary.billingPeriods)),
      });
    } catch (error) {
      if (error instanceof FocusIngestError) {
        return this.row(source, 'refused', deliveryFields(delivery, `delivery refused, the data before it stays: ${error.message}`));
      }
      // The cause, in the engine's or the SDK's words, is for the operator's log; the source's history says what happens next.
      this.logger.warn(`source ${source.source_id}: importing ${delivery.id} failed, retried at the next check: ${describe(error)}`);
      return this.row(
        source,
        'failed',
        deliveryFields(delivery, `import failed, retried at the next check: ${failureReason(error)} (the service's log has the details)`),
      );
    } finally {
      await rm(downloads, { recursive: true, force: true });
    }
  }

  /** One metric's files, loaded as one load of its values (not cost rows: no publish, no period totals). */
  private async loadMetricFiles(source: SourceRow, store: SourceStore, delivery: Delivery, downloads: string): Promise<CheckRow> {
    metrics.sourceObjectReads.inc({ object: 'part' }, delivery.parts.length);
    const outcome = await this.metricFiles.load(source.organization_id, delivery, await store.parts(delivery.parts, downloads));
    if ('refused' in outcome)
      return this.row(source, 'refused', deliveryFields(delivery, `delivery refused, the values before it stay: ${outcome.refused}`));
    if ('notYet' in outcome) return this.row(source, 'failed', deliveryFields(delivery, outcome.notYet));
    const { values, months, first, last } = outcome.loaded;
    this.logger.log(`source ${source.source_id}: loaded ${delivery.id} (${values} values, ${first} to ${last})`);
    return this.row(source, 'imported', {
      ...deliveryFields(delivery, `${values} values of ${delivery.scope} from ${first} to ${last}; each day given replaces that day`),
      billing_periods: months,
      rows: values,
    });
  }

  private row(source: SourceRow, outcome: CheckOutcome, fields: Partial<CheckRow>): CheckRow {
    return {
      organization_id: source.organization_id,
      source_id: source.source_id,
      checked_at: clickhouseTimestamp(Date.now()),
      outcome,
      scope: '',
      delivery: '',
      delivery_order: '',
      fingerprint: '',
      delivered_at: null,
      billing_periods: [],
      rows: 0,
      changes: '[]',
      message: '',
      ...fields,
    };
  }
}

function deliveryFields(delivery: Delivery, message: string): Partial<CheckRow> {
  return {
    scope: delivery.scope,
    delivery: delivery.id,
    delivery_order: delivery.order,
    fingerprint: delivery.fingerprint,
    delivered_at: delivery.deliveredMs > 0 ? clickhouseTimestamp(delivery.deliveredMs) : null,
    message,
  };
}

/** Each imported period's totals per currency before → after ('0' on the side where it had none). */
export function periodChanges(before: PeriodTotal[], after: PeriodTotal[], periods: string[]): PeriodChange[] {
  const key = (t: PeriodTotal) => `${t.billing_period}\u0000${t.currency}`;
  const was = new Map(before.filter((t) => periods.includes(t.billing_period)).map((t) => [key(t), t]));
  const now = new Map(after.map((t) => [key(t), t]));
  return [...new Set([...was.keys(), ...now.keys()])].sort().map((k) => {
    const [billingPeriod, currency] = k.split('\u0000');
    return {
      billingPeriod,
      currency,
      billedBefore: was.get(k)?.billed ?? '0',
      billedAfter: now.get(k)?.billed ?? '0',
      amortizedBefore: was.get(k)?.amortized ?? '0',
      amortizedAfter: now.get(k)?.amortized ?? '0',
    };
  });
}

/**
 * What a check that imported nothing waits for, or '' when it waits for nothing: a delivery whose files are still
 * settling, or a manifest's missing parts, until they arrive or its deadline passes (then reported as incomplete).
 */
function waitingText(waiting: Delivery[], settings: AppConfig['ingestSources']): string {
  if (waiting.length === 0) return '';
  const reasons = waiting.map((delivery) => `${delivery.id}: ${listed(delivery.missing)}`);
  return (
    `waiting for ${waiting.length === 1 ? 'a delivery' : `${waiting.length} deliveries`} (${reasons.join('; ')}); ` +
    `files settle for INGEST_SETTLE_SECONDS (${settings.settleSeconds} s), missing parts are reported after ` +
    `INGEST_INCOMPLETE_AFTER_SECONDS (${settings.incompleteAfterSeconds} s)`
  );
}

/** At most ten of a list's items, then how many more: a message stays readable whatever a manifest names. */
function listed(items: string[], shown = 10): string {
  return items.slice(0, shown).join('; ') + (items.length > shown ? `; and ${items.length - shown} more` : '');
}

/** A check row naming the objects a listing refused (fingerprinted by them: reported once, not at every poll). */
function refusedObjectsRow(refused: RefusedObject[]): (Partial<CheckRow> & { fingerprint: string }) | undefined {
  if (refused.length === 0) return undefined;
  const text = refused.map((object) => `${object.key}\u0000${object.reason}`).join('\n');
  return { fingerprint: createHash('sha256').update(text).digest('hex'), message: refusedObjectsText(refused) };
}

/** Why a source could not be listed, in words for its admin: the error's code and first line, no stack. */
function unreachableReason(error: unknown): string {
  if (error instanceof MissingCredential) return error.message;
  switch ((error as NodeJS.ErrnoException)?.code) {
    case 'ENOENT':
      return 'the folder does not exist';
    case 'ENOTDIR':
      return 'not a folder';
    case 'EACCES':
    case 'EPERM':
      return 'the service may not read the folder (permission denied)';
    default:
      return describe(error);
  }
}

/** What kind of failure stopped an import, without the engine's text (that goes to the log). */
function failureReason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException)?.code;
  if (code === 'ECONNREFUSED' || code === 'ECONNRESET' || code === 'ETIMEDOUT') return 'the store or the source did not answer';
  if (code === 'ENOSPC') return 'the temporary folder is full';
  const name = (error as Error)?.name;
  if (typeof name === 'string' && /^(NoSuchKey|NotFound|AccessDenied|Forbidden|BlobNotFound)/.test(name)) {
    return `the object store refused a download (${name})`;
  }
  return 'an internal error';
}

function describe(error: unknown): string {
  const code = (error as NodeJS.ErrnoException)?.code;
  const message = error instanceof Error ? error.message : String(error);
  return code && !message.includes(code) ? `${code}: ${message}` : message.split('\n')[0];
}

/** A wait in words: seconds up to two minutes, then minutes. */
function duration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  return seconds < 120 ? `${seconds} s` : `${Math.round(seconds / 60)} min`;
}
