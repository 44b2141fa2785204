// modes: embedded server — rate accounting in memory, then in Redis
import autocannon from 'autocannon';
import { listen, startAppWithEnv } from '../support/app-with-env';
import { TestApp, TestOrganization } from '../support/test-app';

/**
 * Load: autocannon at several concurrency levels against /data and /filters, round-robin over many
 * keys. Properties: 0 connection errors, 0 timeouts, only 200 and the expected 429s, and the rate
 * limiter's accounting exact per key (the first RATE_LIMIT_PER_MINUTE requests of each key answered,
 * every later one 429, X-RateLimit-Remaining counting down exactly — the window starts at a key's first
 * request and each run lasts seconds).
 * The answered /data bodies are checked against the rows inserted (no corruption under concurrency).
 */
const LIMIT = 12;
const KEYS_PER_LEVEL = 8;
const REQUESTS_PER_KEY = 18; // 12 answered + 6 refused per key
const LEVELS = [1, 8, 32];
const RANGE = { start: '2026-10-01', end: '2026-10-31' };

/** autocannon hands response headers over as an object or as a flat [name, value, …] list. */
function headerValue(headers: unknown, name: string): string | undefined {
  if (Array.isArray(headers)) {
    for (let i = 0; i < headers.length; i += 2) if (String(headers[i]).toLowerCase() === name) return String(headers[i + 1]);
    return undefined;
  }
  const record = (headers ?? {}) as Record<string, unknown>;
  const found = Object.keys(record).find((h) => h.toLowerCase() === name);
  return found === undefined ? undefined : String(record[found]);
}

describe('load (autocannon)', () => {
  let t: TestApp;
  let base: string;
  const orgs: TestOrganization[] = [];

  beforeAll(async () => {
    // Per key only: eight keys of an organisation per level would meet its budget (api-key-caps.e2e-spec.ts tests that one).
    t = await startAppWithEnv({ RATE_LIMIT_PER_MINUTE: String(LIMIT), ORGANIZATION_RATE_LIMIT_PER_MINUTE: '1000000' });
    base = await listen(t);
    for (let i = 0; i < 3; i++) {
      const org = await t.newOrganization();
      await t.insertRows(org.organizationId, [
        { usage_date: '2026-10-01', service: 'Amazon EC2', amortized_cost: '1.5' },
        { usage_date: '2026-10-09', service: 'Amazon S3', amortized_cost: '2.25' },
      ]);
      orgs.push(org);
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  it.each(LEVELS)(
    'serves %i concurrent connections: 0 errors, 0 timeouts, only 200 and exact 429s',
    async (connections) => {
      // Fresh keys for each level (spread over the organisations), so each key's window starts in this run.
      const keys = await Promise.all(
        Array.from({ length: KEYS_PER_LEVEL }, (_, i) => t.keyFor(orgs[i % orgs.length].organizationId, ['cost:read'])),
      );
      const perKey = new Map<string, Record<number, number>>(keys.map((k) => [k.key, {}]));
      const remaining = new Map<string, number[]>(keys.map((k) => [k.key, []]));
      let next = 0;
      let badBodies = 0;
      const dataBody = JSON.stringify({
        filters: { inclusions: { dateRange: RANGE } },
        groupBy: { dateGrouping: 'monthly', dimension: 'service' },
      });
      const filtersBody = JSON.stringify({ filters: { inclusions: { dateRange: RANGE } }, fields: ['services', 'accounts'] });
      type Context = { key?: string; path?: string };
      const request = (path: string, body: string): autocannon.Request => ({
        method: 'POST',
        path,
        body,
        setupRequest: (req: autocannon.Request, context: object) => {
          const key = keys[next++ % keys.length].key;
          Object.assign(context as Context, { key, path });
          return { ...req, headers: { ...req.headers, 'content-type': 'application/json', authorization: `Bearer ${key}` } };
        },
        onResponse: (status: number, responseBody: string, context: object, headers?: Record<string, unknown>) => {
          const { key } = context as Context;
          const counts = perKey.get(key!)!;
          counts[status] = (counts[status] ?? 0) + 1;
          if (status === 200) remaining.get(key!)!.push(Number(headerValue(headers, 'x-ratelimit-remaining')));
          if (status === 200 && path.endsWith('/data')) {
            const items = JSON.parse(responseBody).data.items.map(
              (i: { dimension_value: string; amortized_cost: number }) => `${i.dimension_value}=${i.amortized_cost}`,
            );
            if (items.join() !== 'Amazon EC2=1.5,Amazon S3=2.25') badBodies += 1;
          }
        },
      });
      const result = await autocannon({
        url: base,
        connections,
        amount: KEYS_PER_LEVEL * REQUESTS_PER_KEY,
        timeout: 20,
        requests: [request('/v1/cost-insights/data', dataBody), request('/v1/cost-insights/filters', filtersBody)],
      });

      const statuses = Object.fromEntries(
        Object.entries(result.statusCodeStats ?? {}).map(([code, stats]) => [code, (stats as { count: number }).count]),
      );
      console.log(
        `load[${process.env.E2E_MODE}] ${connections} connections, ${KEYS_PER_LEVEL} keys × ${REQUESTS_PER_KEY} requests (limit ${LIMIT}/min): ` +
          `${result.requests.total} requests in ${result.duration.toFixed(1)} s, statuses ${JSON.stringify(statuses)}, errors ${result.errors}, ` +
          `timeouts ${result.timeouts}, latency p50 ${result.latency.p50} ms p99 ${result.latency.p99} ms, ${result.requests.average} req/s`,
      );
      expect(result.errors).toBe(0);
      expect(result.timeouts).toBe(0);
      expect(Object.keys(statuses).sort()).toEqual(['200', '429']);
      expect(badBodies).toBe(0);
      // Exact accounting: every key answered exactly LIMIT times, every further request refused.
      let sent = 0;
      for (const [key, counts] of perKey) {
        const total = Object.values(counts).reduce((a, b) => a + b, 0);
        sent += total;
        expect({ key: key.slice(0, 16), counts }).toEqual({
          key: key.slice(0, 16),
          counts: { 200: Math.min(total, LIMIT), ...(total > LIMIT ? { 429: total - LIMIT } : {}) },
        });
      }
      expect(sent).toBe(result.requests.total);
      // X-RateLimit-Remaining counted down exactly once per answered request of each key: LIMIT-1 … 0.
      for (const values of remaining.values())
        expect(values.sort((a, b) => b - a)).toEqual(Array.from({ length: LIMIT }, (_, i) => LIMIT - 1 - i));
      expect(statuses['200']).toBe(KEYS_PER_LEVEL * LIMIT);
    },
    120_000,
  );
});
