import { createDecipheriv, randomBytes } from 'node:crypto';
import { openSecret, parseEncryptionKey, sealSecret } from './secret-box';

const KEY = Buffer.from('000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f', 'hex');
const SECRET = 'whsec_AbCdEf-0123456789_secret';

describe('secrets at rest', () => {
  it('reads SECRETS_ENCRYPTION_KEY as 64 hex characters or base64 of 32 bytes', () => {
    expect(parseEncryptionKey(KEY.toString('hex'))).toEqual(KEY);
    expect(parseEncryptionKey(KEY.toString('hex').toUpperCase())).toEqual(KEY);
    expect(parseEncryptionKey(KEY.toString('base64'))).toEqual(KEY);
    expect(parseEncryptionKey(`${KEY.toString('base64url')}\n`)).toEqual(KEY);
  });

  it('refuses any other key by naming the variable, never echoing the value', () => {
    const wrong = ['', 'ab'.repeat(31), 'ab'.repeat(33), randomBytes(31).toString('base64'), randomBytes(33).toString('base64')];
    const withSpaces = `${KEY.toString('base64').slice(0, 20)} ${KEY.toString('base64').slice(20)}`;
    for (const text of [...wrong, withSpaces, 'not-a-key-but-a-passphrase-of-44-characters!']) {
      expect(() => parseEncryptionKey(text)).toThrow('SECRETS_ENCRYPTION_KEY must be 32 bytes');
      expect(messageOfCall(() => parseEncryptionKey(text))).not.toContain(text || 'never');
    }
  });

  it('seals with AES-256-GCM under a random 12-byte IV, and opens what it sealed', () => {
    const sealed = sealSecret(SECRET, KEY);
    expect(sealed).toMatch(/^aes256gcm:v1:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]{22}:[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain(SECRET);
    expect(sealSecret(SECRET, KEY)).not.toBe(sealed);
    expect(openSecret(sealed, KEY)).toBe(SECRET);
    expect(openSecret(sealSecret('ü ✓', KEY), KEY)).toBe('ü ✓');
  });

  it('writes the layout a plain AES-256-GCM decipher reads', () => {
    const [iv, tag, ciphertext] = sealSecret(SECRET, KEY)
      .split(':')
      .slice(2)
      .map((part) => Buffer.from(part, 'base64url'));
    const decipher = createDecipheriv('aes-256-gcm', KEY, iv).setAuthTag(tag);
    expect(Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString()).toBe(SECRET);
  });

  it('stores a secret marked plain: without a key, and opens it with or without one', () => {
    expect(sealSecret(SECRET)).toBe(`plain:${SECRET}`);
    expect(openSecret(`plain:${SECRET}`)).toBe(SECRET);
    expect(openSecret(`plain:${SECRET}`, KEY)).toBe(SECRET);
    expect(openSecret('plain:')).toBe('');
  });

  it('refuses an encrypted secret without its key, clearly and without the secret', () => {
    const sealed = sealSecret(SECRET, KEY);
    expect(() => openSecret(sealed)).toThrow('this secret is encrypted, and SECRETS_ENCRYPTION_KEY is not set');
    expect(() => openSecret(sealed, randomBytes(32))).toThrow('SECRETS_ENCRYPTION_KEY is not the key it was sealed with');
    const ciphertext = Buffer.from(sealed.split(':')[4], 'base64url');
    ciphertext[0] ^= 1;
    const flipped = [...sealed.split(':').slice(0, 4), ciphertext.toString('base64url')].join(':');
    expect(() => openSecret(flipped, KEY)).toThrow('or the text is damaged');
    for (const message of [messageOfCall(() => openSecret(sealed)), messageOfCall(() => openSecret(sealed, randomBytes(32)))]) {
      expect(message).not.toContain(SECRET);
      expect(message).not.toContain(sealed.split(':')[4]);
    }
  });

  it('refuses texts that are not sealed secrets, or whose parts are cut', () => {
    expect(() => openSecret(SECRET, KEY)).toThrow('not a sealed secret');
    expect(messageOfCall(() => openSecret(SECRET, KEY))).not.toContain(SECRET);
    const [iv, tag, ciphertext] = sealSecret(SECRET, KEY).split(':').slice(2);
    expect(() => openSecret(`aes256gcm:v1:${iv}:${tag}`, KEY)).toThrow('a sealed secret is damaged');
    expect(() => openSecret(`aes256gcm:v1:${iv}:${tag.slice(0, 11)}:${ciphertext}`, KEY)).toThrow('a sealed secret is damaged');
    expect(() => openSecret(`aes256gcm:v1:${iv.slice(4)}:${tag}:${ciphertext}`, KEY)).toThrow('a sealed secret is damaged');
  });
});

function messageOfCall(call: () => unknown): string {
  try {
    call();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected a throw');
}
