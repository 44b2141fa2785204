import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { crc32 } from 'node:zlib';

/**
 * API key format: `cik_<id>_<secret><checksum>`.
 *  - id: 12 base62 characters, public, used to find the key's record;
 *  - secret: 43 base62 characters (≈256 random bits);
 *  - checksum: CRC-32 of everything before it, 6 base62 characters, so a mistyped or truncated
 *    key is rejected without a database lookup (and secret scanners can recognise real keys).
 * Only the SHA-256 of the whole key is stored.
 */
export const API_KEY_PREFIX = 'cik_';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const ID_LENGTH = 12;
const SECRET_LENGTH = 43;
const CHECKSUM_LENGTH = 6;
const KEY_PATTERN = new RegExp(
  `^${API_KEY_PREFIX}([0-9A-Za-z]{${ID_LENGTH}})_([0-9A-Za-z]{${SECRET_LENGTH}})([0-9A-Za-z]{${CHECKSUM_LENGTH}})$`,
);

function randomBase62(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += BASE62[randomInt(62)];
  return out;
}

function checksum(body: string): string {
  let value = crc32(body);
  let out = '';
  for (let i = 0; i < CHECKSUM_LENGTH; i++) {
    out = BASE62[value % 62] + out;
    value = Math.floor(value / 62);
  }
  return out;
}

export function generateApiKey(): { keyId: string; key: string } {
  const keyId = randomBase62(ID_LENGTH);
  const body = `${API_KEY_PREFIX}${keyId}_${randomBase62(SECRET_LENGTH)}`;
  return { keyId, key: body + checksum(body) };
}

/** The key's id when it is well-formed and its checksum matches; otherwise undefined. */
export function parseApiKey(key: string): { keyId: string } | undefined {
  const match = KEY_PATTERN.exec(key);
  if (!match) return undefined;
  const body = key.slice(0, -CHECKSUM_LENGTH);
  if (checksum(body) !== match[3]) return undefined;
  return { keyId: match[1] };
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** Constant-time comparison of two hex SHA-256 digests. */
export function hashesEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === 32 && right.length === 32 && timingSafeEqual(left, right);
}

/** The token of an `Authorization: Bearer <key>` header, if that is its form. */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer +(\S+) *$/i.exec(header);
  return match?.[1];
}
