import { createHash } from 'node:crypto';
import { SerializedAnswer } from './serialized-answer';

interface Entry {
  /** The serialized answer, sent as it is on a hit. */
  answer: SerializedAnswer;
  bytes: number;
  expiresAt: number;
}

/**
 * A least-recently-used map of serialized answers bounded by total size and age. Keys already
 * include everything an answer depends on (organisation, route, request, date, data version), so
 * nothing is ever invalidated in place: superseded entries simply age out or get evicted.
 */
export class ResultCache {
  private readonly entries = new Map<string, Entry>();
  private usedBytes = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  get enabled(): boolean {
    return this.maxBytes > 0;
  }

  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.usedBytes };
  }

  get(key: string): SerializedAnswer | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.expiresAt <= this.now()) {
      this.usedBytes -= entry.bytes;
      return undefined;
    }
    this.entries.set(key, entry); // most recently used last
    return entry.answer;
  }

  /** Keeps an answer unless it alone would take more than an eighth of the budget (big exports pass through). */
  set(key: string, answer: SerializedAnswer): boolean {
    const bytes = answer.bytes.length + ENTRY_OVERHEAD_BYTES;
    if (!this.enabled || bytes > this.maxBytes / 8) return false;
    // A slice (every small Buffer is one, of Node's 8 KiB pool) would keep its whole parent alive.
    const body = answer.bytes;
    const kept =
      body.byteOffset === 0 && body.buffer.byteLength === body.length
        ? answer
        : new SerializedAnswer(copyOf(body), answer.mediaType, answer.headers);
    const previous = this.entries.get(key);
    if (previous) {
      this.entries.delete(key);
      this.usedBytes -= previous.bytes;
    }
    while (this.usedBytes + bytes > this.maxBytes) {
      const [oldestKey, oldest] = this.entries.entries().next().value as [string, Entry];
      this.entries.delete(oldestKey);
      this.usedBytes -= oldest.bytes;
    }
    this.entries.set(key, { answer: kept, bytes, expiresAt: this.now() + this.ttlMs });
    this.usedBytes += bytes;
    return true;
  }
}

/**
 * What an entry costs besides its body: the key string, the Map slot, the entry and answer objects,
 * the Buffer's own objects and the answer's few short headers. Measured at 300–340 bytes on Node 20
 * before the answer object and its headers (heap + external per entry, 100,000 small entries); counted
 * generously so that RESULT_CACHE_MAX_MB bounds the memory really used.
 */
export const ENTRY_OVERHEAD_BYTES = 600;

function copyOf(slice: Buffer): Buffer {
  const own = Buffer.allocUnsafeSlow(slice.length);
  slice.copy(own);
  return own;
}

/** JSON with object keys sorted at every level: equal requests give equal text whatever their key order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
}

/** The cache key of one question: a digest, so the map never holds request bodies verbatim. */
export function resultCacheKey(parts: {
  route: string;
  organizationId: string;
  /** The key's data scope (its canonical JSON, '' for none): one scope's answer is never another's. */
  dataScope: string;
  today: string;
  dataVersion: string;
  body: unknown;
}): string {
  return createHash('sha256')
    .update(canonicalJson([parts.route, parts.organizationId, parts.dataScope, parts.today, parts.dataVersion, parts.body ?? null]))
    .digest('base64url');
}
