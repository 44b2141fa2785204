import { FairScheduler, TenantQueueFullError } from './fair-scheduler';

/** A task that finishes when the test says so, recording when it started. */
function controllable(log: string[], name: string) {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return {
    task: () => {
      log.push(name);
      return done.then(() => name);
    },
    finish: async () => {
      finish();
      await new Promise((resolve) => setImmediate(resolve));
    },
  };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('FairScheduler', () => {
  it('gives a tenant that arrives later the next free slot, ahead of another tenant queued earlier', async () => {
    const scheduler = new FairScheduler({ capacity: 1, perTenant: 1, queuedPerTenant: 100 });
    const log: string[] = [];
    const heavy = Array.from({ length: 10 }, (_, i) => controllable(log, `a${i}`));
    const heavyRuns = heavy.map((item) => scheduler.run('a', item.task));
    const light = controllable(log, 'b0');
    const lightRun = scheduler.run('b', light.task);
    await flush();
    expect(log).toEqual(['a0']);
    await heavy[0].finish();
    expect(log).toEqual(['a0', 'b0']); // b did not wait for a1..a9
    await light.finish();
    await expect(lightRun).resolves.toBe('b0');
    for (const item of heavy.slice(1)) await item.finish();
    await expect(Promise.all(heavyRuns)).resolves.toEqual(heavy.map((_, i) => `a${i}`));
    expect(log).toEqual(['a0', 'b0', 'a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'a7', 'a8', 'a9']);
    expect(scheduler.load).toEqual({ running: 0, waiting: 0 });
  });

  it('keeps free capacity for others: one tenant never runs more than perTenant at once', async () => {
    const scheduler = new FairScheduler({ capacity: 4, perTenant: 2, queuedPerTenant: 100 });
    const log: string[] = [];
    const tasks = Array.from({ length: 5 }, (_, i) => controllable(log, `a${i}`));
    tasks.forEach((item) => void scheduler.run('a', item.task));
    await flush();
    expect(log).toEqual(['a0', 'a1']);
    const other = controllable(log, 'b0');
    void scheduler.run('b', other.task);
    await flush();
    expect(log).toEqual(['a0', 'a1', 'b0']);
    expect(scheduler.load).toEqual({ running: 3, waiting: 3 });
    await tasks[1].finish();
    expect(log).toEqual(['a0', 'a1', 'b0', 'a2']);
  });

  it('alternates between tenants with work waiting', async () => {
    const scheduler = new FairScheduler({ capacity: 1, perTenant: 1, queuedPerTenant: 100 });
    const log: string[] = [];
    const items = new Map(['a0', 'a1', 'a2', 'b0', 'b1', 'c0'].map((name) => [name, controllable(log, name)]));
    for (const [name, item] of items) void scheduler.run(name[0], item.task);
    for (let i = 0; i < items.size; i++) {
      await flush();
      await items.get(log[log.length - 1])!.finish(); // the one running
    }
    expect(log).toEqual(['a0', 'b0', 'c0', 'a1', 'b1', 'a2']);
  });

  it('refuses a statement beyond a tenant running and queued limit, and still runs failing tasks to the end', async () => {
    const scheduler = new FairScheduler({ capacity: 1, perTenant: 1, queuedPerTenant: 2 });
    const log: string[] = [];
    const items = Array.from({ length: 3 }, (_, i) => controllable(log, `a${i}`));
    const runs = items.map((item) => scheduler.run('a', item.task));
    await expect(scheduler.run('a', async () => 'x')).rejects.toBeInstanceOf(TenantQueueFullError);
    const otherTenant = scheduler.run('b', async () => 'other tenant');
    const failing = scheduler
      .run('c', () => {
        throw new Error('boom');
      })
      .catch((error: Error) => `rejected: ${error.message}`);
    for (const item of items) await item.finish();
    await expect(otherTenant).resolves.toBe('other tenant');
    await expect(failing).resolves.toBe('rejected: boom');
    await expect(Promise.all(runs)).resolves.toEqual(['a0', 'a1', 'a2']);
    expect(scheduler.load).toEqual({ running: 0, waiting: 0 });
  });

  it('shares a tenant between its keys: another key’s statement runs next, not after one key’s flood (counted)', async () => {
    const scheduler = new FairScheduler({ capacity: 1, perTenant: 1, queuedPerTenant: 100, queuedPerKey: 100 });
    const log: string[] = [];
    const flood = Array.from({ length: 30 }, (_, i) => controllable(log, `a${i}`));
    const floodRuns = flood.map((item) => scheduler.run('org', item.task, 'key-a'));
    const other = controllable(log, 'b0');
    const otherRun = scheduler.run('org', other.task, 'key-b');
    await flush();
    await flood[0].finish();
    await other.finish();
    await otherRun;
    // Statements of the flooding key that started before the other key's one: the one already running.
    expect(log.indexOf('b0')).toBe(1);
    for (const item of flood.slice(1)) await item.finish();
    await Promise.all(floodRuns);
    expect(scheduler.load).toEqual({ running: 0, waiting: 0 });
  });

  it('keeps a share of the tenant’s queue for its other keys: one key holds at most queuedPerKey', async () => {
    const scheduler = new FairScheduler({ capacity: 1, perTenant: 1, queuedPerTenant: 8, queuedPerKey: 4 });
    const log: string[] = [];
    const flood = Array.from({ length: 12 }, (_, i) => controllable(log, `a${i}`));
    const outcomes = flood.map((item) =>
      scheduler.run('org', item.task, 'key-a').then(
        () => 'ran',
        (error: unknown) => (error instanceof TenantQueueFullError && error.byKey ? 'refused' : 'other'),
      ),
    );
    await flush();
    // One running and four waiting: the flooding key's share; the other seven refused at once.
    expect(scheduler.load).toEqual({ running: 1, waiting: 4 });
    const others = Array.from({ length: 3 }, (_, i) => controllable(log, `b${i}`));
    const otherRuns = others.map((item) => scheduler.run('org', item.task, 'key-b'));
    await flush();
    expect(scheduler.load).toEqual({ running: 1, waiting: 7 });
    for (const item of [...flood, ...others]) await item.finish();
    await Promise.all(otherRuns);
    const counts = (await Promise.all(outcomes)).reduce<Record<string, number>>(
      (acc, outcome) => ({ ...acc, [outcome]: (acc[outcome] ?? 0) + 1 }),
      {},
    );
    expect(counts).toEqual({ ran: 5, refused: 7 });
    // The tenant's own bound still holds for all its keys together.
    expect(log.slice(0, 3)).toEqual(['a0', 'b0', 'a1']);
  });
});
