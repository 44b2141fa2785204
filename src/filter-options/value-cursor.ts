import { createHash } from 'node:crypto';
import { InvalidRequestException } from '../common/errors/api-errors';
import { MAP_DIMENSIONS, MapDimensionKind } from '../cost-query/dimension-registry';

/**
 * The paging cursor of POST /tag-values and /cost-category-values: opaque to clients, base64url of a
 * small JSON. It names what it pages (digests of the organisation, the data scope of the key that got it,
 * the key and the search, and the key kind), where the next page starts (the last value returned) and the
 * data version the first page was computed from (the organisation's, CostDataVersion.readNow, or for a
 * scoped key that of the rows inside its scope). It is not a secret and needs no signature: the
 * organisation always comes from the API key, so a forged cursor can only start a page of the caller's
 * own values somewhere else.
 */

/** What a cursor pages: the request it continues. */
export interface ValueCursorScope {
  organizationId: string;
  /** The canonical data scope of the asking key; '' for a key that sees its whole organisation. */
  dataScope: string;
  kind: MapDimensionKind;
  key: string;
  /** '' when there is no search. */
  search: string;
}

/** Where the next page starts, and the data version every page must still see. */
export interface ValueCursorPosition {
  after: string;
  dataVersion: string;
}

/** The request field of each kind's key, for messages. */
export const KEY_FIELDS: Record<MapDimensionKind, string> = { tag: 'tagKey', costCategory: 'categoryKey' };

/** The route that issues each kind's cursors, for messages. */
const ROUTES: Record<MapDimensionKind, string> = { tag: '/tag-values', costCategory: '/cost-category-values' };

/** Longest cursor accepted: about 48,000 characters of last value, far beyond any tag or category value. */
export const MAX_CURSOR_LENGTH = 65_536;

const VERSION = 2;

interface CursorJson {
  /** Format version. */
  v: number;
  /** Digests of the organisation, the asking key's data scope, key and search. */
  o: string;
  c: string;
  n: string;
  s: string;
  /** Key kind. */
  k: string;
  /** The last value returned. */
  a: string;
  /** The data version of the first page. */
  d: string;
}

/** A short digest with a domain, so equal texts of different roles differ. */
function digest(role: string, text: string): string {
  return createHash('sha256').update(role).update('\0').update(text).digest('base64url').slice(0, 16);
}

export function encodeValueCursor(scope: ValueCursorScope, position: ValueCursorPosition): string {
  const json: CursorJson = {
    v: VERSION,
    o: digest('organization', scope.organizationId.toLowerCase()),
    c: digest('data scope', scope.dataScope),
    k: scope.kind,
    n: digest('key', scope.key),
    s: digest('search', scope.search),
    a: position.after,
    d: position.dataVersion,
  };
  return Buffer.from(JSON.stringify(json), 'utf8').toString('base64url');
}

/**
 * The position a cursor continues from, once it is known to belong to this request; otherwise a 400 naming
 * `cursor`. The data version is the caller's to compare (it needs a read of the store).
 */
export function decodeValueCursor(cursor: string, scope: ValueCursorScope): ValueCursorPosition {
  const json = parse(cursor);
  if (!json) throw invalidCursor('is not a cursor of this API; pass the nextCursor of the previous page as it is');
  if (json.o !== digest('organization', scope.organizationId.toLowerCase())) {
    throw invalidCursor('was issued to another organisation');
  }
  if (json.c !== digest('data scope', scope.dataScope)) throw invalidCursor('was issued to a key with another data scope');
  if (json.k !== scope.kind) throw invalidCursor(`was issued by ${ROUTES[json.k as MapDimensionKind]}, not ${ROUTES[scope.kind]}`);
  if (json.n !== digest('key', scope.key)) throw invalidCursor(`was issued for another ${KEY_FIELDS[scope.kind]}`);
  if (json.s !== digest('search', scope.search)) throw invalidCursor('was issued for another search');
  return { after: json.a, dataVersion: json.d };
}

/** The 400 of a cursor whose data version is no longer the organisation's. */
export function expiredCursor(scoped = false): InvalidRequestException {
  return invalidCursor(
    scoped
      ? 'has expired: the cost data inside your key’s data scope changed since the first page (an import); start again without a cursor'
      : "has expired: the organisation's cost data changed since the first page (an import, or a merge of its stored parts); " +
          'start again without a cursor',
  );
}

function invalidCursor(detail: string): InvalidRequestException {
  return new InvalidRequestException([`cursor: ${detail}`]);
}

function parse(cursor: string): CursorJson | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
  const bytes = Buffer.from(cursor, 'base64url');
  // Only the one spelling this API writes: the decoder skips a dangling last character, so `<cursor>x` of a
  // cursor whose length is a multiple of 4 would otherwise read as the cursor itself.
  if (bytes.toString('base64url') !== cursor) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return undefined;
  const fields = json as Record<string, unknown>;
  const strings = ['o', 'c', 'n', 's', 'k', 'a', 'd'].every((name) => typeof fields[name] === 'string');
  if (fields.v !== VERSION || !strings || !Object.hasOwn(MAP_DIMENSIONS, fields.k as string)) return undefined;
  return fields as unknown as CursorJson;
}
