import { generateApiKey, hashApiKey, hashesEqual } from './api-key-format';

// The module object itself (an `import * as` namespace copy cannot be spied on).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const crypto = require('node:crypto') as typeof import('node:crypto');

/**
 * Key verification compares SHA-256 digests with crypto.timingSafeEqual: the time taken does not depend on
 * how many leading bytes match. (A statistical timing test over HTTP would be flaky; the e2e suite adds a coarse
 * sanity check in auth-hardening.e2e-spec.ts.)
 */
describe('hashesEqual (constant-time key comparison)', () => {
  afterEach(() => jest.restoreAllMocks());

  it('compares through crypto.timingSafeEqual, for matching and non-matching digests', () => {
    const spy = jest.spyOn(crypto, 'timingSafeEqual');
    const { key } = generateApiKey();
    const stored = hashApiKey(key);
    expect(hashesEqual(stored, hashApiKey(key))).toBe(true);
    expect(hashesEqual(stored, hashApiKey(`${key}x`))).toBe(false);
    // A digest differing only in its last byte still goes through the constant-time comparison.
    const lastByteFlipped = stored.slice(0, -2) + (stored.endsWith('00') ? '01' : '00');
    expect(hashesEqual(stored, lastByteFlipped)).toBe(false);
    expect(spy).toHaveBeenCalledTimes(3);
    for (const [left, right] of spy.mock.calls) {
      expect((left as Buffer).length).toBe(32);
      expect((right as Buffer).length).toBe(32);
    }
  });

  it('never compares digests of the wrong length (timingSafeEqual would throw)', () => {
    const stored = hashApiKey(generateApiKey().key);
    expect(hashesEqual(stored, '')).toBe(false);
    expect(hashesEqual(stored, stored.slice(0, 62))).toBe(false);
    expect(hashesEqual(stored, `${stored}00`)).toBe(false);
    expect(hashesEqual('zz', stored)).toBe(false);
  });

  it('compares digests, never the presented key itself (its length leaks nothing)', () => {
    const spy = jest.spyOn(crypto, 'timingSafeEqual');
    const { key } = generateApiKey();
    hashesEqual(hashApiKey(key), hashApiKey(key.slice(0, 10)));
    const [left, right] = spy.mock.calls[0] as [Buffer, Buffer];
    expect(left.toString('utf8')).not.toContain('cik_');
    expect(right.equals(crypto.createHash('sha256').update(key.slice(0, 10)).digest())).toBe(true);
  });
});
