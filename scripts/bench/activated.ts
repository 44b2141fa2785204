/**
 * Issue 34 in the bench (run.ts): the measured organisation activates the keys TAG_PAIRS name through the real route
 * (PUT /v1/admin/tag-keys), the back-fill is timed, every pair must answer the very bytes it answered on the full maps,
 * and the disk the activated columns and projections take is read from the engine.
 */
import type { INestApplication } from '@nestjs/common';
import { ClickhouseService } from '../../src/store/clickhouse/clickhouse.service';
import { ACTIVATED_COLUMNS } from '../../src/store/activated-maps';
import { TagKeyActivationService } from '../../src/tag-keys/tag-key-activation.service';
import { keysNamed, TagPair } from './cases';
import { round } from './stats';

export const ACTIVATED_PROJECTIONS = ['daily_activated_tag_sums', 'monthly_activated_tag_sums'];

type Keys = { tag: string[]; costCategory: string[] };

/** Throws unless `keys` holds every key the pairs name: a pair naming one inactive key would not read the activated maps. */
export function checkKeysCoverPairs(pairs: TagPair[], keys: Keys): void {
  const missing = pairs.flatMap((pair) => {
    const named = keysNamed(pair.tag);
    return [
      ...named.tag.filter((key) => !keys.tag.includes(key)).map((key) => `${pair.name}: tag:${key}`),
      ...named.costCategory.filter((key) => !keys.costCategory.includes(key)).map((key) => `${pair.name}: costCategory:${key}`),
    ];
  });
  if (missing.length > 0) throw new Error(`ACTIVATED_KEYS lacks keys the tag pairs name: ${missing.join('; ')}`);
}

/** The answer's bytes, computed afresh (not a timed request: it only fixes what every pair must answer). */
export async function answerBytes(url: string, key: string, body: unknown): Promise<Buffer> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', 'Cache-Control': 'no-store' },
    body: JSON.stringify(body),
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}: ${bytes.toString('utf8', 0, 300)}`);
  return bytes;
}

/** Where two answers first differ, for the failure message. */
export function firstDifference(before: Buffer, after: Buffer): string {
  let i = 0;
  while (i < before.length && i < after.length && before[i] === after[i]) i++;
  const around = (b: Buffer) => JSON.stringify(b.toString('utf8', Math.max(0, i - 60), i + 60));
  return `${before.length} vs ${after.length} bytes, first difference at byte ${i}: before …${around(before)}…, after …${around(after)}…`;
}

/**
 * Activates `keys` for the admin key's organisation through PUT /v1/admin/tag-keys (202; the back-fill runs in the
 * background) and waits for the back-fill the route started: the service's own promise, caught on the instance the
 * controller calls, so a failed back-fill fails the bench at once. Then GET /v1/admin/tag-keys must show every key
 * `active`. Returns the seconds from the request to the end of the back-fill.
 */
export async function activateThroughRoute(app: INestApplication, base: string, adminKey: string, keys: Keys): Promise<number> {
  const activation = app.get(TagKeyActivationService);
  const change = activation.change.bind(activation);
  let backfilled: Promise<void> | undefined;
  activation.change = async (...args: Parameters<TagKeyActivationService['change']>) => {
    const changed = await change(...args);
    backfilled = changed.backfilled;
    return changed;
  };
  const headers = { Authorization: `Bearer ${adminKey}`, 'Content-Type': 'application/json' };
  const startedAt = performance.now();
  try {
    const put = await fetch(`${base}/v1/admin/tag-keys`, { method: 'PUT', headers, body: JSON.stringify(keys) });
    if (put.status !== 202) throw new Error(`PUT /v1/admin/tag-keys answered ${put.status}: ${(await put.text()).slice(0, 300)}`);
    if (!backfilled) throw new Error('PUT /v1/admin/tag-keys started no back-fill (were the keys active already?)');
    await backfilled;
  } finally {
    activation.change = change;
  }
  const seconds = round((performance.now() - startedAt) / 1000);
  const get = await fetch(`${base}/v1/admin/tag-keys`, { headers });
  if (get.status !== 200) throw new Error(`GET /v1/admin/tag-keys answered ${get.status}`);
  const { data } = (await get.json()) as { data: { activated: Array<{ kind: 'tag' | 'costCategory'; key: string; state: string }> } };
  const notActive = (Object.keys(keys) as Array<keyof Keys>).flatMap((kind) =>
    keys[kind].filter((key) => !data.activated.some((a) => a.kind === kind && a.key === key && a.state === 'active')),
  );
  if (notActive.length > 0) throw new Error(`after the back-fill, GET /v1/admin/tag-keys shows ${JSON.stringify(data.activated)}`);
  return seconds;
}

export interface ActivatedDisk {
  /** Line items of the organisation (its partitions). */
  organizationRows: number;
  /** Parts of its partitions that are compact: their columns' sizes are not kept apart (column bytes read 0 there). */
  compactParts: number;
  parts: number;
  entries: Array<{ name: string; kind: 'projection' | 'column'; rows: number; bytes: number; mbPerMillionLineItems: number }>;
}

/**
 * What the activated projections (system.projection_parts) and columns (system.parts_columns) take on disk in the
 * organisation's partitions, per million of its line items; with the full-map tag projections beside them.
 */
export async function activatedDisk(clickhouse: ClickhouseService, organizationId: string): Promise<ActivatedDisk> {
  const ofOrganization = `database = {db:String} AND table = 'cost_line_items' AND active AND partition LIKE concat('(\\'', {org:String}, '\\'%')`;
  const params = { db: clickhouse.database, org: organizationId.toLowerCase(), columns: ACTIVATED_COLUMNS };
  const [parts] = await clickhouse.query<{ rows: string; parts: string; compact: string }>(
    `SELECT toString(sum(rows)) AS rows, toString(count()) AS parts, toString(countIf(part_type = 'Compact')) AS compact
     FROM system.parts WHERE ${ofOrganization}`,
    params,
  );
  const rows = await clickhouse.query<{ name: string; kind: 'projection' | 'column'; rows: string; bytes: string }>(
    `SELECT name, 'projection' AS kind, toString(sum(rows)) AS rows, toString(sum(bytes_on_disk)) AS bytes
     FROM system.projection_parts WHERE ${ofOrganization} AND name LIKE '%tag_sums' GROUP BY name
     UNION ALL
     SELECT column AS name, 'column' AS kind, toString(sum(rows)) AS rows, toString(sum(column_bytes_on_disk)) AS bytes
     FROM system.parts_columns WHERE ${ofOrganization} AND column IN {columns:Array(String)} GROUP BY column
     ORDER BY kind DESC, name`,
    params,
  );
  const organizationRows = Number(parts.rows);
  return {
    organizationRows,
    parts: Number(parts.parts),
    compactParts: Number(parts.compact),
    entries: rows.map((row) => ({
      name: row.name,
      kind: row.kind,
      rows: Number(row.rows),
      bytes: Number(row.bytes),
      mbPerMillionLineItems: round(Number(row.bytes) / 1e6 / (organizationRows / 1e6)),
    })),
  };
}

export function describeDisk(disk: ActivatedDisk): string {
  const compact = disk.compactParts > 0 ? ` (${disk.compactParts} of ${disk.parts} parts compact: column sizes read 0 there)` : '';
  return disk.entries.map((e) => `${e.name} ${e.mbPerMillionLineItems} MB (${e.rows.toLocaleString('en-US')} rows)`).join('; ') + compact;
}
