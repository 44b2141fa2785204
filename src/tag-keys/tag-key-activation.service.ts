import { Inject, Injectable, Logger } from '@nestjs/common';
import { allSettled } from '../common/async/all-settled';
import { messageOf } from '../common/errors/message-of';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import type { ActivatedKeys } from '../cost-query/activated-maps';
import { dimensionName } from '../cost-query/dimension-registry';
import { MapDimensionKind } from '../cost-query/filter-fields';
import { ClickhouseService } from '../store/clickhouse/clickhouse.service';
import { activatedMapMismatches, reloadActivatedKeys, rewriteOrganizationPartitions } from '../store/activated-maps';
import { PublishProtocol } from '../store/publish/publish-protocol';
import { MAX_ACTIVATED_KEYS } from './activated-keys-limit';
import type { KeyPresenceRow } from '../cost-query/key-presence.query';
import { KeyActivation, KeyPresence, keyPresences, TagKeysRepository } from '../store/repositories/tag-keys.repository';

/** Back-fill passes before an activation gives up (a row written meanwhile with the old keys asks for another). */
const BACKFILL_PASSES = 3;

export interface ActivationChange {
  /** Keys newly written: back-filled, then active. */
  activating: KeyActivation[];
  /** Keys no longer answered from the activated columns. */
  deactivated: KeyActivation[];
}

/** A change under way: `backfilled` settles when the keys activated are active (or the back-fill failed). */
export type ActivationInProgress = ActivationChange & { backfilled: Promise<void> };

/**
 * Changes which keys an organisation's activated columns hold, without changing any answer: a key is written by
 * every new row and back-filled into the old ones while questions keep reading the full maps; only once every row
 * is verified does a question read it from the activated columns. A key deactivated is read from the full maps at
 * once; new rows carry it for 30 more minutes (the dictionary, migration 0027: an instance that has not yet seen the
 * change may still read it), and the values stay, unread, until the organisation's next back-fill rewrites them.
 */
@Injectable()
export class TagKeyActivationService {
  private readonly logger = new Logger('TagKeys');

