import { Injectable } from '@nestjs/common';
import { clickhouseTimestamp } from '../../common/dates/clickhouse-time';
import type { ActivatedKeys } from '../../cost-query/activated-maps';
import { MAP_DIMENSIONS, MapDimensionKind } from '../../cost-query/filter-fields';
import { keyPresenceSql, KeyPresenceRow } from '../../cost-query/key-presence.query';
import { ClickhouseService } from '../clickhouse/clickhouse.service';
import { ACTIVATIONS_TABLE } from '../activated-maps';

/** Where a key stands: being written and back-filled, answered from the activated columns, or neither. */
export type ActivationState = 'backfilling' | 'active' | 'inactive';

export interface KeyActivation {
  kind: MapDimensionKind;
  key: string;
  state: ActivationState;
  updatedAt: string;
}

/** A key present in the organisation's cost rows, with the share of its cost it tags and how many values it has. */
export interface KeyPresence {
  kind: MapDimensionKind;
  key: string;
  /** Of the organisation's amortized cost over the window, the share on rows that carry the key (0–1, 4 decimals). */
  costShare: number;
  distinctValues: number;
  /** Resources (FOCUS ResourceId) whose rows carry the key; 0 when the rows name none. */
  resources: number;
  /**
   * Worth activating: on at least SUGGESTED_COST_SHARE of the cost, with at most SUGGESTED_MAX_VALUES values, and not
   * naming each resource (perResource).
   */
  suggested: boolean;
}

/** A key worth activating: on at least this share of the cost, with at most this many values (a team-level key). */
export const SUGGESTED_COST_SHARE = 0.5;
export const SUGGESTED_MAX_VALUES = 10_000;
/**
 * A key names each resource (a build, an instance id) when its values are more than a tenth of the resources carrying
 * it: its activated columns would be as large as the maps. Under PER_RESOURCE_MIN_VALUES values no key is: so few
 * cost little whatever they name (a small estate's team key is not mistaken for one).
 */
export const PER_RESOURCE_VALUE_SHARE = 0.1;
export const PER_RESOURCE_MIN_VALUES = 50;

/** Whether a key is worth activating by default (SUGGESTED_* and PER_RESOURCE_*). */
export function isSuggested(key: Pick<KeyPresence, 'costShare' | 'distinctValues' | 'resources'>): boolean {
  const perResource =
    key.distinctValues >= PER_RESOURCE_MIN_VALUES && key.resources > 0 && key.distinctValues > key.resources * PER_RESOURCE_VALUE_SHARE;
  return key.costShare >= SUGGESTED_COST_SHARE && key.distinctValues <= SUGGESTED_MAX_VALUES && !perResource;
}

/**
 * A row that records that the organisation chose its keys (an admin, or the default once applied), whatever it chose:
 * an empty choice too. Never a key: keys are non-empty, and the dictionary reads the tag and cost-category kinds only.
 */
const CHOICE_MARK = { kind: 'choice', key: '' } as const;

/** The SQL of an organisation's activated keys (migration 0027). The organisation always comes from the key or --org. */
@Injectable()
export class TagKeysRepository {
  constructor(private readonly clickhouse: ClickhouseService) {}

  async activations(organizationId: string): Promise<KeyActivation[]> {
    const rows = await this.clickhouse.query<{ kind: MapDimensionKind; key: string; state: ActivationState; updated_at: string }>(
      `SELECT kind, key, toString(state) AS state, toString(updated_at) AS updated_at
       FROM ${this.clickhouse.table(ACTIVATIONS_TABLE)} FINAL
       WHERE organization_id = {organization_id:UUID} AND state != 'inactive' AND kind IN {kinds:Array(String)}
       ORDER BY kind DESC, key`,
      { organization_id: organizationId, kinds: Object.keys(MAP_DIMENSIONS) },
      { organizationId },
    );
    return rows.map((row) => ({ kind: row.kind, key: row.key, state: row.state, updatedAt: row.updated_at }));
  }

  /** The keys every row's activated columns hold exactly (active ones: a back-filling key is not there yet). */
  async activeKeys(organizationId: string): Promise<ActivatedKeys> {
    return keysOf(await this.activations(organizationId), ['active']);
  }

  /** The keys new rows are written with (back-filling or active). */
  async writtenKeys(organizationId: string): Promise<ActivatedKeys> {
    return keysOf(await this.activations(organizationId), ['backfilling', 'active']);
  }

  async save(organizationId: string, kind: MapDimensionKind, key: string, state: ActivationState): Promise<void> {
    await this.clickhouse.insert(ACTIVATIONS_TABLE, [
      { organization_id: organizationId, kind, key, state, updated_at: clickhouseTimestamp(new Date()) },
    ]);
  }

  /** Records that the organisation chose its keys (TagKeyActivationService.change): the default no longer applies. */
  async recordChoice(organizationId: string): Promise<void> {
    await this.clickhouse.insert(ACTIVATIONS_TABLE, [
      { organization_id: organizationId, ...CHOICE_MARK, state: 'inactive', updated_at: clickhouseTimestamp(new Date()) },
    ]);
  }

  /** Whether the organisation has any cost row (a first import has none to back-fill). */
  async hasRows(organizationId: string): Promise<boolean> {
    const [row] = await this.clickhouse.query<{ present: number | string }>(
      `SELECT toUInt8(count() > 0) AS present FROM (SELECT 1 FROM ${this.clickhouse.table('cost_line_items')}
       WHERE organization_id = {organization_id:UUID} LIMIT 1)`,
      { organization_id: organizationId },
      { organizationId },
    );
    return Number(row.present) === 1;
  }

  /** Whether the organisation ever chose its keys (or had the default applied). */
  async hasChosen(organizationId: string): Promise<boolean> {
    const [row] = await this.clickhouse.query<{ chosen: number | string }>(
      `SELECT toUInt8(count() > 0) AS chosen FROM ${this.clickhouse.table(ACTIVATIONS_TABLE)}
       WHERE organization_id = {organization_id:UUID}`,
      { organization_id: organizationId },
      { organizationId },
    );
    return Number(row.chosen) === 1;
  }

  /** Every tag and cost-category key of the organisation's latest PRESENCE_DAYS of data, by the share of cost it tags. */
  async presentKeys(organizationId: string): Promise<KeyPresence[]> {
    const rows = await this.clickhouse.query<KeyPresenceRow>(
      keyPresenceSql(this.clickhouse.table('cost_line_items'), 'organization_id = {organization_id:UUID}'),
      { organization_id: organizationId },
      { organizationId },
    );
    return keyPresences(rows);
  }
}

/** The keys of a presence statement's rows, each judged worth activating or not (isSuggested). */
export function keyPresences(rows: readonly KeyPresenceRow[]): KeyPresence[] {
  return rows.map((row) => {
    const presence = { costShare: Number(row.cost_share), distinctValues: Number(row.distinct_values), resources: Number(row.resources) };
    return { kind: row.kind, key: row.key, ...presence, suggested: isSuggested(presence) };
  });
}

function keysOf(activations: KeyActivation[], states: ActivationState[]): ActivatedKeys {
  const of = (kind: MapDimensionKind) => activations.filter((a) => a.kind === kind && states.includes(a.state)).map((a) => a.key);
  return { tag: of('tag'), costCategory: of('costCategory') };
}
