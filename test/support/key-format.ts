import { crc32 } from 'node:zlib';

/**
 * The documented key format, re-implemented for the tests so they do not trust the code under test:
 * `cik_<12 base62 id>_<43 base62 secret><6 base62 CRC-32 of everything before>`. A body with its checksum.
 */
export const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export function withChecksum(body: string): string {
  let value = crc32(body);
  let checksum = '';
  for (let i = 0; i < 6; i++) {
    checksum = BASE62[value % 62] + checksum;
    value = Math.floor(value / 62);
  }
  return body + checksum;
}
