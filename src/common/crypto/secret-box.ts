/**
 * Secrets at rest (webhook signing secrets): sealed with AES-256-GCM under the operator's SECRETS_ENCRYPTION_KEY
 * when one is set, else stored marked `plain:` so a later key can tell them apart. No message here ever holds a
 * secret, a sealed text or the key.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const SEALED = 'aes256gcm:v1:';
const PLAIN = 'plain:';
const KEY_PROBLEM = 'SECRETS_ENCRYPTION_KEY must be 32 bytes written as 64 hex characters or as base64 (e.g. `openssl rand -base64 32`)';

/** The 32-byte key of SECRETS_ENCRYPTION_KEY: 64 hex characters, or base64 (or base64url) of exactly 32 bytes. */
export function parseEncryptionKey(text: string): Buffer {
  const trimmed = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, 'hex');
  // Node's base64 decoder skips characters outside the alphabet, so the pattern is what refuses them.
  const key = /^[A-Za-z0-9+/_-]{43}=?$/.test(trimmed) ? Buffer.from(trimmed, 'base64') : undefined;
  if (key?.length !== 32) throw new Error(KEY_PROBLEM);
  return key;
}

/** `aes256gcm:v1:<iv>:<tag>:<ciphertext>` (base64url, a random 12-byte IV) under `key`; `plain:<secret>` without one. */
export function sealSecret(plain: string, key?: Buffer): string {
  if (!key) return `${PLAIN}${plain}`;
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return `${SEALED}${[iv, cipher.getAuthTag(), ciphertext].map((part) => part.toString('base64url')).join(':')}`;
}

/**
 * The secret of a sealed text. A `plain:` text opens with or without a key (secrets stored before the operator set
 * one); an encrypted one needs the key it was sealed with.
 */
export function openSecret(sealed: string, key?: Buffer): string {
  if (sealed.startsWith(PLAIN)) return sealed.slice(PLAIN.length);
  if (!sealed.startsWith(SEALED)) throw new Error('not a sealed secret: neither plain: nor aes256gcm:v1:');
  if (!key) throw new Error('this secret is encrypted, and SECRETS_ENCRYPTION_KEY is not set');
  return decrypted(sealed.slice(SEALED.length).split(':'), key);
}

function decrypted(parts: string[], key: Buffer): string {
  const [iv, tag, ciphertext] = parts.map((part) => Buffer.from(part, 'base64url'));
  if (parts.length !== 3 || iv.length !== 12 || tag.length !== 16)
    throw new Error('a sealed secret is damaged: aes256gcm:v1: needs a 12-byte IV, a 16-byte tag and a ciphertext');
  const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: 16 }).setAuthTag(tag);
  try {
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
  } catch {
    throw new Error('cannot open a sealed secret: SECRETS_ENCRYPTION_KEY is not the key it was sealed with, or the text is damaged');
  }
}
