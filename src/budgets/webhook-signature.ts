/**
 * The signature of a budget-alert webhook: `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`, the
 * scheme receivers know from Stripe. Signing the time with the body lets a receiver refuse a replayed old delivery.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** The `t=…,v1=…` header value of `body`, signed at `unixSeconds`. */
export function signatureHeader(secret: string, body: string, unixSeconds: number): string {
  return `t=${unixSeconds},v1=${hmacHex(secret, `${unixSeconds}.${body}`)}`;
}

/**
 * Whether `header` signs `body` with `secret` within `toleranceSeconds` of `nowSeconds` (for receivers and tests).
 * Any of several `v1=` entries may match (a sender rotating its secret signs with both).
 */
export function verifySignature(header: string, secret: string, body: string, nowSeconds: number, toleranceSeconds = 300): boolean {
  const { time, signatures } = parsedHeader(header);
  if (time === undefined || Math.abs(nowSeconds - time) > toleranceSeconds) return false;
  const expected = Buffer.from(hmacHex(secret, `${time}.${body}`));
  return signatures.some((signature) => sameBytes(Buffer.from(signature), expected));
}

/** A new signing secret: 32 random bytes, base64url, prefixed `whsec_` so scanners and people recognise it. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

function hmacHex(secret: string, text: string): string {
  return createHmac('sha256', secret).update(text, 'utf8').digest('hex');
}

function parsedHeader(header: string): { time?: number; signatures: string[] } {
  const entries = header.split(',').map((entry) => entry.trim().split('='));
  const times = entries.filter(([key, value]) => key === 't' && /^\d{1,12}$/.test(value ?? ''));
  const signatures = entries.filter(([key, value]) => key === 'v1' && value).map(([, value]) => value);
  return { time: times.length === 1 ? Number(times[0][1]) : undefined, signatures };
}

/** Constant time for equal lengths; a length differs only for a malformed signature, which reveals nothing. */
function sameBytes(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
