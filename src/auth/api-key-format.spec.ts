import { bearerToken, generateApiKey, hashApiKey, hashesEqual, parseApiKey } from './api-key-format';

describe('API key format', () => {
  it('generates prefixed keys whose checksum verifies', () => {
    const { keyId, key } = generateApiKey();
    expect(key).toMatch(/^cik_[0-9A-Za-z]{12}_[0-9A-Za-z]{49}$/);
    expect(parseApiKey(key)).toEqual({ keyId });
  });

  it('generates distinct keys', () => {
    const keys = new Set(Array.from({ length: 200 }, () => generateApiKey().key));
    expect(keys.size).toBe(200);
  });

  it('rejects a key with one character changed, truncated or extended', () => {
    const { key } = generateApiKey();
    const flipped = key.slice(0, 20) + (key[20] === 'a' ? 'b' : 'a') + key.slice(21);
    expect(parseApiKey(flipped)).toBeUndefined();
    expect(parseApiKey(key.slice(0, -1))).toBeUndefined();
    expect(parseApiKey(key + 'x')).toBeUndefined();
    expect(parseApiKey('cik_' + 'x'.repeat(20))).toBeUndefined();
    expect(parseApiKey('')).toBeUndefined();
  });

  it('hashes with SHA-256 and compares digests', () => {
    const { key } = generateApiKey();
    const hash = hashApiKey(key);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hashesEqual(hash, hashApiKey(key))).toBe(true);
    expect(hashesEqual(hash, hashApiKey(key + 'x'))).toBe(false);
    expect(hashesEqual(hash, 'zz')).toBe(false);
  });

  it('reads only the Bearer form of the Authorization header', () => {
    expect(bearerToken('Bearer abc')).toBe('abc');
    expect(bearerToken('bearer abc')).toBe('abc');
    expect(bearerToken('Basic abc')).toBeUndefined();
    expect(bearerToken('Bearer a b')).toBeUndefined();
    expect(bearerToken(undefined)).toBeUndefined();
  });
});
