// modes: embedded server — the process's statement queue, without and with a server
import { startAppWithEnv } from '../support/app-with-env';
import { TestApp } from '../support/test-app';

/**
 * Issue 35 §1: one key's flood must not monopolise its organisation's statement queue. A 100-call MCP
 * batch once filled it, and the organisation's other keys got "too many queries". Each key now holds at
 * most MAX_QUEUED_STATEMENTS_PER_KEY of the queue and the organisation's keys take turns. Proven by
 * counts: which statements started before the other key's, and who was refused.
 */
const DATA = '/v1/cost-insights/data';

describe('fairness between the keys of one organisation', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startAppWithEnv({
      MAX_CONCURRENT_STATEMENTS_PER_ORGANIZATION: '1',
      MAX_QUEUED_STATEMENTS_PER_ORGANIZATION: '8',
      MAX_QUEUED_STATEMENTS_PER_KEY: '4',
      RESULT_CACHE_MAX_MB: '0',
      RATE_LIMIT_PER_MINUTE: '100000',
    });
  });
  afterAll(() => t.close());

  it('gives another key the next turn and its own room in the queue while one key floods it', async () => {
    const flooder = await t.newOrganization();
    const other = await t.keyFor(flooder.organizationId);
    await t.insertRows(flooder.organizationId, [{ usage_date: '2026-10-01', service: 'Amazon EC2', amortized_cost: '1' }]);
    // The order in which the statements of either key start on the engine (their filter values tell them apart).
    const started: string[] = [];
    const client = t.clickhouse.client as unknown as Record<'query' | 'exec', (arg: { query_params?: unknown }) => Promise<unknown>>;
    for (const method of ['query', 'exec'] as const) {
      const original = client[method].bind(client);
      client[method] = (arg) => {
        const params = JSON.stringify(arg.query_params ?? {});
        if (params.includes('probe-marker')) started.push('probe');
        if (!params.includes('flood-marker')) return original(arg);
        started.push('flood');
        // An expensive statement: it holds its slot a while (what a daily-by-usageType question does for seconds).
        return new Promise((resolve) => setTimeout(resolve, 40)).then(() => original(arg));
      };
    }
    // When the other key's statement asks for its turn (before the scheduler), as opposed to when it starts.
    const queueRaw = t.clickhouse.queryRaw.bind(t.clickhouse);
    t.clickhouse.queryRaw = ((sql, params, options) => {
      if (JSON.stringify(params ?? {}).includes('probe-marker')) started.push('probe asks');
      return queueRaw(sql, params, options);
    }) as typeof t.clickhouse.queryRaw;
    const body = (marker: string) => ({
      groupBy: { dateGrouping: 'daily', dimension: 'service' },
      filters: { inclusions: { dateRange: { start: '2026-01-01', end: '2026-12-31' } }, exclusions: { services: [marker] } },
    });
    const flood = Array.from({ length: 24 }, () =>
      t.http
        .post(DATA)
        .set(flooder.auth)
        .send(body('flood-marker'))
        .then((r) => r),
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    const probe = await t.http.post(DATA).set(other.auth).send(body('probe-marker'));
    const floodAnswers = await Promise.all(flood);

    expect(probe.status).toBe(200);
    const refusals = floodAnswers.filter((answer) => answer.status === 429);
    // Flood statements that started while the other key's statement waited for its turn.
    const floodStartedBefore = started.slice(started.indexOf('probe asks'), started.indexOf('probe')).filter((s) => s === 'flood').length;
    console.log(
      `key fairness: ${floodAnswers.length} flood requests, ${refusals.length} refused (per-key share of the queue), ` +
        `${floodStartedBefore} flood statements started while the other key's waited, of ${started.filter((s) => s === 'flood').length} in all`,
    );
    // The flooding key holds its share (1 running + 4 waiting) and is refused past it; the other key is not.
    expect(refusals.length).toBeGreaterThanOrEqual(24 - 1 - 4 - 4);
    expect(refusals[0].body.error.message).toBe(
      'Rate limit exceeded: too many queries of this API key are in progress. Please retry after 1 seconds.',
    );
    // Its statement ran next after the one already running (MAX_CONCURRENT_STATEMENTS_PER_ORGANIZATION), not after the flood's queue.
    expect(started.indexOf('probe asks')).toBeGreaterThanOrEqual(0);
    expect(floodStartedBefore).toBeLessThanOrEqual(1);
  });
});
