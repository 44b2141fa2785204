import { createHash } from 'node:crypto';
import { newSigningSecret, signatureHeader, verifySignature } from './webhook-signature';

/** HMAC-SHA256 built from SHA-256 by the RFC 2104 construction: an implementation independent of createHmac. */
function rfc2104HmacSha256(key: Buffer, message: Buffer): string {
  const block = Buffer.alloc(64);
  (key.length > 64 ? createHash('sha256').update(key).digest() : key).copy(block);
  const pad = (byte: number) => Buffer.from(block.map((value) => value ^ byte));
  const inner = createHash('sha256').update(pad(0x36)).update(message).digest();
  return createHash('sha256').update(pad(0x5c)).update(inner).digest('hex');
}

const SECRET = 'whsec_test-secret';
const BODY = '{"type":"budget.threshold","name":"Team ✓"}';

describe('webhook signatures', () => {
  it('builds HMAC-SHA256 as RFC 4231 test cases 2 and 6 publish it (the reference the checks below use)', () => {
    const jefe = rfc2104HmacSha256(Buffer.from('Jefe'), Buffer.from('what do ya want for nothing?'));
    expect(jefe).toBe('5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843');
    const longKey = rfc2104HmacSha256(Buffer.alloc(131, 0xaa), Buffer.from('Test Using Larger Than Block-Size Key - Hash Key First'));
    expect(longKey).toBe('60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54');
  });

  it('signs "<t>.<body>" (UTF-8) with the secret, the time in the header', () => {
    const expected = rfc2104HmacSha256(Buffer.from(SECRET), Buffer.from(`1700000000.${BODY}`, 'utf8'));
    expect(signatureHeader(SECRET, BODY, 1_700_000_000)).toBe(`t=1700000000,v1=${expected}`);
  });

  it('verifies a signature within the tolerance, either side of now', () => {
    const header = signatureHeader(SECRET, BODY, 1_700_000_000);
    expect(verifySignature(header, SECRET, BODY, 1_700_000_000)).toBe(true);
    expect(verifySignature(header, SECRET, BODY, 1_700_000_300)).toBe(true);
    expect(verifySignature(header, SECRET, BODY, 1_699_999_700)).toBe(true);
    expect(verifySignature(header, SECRET, BODY, 1_700_000_301)).toBe(false);
    expect(verifySignature(header, SECRET, BODY, 1_700_000_010, 5)).toBe(false);
  });

  it('refuses another body, another secret, a moved time and malformed headers', () => {
    const header = signatureHeader(SECRET, BODY, 1_700_000_000);
    expect(verifySignature(header, SECRET, `${BODY} `, 1_700_000_000)).toBe(false);
    expect(verifySignature(header, 'whsec_other', BODY, 1_700_000_000)).toBe(false);
    expect(verifySignature(header.replace('t=1700000000', 't=1700000001'), SECRET, BODY, 1_700_000_000)).toBe(false);
    expect(verifySignature(header.slice(0, -1), SECRET, BODY, 1_700_000_000)).toBe(false);
    expect(verifySignature('', SECRET, BODY, 1_700_000_000)).toBe(false);
    expect(verifySignature(`t=1700000000,${header}`, SECRET, BODY, 1_700_000_000)).toBe(false); // two times
    expect(verifySignature('t=abc,v1=00', SECRET, BODY, 1_700_000_000)).toBe(false);
  });

  it('accepts any matching v1 entry (a secret being rotated)', () => {
    const header = signatureHeader(SECRET, BODY, 1_700_000_000);
    const rotated = `${header}, v1=${signatureHeader('whsec_new', BODY, 1_700_000_000).split('v1=')[1]}`;
    expect(verifySignature(rotated, 'whsec_new', BODY, 1_700_000_000)).toBe(true);
    expect(verifySignature(rotated, SECRET, BODY, 1_700_000_000)).toBe(true);
  });

  it('makes new secrets of 32 random bytes, whsec_ and base64url', () => {
    const [first, second] = [newSigningSecret(), newSigningSecret()];
    expect(first).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(first.slice('whsec_'.length), 'base64url')).toHaveLength(32);
    expect(first).not.toBe(second);
  });
});
