/**
 * A tenant (or one key of it: `byKey`) already has as many statements running and waiting as it may:
 * refuse rather than queue more.
 */
export class TenantQueueFullError extends Error {
  constructor(
    readonly tenant: string,
    readonly byKey = false,
  ) {
    super(byKey ? 'Too many statements of one key in flight' : 'Too many statements of one tenant in flight');
  }
}

export interface FairSchedulerLimits {
  /** Statements running at once, all tenants together (the engine's useful parallelism). */
  capacity: number;
  /** Statements of one tenant running at once. */
  perTenant: number;
  /** Statements of one tenant waiting for a slot; one more is refused with TenantQueueFullError. */
  queuedPerTenant: number;
  /**
   * Statements of one key of a tenant waiting for a slot (at most queuedPerTenant): one key's flood leaves the
   * rest of its tenant's queue to the tenant's other keys. Unset: queuedPerTenant.
   */
  queuedPerKey?: number;
}

interface Waiting {
  start: () => void;
}

/** One key's statements of a tenant that wait, and when the key last started one. */
interface KeyQueue {
  waiting: Waiting[];
  lastStart: number;
}

interface TenantState {
  running: number;
  /** Waiting statements, all keys together. */
  waiting: number;
  /** Per key (the task's `key`; '' for none), in the order the keys arrived. */
  keys: Map<string, KeyQueue>;
  /** When this tenant last started a task (a tick of the scheduler); 0 for never. */
  lastStart: number;
}

/**
 * Runs tasks (statements) with at most `capacity` at once and at most `perTenant` of one tenant,
 * handing each free slot to the waiting tenant that started a task least recently (round robin), so a
 * tenant with many expensive statements queued delays another tenant's statement by at most the
 * statements already running. Inside a tenant the same between its keys: the tenant's next slot goes to
 * its key that started a task least recently, and one key holds at most `queuedPerKey` of the tenant's
 * queue, so one key's flood neither fills its organisation's queue nor delays another key's statement
 * past the statements already running.
 * Pure: no I/O, no timers; the tasks are the statements.
 */
export class FairScheduler {
  private running = 0;
  private readonly tenants = new Map<string, TenantState>();
  private ticks = 0;

  constructor(private readonly limits: FairSchedulerLimits) {}

  run<T>(tenant: string, task: () => Promise<T>, key = ''): Promise<T> {
    const state = this.tenants.get(tenant) ?? { running: 0, waiting: 0, keys: new Map<string, KeyQueue>(), lastStart: 0 };
    if (state.running + state.waiting >= this.limits.perTenant + this.limits.queuedPerTenant) {
      return Promise.reject(new TenantQueueFullError(tenant));
    }
    const queue = state.keys.get(key) ?? { waiting: [], lastStart: 0 };
    if (queue.waiting.length >= (this.limits.queuedPerKey ?? this.limits.queuedPerTenant)) {
      return Promise.reject(new TenantQueueFullError(tenant, true));
    }
    this.tenants.set(tenant, state);
    state.keys.set(key, queue);
    return new Promise<T>((resolve, reject) => {
      const start = () => {
        this.running++;
        state.running++;
        Promise.resolve()
          .then(task)
          .then(resolve, reject)
          .finally(() => {
            this.running--;
            state.running--;
            if (state.running === 0 && state.waiting === 0) this.tenants.delete(tenant);
            this.dispatch();
          });
      };
      queue.waiting.push({ start });
      state.waiting++;
      this.dispatch();
    });
  }

  /** Statements running and waiting, for metrics and tests. */
  get load(): { running: number; waiting: number } {
    let waiting = 0;
    for (const state of this.tenants.values()) waiting += state.waiting;
    return { running: this.running, waiting };
  }

  /** Starts waiting tasks while there is capacity, each for the eligible tenant served least recently. */
  private dispatch(): void {
    while (this.running < this.limits.capacity) {
      let next: TenantState | undefined;
      for (const state of this.tenants.values()) {
        const eligible = state.waiting > 0 && state.running < this.limits.perTenant;
        if (eligible && (!next || state.lastStart < next.lastStart)) next = state;
      }
      if (!next) return;
      let queue: [string, KeyQueue] | undefined;
      for (const entry of next.keys) {
        if (entry[1].waiting.length > 0 && (!queue || entry[1].lastStart < queue[1].lastStart)) queue = entry;
      }
      // A key's queue lives as long as its tenant's state (until the tenant has nothing running or waiting), so its last turn is remembered.
      const keyQueue = queue![1];
      next.lastStart = keyQueue.lastStart = ++this.ticks;
      next.waiting--;
      const waiting = keyQueue.waiting.shift()!;
      waiting.start();
    }
  }
}
