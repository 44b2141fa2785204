/** A tenant already has as many statements running and waiting as it may: refuse rather than queue more. */
export class TenantQueueFullError extends Error {
  constructor(readonly tenant: string) {
    super('Too many statements of one tenant in flight');
  }
}

export interface FairSchedulerLimits {
  /** Statements running at once, all tenants together (the engine's useful parallelism). */
  capacity: number;
  /** Statements of one tenant running at once. */
  perTenant: number;
  /** Statements of one tenant waiting for a slot; one more is refused with TenantQueueFullError. */
  queuedPerTenant: number;
}

interface Waiting {
  start: () => void;
}

interface TenantState {
  running: number;
  waiting: Waiting[];
  /** When this tenant last started a task (a tick of the scheduler); 0 for never. */
  lastStart: number;
}

/**
 * Runs tasks (statements) with at most `capacity` at once and at most `perTenant` of one tenant,
 * handing each free slot to the waiting tenant that started a task least recently (round robin), so a
 * tenant with many expensive statements queued delays another tenant's statement by at most the
 * statements already running.
 * Pure: no I/O, no timers; the tasks are the statements.
 */
export class FairScheduler {
  private running = 0;
  private readonly tenants = new Map<string, TenantState>();
  private ticks = 0;

  constructor(private readonly limits: FairSchedulerLimits) {}

  run<T>(tenant: string, task: () => Promise<T>): Promise<T> {
    const state = this.tenants.get(tenant) ?? { running: 0, waiting: [], lastStart: 0 };
    if (state.running + state.waiting.length >= this.limits.perTenant + this.limits.queuedPerTenant) {
      return Promise.reject(new TenantQueueFullError(tenant));
    }
    this.tenants.set(tenant, state);
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
            if (state.running === 0 && state.waiting.length === 0) this.tenants.delete(tenant);
            this.dispatch();
          });
      };
      state.waiting.push({ start });
      this.dispatch();
    });
  }

  /** Statements running and waiting, for metrics and tests. */
  get load(): { running: number; waiting: number } {
    let waiting = 0;
    for (const state of this.tenants.values()) waiting += state.waiting.length;
    return { running: this.running, waiting };
  }

  /** Starts waiting tasks while there is capacity, each for the eligible tenant served least recently. */
  private dispatch(): void {
    while (this.running < this.limits.capacity) {
      let next: TenantState | undefined;
      for (const state of this.tenants.values()) {
        const eligible = state.waiting.length > 0 && state.running < this.limits.perTenant;
        if (eligible && (!next || state.lastStart < next.lastStart)) next = state;
      }
      if (!next) return;
      next.lastStart = ++this.ticks;
      next.waiting.shift()!.start();
    }
  }
}
