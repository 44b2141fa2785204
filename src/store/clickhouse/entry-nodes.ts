/** How long a node that did not answer is passed over before a request tries it again (its probe). */
export const ENTRY_NODE_COOLDOWN_MS = 5000;

/** Socket errors that mean the node gave no answer at all: refused, reset or cut before a response, unreachable. */
const NO_ANSWER_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * Whether a failed request never reached an answer from its node (so another node may be asked the same read). A
 * ClickHouse error (a bad statement, a budget exceeded, a shard down behind a live node) is an answer: not retried.
 */
export function isNoAnswer(error: unknown): boolean {
  // Duck-typed, not `instanceof Error`: socket errors are made in Node's own realm, which a test's vm context is not.
  for (let cause = error; typeof cause === 'object' && cause !== null; cause = (cause as { cause?: unknown }).cause) {
    const { code, message } = cause as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && NO_ANSWER_CODES.has(code)) return true;
    if (typeof message === 'string' && /socket hang up|other side closed/i.test(message)) return true;
  }
  return false;
}

/**
 * The servers reads may enter through (CLICKHOUSE_URL's, then a cluster's nodes), one client each, preferred first.
 * A read goes to the first node not known to be down; when that node gives no answer, it is passed over for
 * ENTRY_NODE_COOLDOWN_MS and the read runs once more on the next (reads are idempotent; writes are never retried
 * here, they simply go to the current node next time). After the cooldown the next request tries the node again.
 */
export class EntryNodes<Client> {
  private readonly downUntil: number[];

  constructor(
    private readonly clients: readonly Client[],
    private readonly now: () => number = Date.now,
    private readonly cooldownMs = ENTRY_NODE_COOLDOWN_MS,
  ) {
    if (clients.length === 0) throw new Error('EntryNodes needs at least one client');
    this.downUntil = clients.map(() => 0);
  }

  get all(): readonly Client[] {
    return this.clients;
  }

  /** The client of the first node not passed over (the preferred one when every node is). */
  current(): Client {
    return this.clients[this.pick()];
  }

  /** Runs a read on the current node; if it gives no answer, on the next node once. */
  async read<T>(run: (client: Client) => Promise<T>): Promise<T> {
    const first = this.pick();
    try {
      return await run(this.clients[first]);
    } catch (error) {
      if (this.clients.length === 1 || !isNoAnswer(error)) throw error;
      this.downUntil[first] = this.now() + this.cooldownMs;
      return run(this.clients[this.pick(first)]);
    }
  }

  /** The first node not passed over, other than `except`; when every one is, the first of them (it may be back). */
  private pick(except?: number): number {
    const now = this.now();
    const candidates = this.clients.map((_, i) => i).filter((i) => i !== except);
    return candidates.find((i) => this.downUntil[i] <= now) ?? candidates[0];
  }
}
