import { InvalidRequestException } from '../common/errors/api-errors';
import type { KeyListPage, KeyListPosition } from '../store/repositories/api-keys.repository';

const KEY_ID = /^[A-Za-z0-9]{1,64}$/;

/**
 * The page a GET /v1/admin/api-keys query asks for: `limit` (1 to API_KEY_LIST_PAGE_SIZE, the default)
 * and `cursor` (a nextCursor of this list). Query values are text: `limit` must be digits. Anything else
 * is a 400 naming the parameter, like an unknown field of a body.
 */
export function readKeyListPage(query: Record<string, unknown>, pageSize: number): KeyListPage {
  const problems: string[] = [];
  for (const name of Object.keys(query)) if (name !== 'limit' && name !== 'cursor') problems.push(`${name}: unknown query parameter`);
  let limit = pageSize;
  if (query.limit !== undefined) {
    const text = typeof query.limit === 'string' && /^\d{1,9}$/.test(query.limit) ? Number(query.limit) : NaN;
    if (text >= 1 && text <= pageSize) limit = text;
    else {
      const received = JSON.stringify(query.limit)?.slice(0, 40) ?? 'nothing';
      problems.push(`limit: Expected an integer from 1 to ${pageSize} (API_KEY_LIST_PAGE_SIZE), received ${received}`);
    }
  }
  let after: KeyListPosition | undefined;
  if (query.cursor !== undefined) {
    after = typeof query.cursor === 'string' ? decodeKeyListCursor(query.cursor) : undefined;
    if (!after) problems.push('cursor: is not a cursor of this list; pass the nextCursor of the previous page as it is');
  }
  if (problems.length) throw new InvalidRequestException(problems);
  return after ? { limit, after } : { limit };
}

/** The opaque nextCursor of a page that ends with this key: base64url of a small JSON. */
export function encodeKeyListCursor(position: KeyListPosition): string {
  return Buffer.from(JSON.stringify({ c: position.createdAtMs, i: position.keyId }), 'utf8').toString('base64url');
}

function decodeKeyListCursor(cursor: string): KeyListPosition | undefined {
  if (cursor.length > 200 || !/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
  const bytes = Buffer.from(cursor, 'base64url');
  if (bytes.toString('base64url') !== cursor) return undefined;
  try {
    const json = JSON.parse(bytes.toString('utf8')) as { c?: unknown; i?: unknown };
    if (!Number.isSafeInteger(json.c) || (json.c as number) < 0 || typeof json.i !== 'string' || !KEY_ID.test(json.i)) return undefined;
    return { createdAtMs: json.c as number, keyId: json.i };
  } catch {
    return undefined;
  }
}