  constructor(
    private readonly clickhouse: ClickhouseService,
    private readonly repository: TagKeysRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Sets the organisation's activated keys to `wanted`: returns at once what changes; `backfilled` ends the change. */
  async change(organizationId: string, wanted: ActivatedKeys): Promise<ActivationInProgress> {
    await this.repository.recordChoice(organizationId);
    const current = await this.repository.activations(organizationId);
    const isWanted = (a: { kind: MapDimensionKind; key: string }) => wanted[a.kind].includes(a.key);
    const deactivated = current.filter((a) => !isWanted(a));
    for (const a of deactivated) await this.repository.save(organizationId, a.kind, a.key, 'inactive');
    const activating = (Object.keys(wanted) as MapDimensionKind[]).flatMap((kind) =>
      [...new Set(wanted[kind])]
        .filter((key) => !current.some((a) => a.kind === kind && a.key === key && a.state === 'active'))
        .map((key) => ({ kind, key, state: 'backfilling' as const, updatedAt: '' })),
    );
    // Recorded before answering (the caller lists them as back-filling); recorded again once the fence is held.
    for (const { kind, key } of activating) await this.repository.save(organizationId, kind, key, 'backfilling');
    const backfilled = activating.length > 0 ? this.backfill(organizationId, activating) : Promise.resolve();
    return { activating, deactivated, backfilled };
  }

  /**
   * The default (TAG_KEYS_DEFAULT), called once an import brought data: an organisation that never chose its keys gets
   * the suggested ones (tag-keys.repository.ts), which makes that its choice. Undefined when it chose already, the
   * default is off, or nothing is suggested yet (asked again after its next import).
   */
  private async activateSuggested(organizationId: string): Promise<ActivationInProgress | undefined> {
    if (!(await this.defaultApplies(organizationId))) return undefined;
    return this.activateFrom(organizationId, await this.repository.presentKeys(organizationId));
  }

  /**
   * The default before an organisation's first import writes a row (IngestFocusOptions.beforeWriting): the keys
   * suggested by the files themselves are activated while there is nothing to back-fill, and loaded on every node, so
   * the import writes their columns and nothing is rewritten after it. The keys once active; [] when the default does
   * not apply, the organisation has rows already, the files cannot be described before the load, or they suggest
   * nothing: the import's end then decides as before.
   */
  async activateSuggestedBeforeFirstImport(
    organizationId: string,
    keyPresence: () => Promise<KeyPresenceRow[] | undefined>,
    started?: (keys: string[]) => void,
  ): Promise<KeyActivation[]> {
    if (!(await this.defaultApplies(organizationId)) || (await this.repository.hasRows(organizationId))) return [];
    const rows = await keyPresence().catch((error: unknown) => {
      this.logger.warn(`The files' tag keys could not be read before the import (${messageOf(error)}); chosen after it instead`);
      return undefined;
    });
    const change = rows && (await this.activateFrom(organizationId, keyPresences(rows)));
    await completed(change, started);
    return change?.activating ?? [];
  }

  private async defaultApplies(organizationId: string): Promise<boolean> {
    return this.config.activateSuggestedTagKeys && !(await this.repository.hasChosen(organizationId));
  }

  /** Activates the suggested keys of `present` (at most MAX_ACTIVATED_KEYS of each kind); undefined when none is. */
  private async activateFrom(organizationId: string, present: KeyPresence[]): Promise<ActivationInProgress | undefined> {
    const suggested = present.filter((key) => key.suggested);
    if (suggested.length === 0) return undefined;
    const keysOf = (kind: MapDimensionKind) =>
      suggested
        .filter((k) => k.kind === kind)
        .map((k) => k.key)
        .slice(0, MAX_ACTIVATED_KEYS);
    const change = await this.change(organizationId, { tag: keysOf('tag'), costCategory: keysOf('costCategory') });
    this.logger.log(`Activating the suggested keys ${change.activating.map(describeKey).join(', ')} for organisation ${organizationId}`);
    return change;
  }

  /**
   * activateSuggested, waited for: the keys it activated (`tag:team` …) once active, [] when it had none to activate.
   * `started` hears them before the back-fill. What its callers run after an import: a failure fails nothing imported.
   */
  async activateSuggestedKeys(organizationId: string, started?: (keys: string[]) => void): Promise<string[]> {
    return completed(await this.activateSuggested(organizationId), started);
  }

  /**
   * Fenced against imports' partition swaps (an import staged with the old keys refreshes its staging table after
   * the fence: partition-publish.ts): the keys are written, every node reloads them, the organisation's partitions
   * are rewritten and checked row by row, and only then are the keys active.
   */
  private async backfill(organizationId: string, keys: KeyActivation[]): Promise<void> {
    await new PublishProtocol(this.clickhouse).fence(
      `tag-keys ${organizationId}`,
      (message) => this.logger.log(message),
      async () => {
        for (const { kind, key } of keys) await this.repository.save(organizationId, kind, key, 'backfilling');
        const hosts = await reloadActivatedKeys(this.clickhouse);
        const written = await this.repository.writtenKeys(organizationId);
        for (let pass = 1; ; pass++) {
          // Each host rewrites its own copy of the partitions: side by side.
          await allSettled(hosts.map((host) => rewriteOrganizationPartitions(host.clickhouse, organizationId)));
          const mismatches = await activatedMapMismatches(this.clickhouse, organizationId, written);
          if (mismatches === 0) break;
          if (pass === BACKFILL_PASSES) throw new Error(`${mismatches} row(s) still differ after ${pass} back-fill passes`);
        }
        for (const { kind, key } of keys) await this.repository.save(organizationId, kind, key, 'active');
      },
    );
    this.logger.log(`Activated ${keys.map(describeKey).join(', ')} for organisation ${organizationId}`);
  }
}

/** The keys a change activated (`tag:team` …) once active, `started` told them first; [] without a change. */
async function completed(change: ActivationInProgress | undefined, started?: (keys: string[]) => void): Promise<string[]> {
  if (!change) return [];
  const keys = change.activating.map(describeKey);
  started?.(keys);
  await change.backfilled;
  return keys;
}

/** A key as the API names its dimension: `tag:team`, `costCategory:Business Unit`. */
export function describeKey(activation: { kind: MapDimensionKind; key: string }): string {
  return dimensionName({ kind: activation.kind, key: activation.key });
}
