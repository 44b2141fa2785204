import { Injectable, Logger } from '@nestjs/common';
import { messageOf } from '../common/errors/message-of';
import type { ActivatedKeys } from '../cost-query/activated-maps';
import { MapDimensionKind } from '../cost-query/filter-fields';
import { ClickhouseService } from '../infrastructure/clickhouse/clickhouse.service';
import { activatedMapMismatches, reloadActivatedKeys, rewriteOrganizationPartitions } from '../ingest/activated-maps';
import { BackupFence } from '../ingest/publish-fence';
import { KeyActivation, TagKeysRepository } from './tag-keys.repository';

/** Back-fill passes before an activation gives up (a row written meanwhile with the old keys asks for another). */
const BACKFILL_PASSES = 3;

export interface ActivationChange {
  /** Keys newly written: back-filled, then active. */
  activating: KeyActivation[];
  /** Keys no longer answered from the activated columns. */
  deactivated: KeyActivation[];
}

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
  ) {}

  /** Sets the organisation's activated keys to `wanted`: returns at once what changes; `backfilled` ends the change. */
  async change(organizationId: string, wanted: ActivatedKeys): Promise<ActivationChange & { backfilled: Promise<void> }> {
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
   * Fenced against imports' partition swaps (an import staged with the old keys refreshes its staging table after
   * the fence: partition-publish.ts): the keys are written, every node reloads them, the organisation's partitions
   * are rewritten and checked row by row, and only then are the keys active.
   */
  private async backfill(organizationId: string, keys: KeyActivation[]): Promise<void> {
    const fence = await BackupFence.hold(this.clickhouse, `tag-keys ${organizationId}`, (message) => this.logger.log(message));
    try {
      for (const { kind, key } of keys) await this.repository.save(organizationId, kind, key, 'backfilling');
      const hosts = await reloadActivatedKeys(this.clickhouse);
      const written = await this.repository.writtenKeys(organizationId);
      for (let pass = 1; ; pass++) {
        for (const host of hosts) await rewriteOrganizationPartitions(host.clickhouse, organizationId);
        const mismatches = await activatedMapMismatches(this.clickhouse, organizationId, written);
        if (mismatches === 0) break;
        if (pass === BACKFILL_PASSES) throw new Error(`${mismatches} row(s) still differ after ${pass} back-fill passes`);
      }
      for (const { kind, key } of keys) await this.repository.save(organizationId, kind, key, 'active');
      await fence.release('created');
      this.logger.log(`Activated ${keys.map(describeKey).join(', ')} for organisation ${organizationId}`);
    } catch (error) {
      await fence.release('failed', messageOf(error)).catch(() => undefined);
      throw error;
    }
  }
}

function describeKey(activation: { kind: MapDimensionKind; key: string }): string {
  return `${activation.kind}:${activation.key}`;
}
