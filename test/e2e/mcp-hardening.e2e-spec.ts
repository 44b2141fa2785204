// modes: embedded — MCP argument validation
import fc from 'fast-check';
import { hostileRaw, nearValid, validBodies } from '../support/fuzz-bodies';
import { HttpAnswer, listen, send, startAppWithEnv } from '../support/app-with-env';
import { TestApp, TestOrganization } from '../support/test-app';

/**
 * Issue 35 §6 (MCP): tool arguments are validated exactly like REST bodies (`__proto__` was accepted
 * by MCP and refused by REST), malformed `arguments` are a clean invalid-params error (an array once
 * answered an internal error carrying the validator's JSON), and an unknown tool name is not echoed at
 * length (a 900 KB name was reflected whole). Raw JSON-RPC over HTTP, as an attacker sends it.
 */
const ACCEPT = 'application/json, text/event-stream';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const toolCall = (id: number, name: string, argumentsText: string) =>
  `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":${JSON.stringify(name)},"arguments":${argumentsText}}}`;

describe('MCP tool arguments and names', () => {
  let t: TestApp;
  let base: string;
  let org: TestOrganization;

  beforeAll(async () => {
    t = await startAppWithEnv({ RATE_LIMIT_PER_MINUTE: '100000' });
    base = await listen(t);
    org = await t.newOrganization();
    await t.insertRows(org.organizationId, [
      { usage_date: '2026-10-01', amortized_cost: '5' },
      // The last four weeks, whenever the suite runs: a forecast's history, an anomaly scan's days.
      ...Array.from({ length: 28 }, (_, n) => ({
        usage_date: new Date(Date.now() - (n + 1) * 86_400_000).toISOString().slice(0, 10),
        amortized_cost: `${10 + (n % 7)}`,
      })),
    ]);
  });
  afterAll(() => t.close());

  const mcp = (body: string): Promise<HttpAnswer> =>
    send(`${base}/v1/mcp`, { method: 'POST', headers: { ...org.auth, 'Content-Type': 'application/json', Accept: ACCEPT }, body });
  const rest = (path: string, body: string): Promise<HttpAnswer> =>
    send(`${base}${path}`, { method: 'POST', headers: { ...org.auth, 'Content-Type': 'application/json' }, body });

  it('refuses prototype keys in arguments exactly like REST refuses them in a body', async () => {
    const bodies = [
      '{"groupBy":{"dateGrouping":"monthly"},"__proto__":{"x":1}}',
      '{"__proto__":{"organizationId":"00000000-0000-0000-0000-000000000000"},"groupBy":{"dateGrouping":"monthly"}}',
      '{"groupBy":{"dateGrouping":"monthly"},"constructor":{"prototype":1}}',
      '{"groupBy":{"dateGrouping":"monthly"},"filters":{"inclusions":{"__proto__":{"polluted":true}}}}',
    ];
    for (const body of bodies) {
      const restAnswer = await rest('/v1/cost-insights/data', body);
      expect([body, restAnswer.status]).toEqual([body, 400]);
      const answer = await mcp(toolCall(1, 'get_cost_data', body));
      expect(answer.status).toBe(200);
      const result = JSON.parse(answer.text).result;
      expect([body, result.isError, result.content[0].text]).toEqual([body, true, JSON.parse(restAnswer.text).error.message]);
    }
  });

  it('answers malformed arguments with a clean invalid-params error, without internals', async () => {
    for (const argumentsText of ['[1,2]', '[]', '"text"', '42', 'true', 'null', '[{"groupBy":{"dateGrouping":"monthly"}}]']) {
      const answer = await mcp(toolCall(7, 'get_cost_data', argumentsText));
      expect([argumentsText, answer.status]).toEqual([argumentsText, 200]);
      const parsed = JSON.parse(answer.text);
      expect(parsed.id).toBe(7);
      expect(parsed.error.code).toBe(-32602);
      expect(parsed.error.message).toMatch(/^Invalid params: arguments must be a JSON object/);
      expect(parsed.error.data).toBeUndefined();
      expect(answer.text).not.toMatch(/zod|"expected"|"path"|invalid_type|\n/i);
      expect(answer.text.length).toBeLessThan(300);
    }
    // A name that is not a string, or params that are not an object: the same kind of error.
    for (const message of [
      '{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":123,"arguments":{}}}',
      '{"jsonrpc":"2.0","id":8,"method":"tools/call","params":[1]}',
    ]) {
      const parsed = JSON.parse((await mcp(message)).text);
      expect([message, parsed.error?.code]).toEqual([message, -32602]);
      expect(JSON.stringify(parsed)).not.toMatch(/zod|"expected"|invalid_type/i);
    }
  });

  it('does not echo an unknown tool name at length', async () => {
    const longName = 'x'.repeat(900_000);
    const answer = await mcp(toolCall(3, longName, '{}'));
    expect(answer.status).toBe(200);
    expect(answer.text.length).toBeLessThan(500);
    const result = JSON.parse(answer.text).result;
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toMatch(/^Unknown tool "x{1,64}…" \(900000 characters\)\. Tools: get_cost_data/);
    // A short name is still named, so a typo is easy to see.
    const short = JSON.parse((await mcp(toolCall(4, 'get_cost_dat', '{}'))).text).result;
    expect(short.content[0].text).toMatch(/^Unknown tool "get_cost_dat"\. Tools: /);
  });

  /** One category per answer: ok, or the 400 message, for both routes. */
  async function parity(path: string, tool: string, bodies: string[]): Promise<{ compared: number; ok: number; refused: number }> {
    let [ok, refused] = [0, 0];
    for (const body of bodies) {
      const restAnswer = await rest(path, body);
      const mcpAnswer = await mcp(toolCall(1, tool, body));
      const restOutcome =
        restAnswer.status === 200
          ? 'ok'
          : restAnswer.status === 400
            ? `400 ${JSON.parse(restAnswer.text).error.message}`
            : restAnswer.status;
      let mcpOutcome: unknown;
      if (mcpAnswer.status !== 200)
        mcpOutcome = mcpAnswer.status === 400 ? `400 ${JSON.parse(mcpAnswer.text).error.message}` : mcpAnswer.status;
      else {
        const parsed: Json = JSON.parse(mcpAnswer.text);
        if (parsed.error) mcpOutcome = `400 ${parsed.error.code}`;
        else mcpOutcome = parsed.result.isError ? `400 ${parsed.result.content[0].text}` : 'ok';
      }
      if (typeof restOutcome === 'string' && restOutcome.startsWith('400') && typeof mcpOutcome === 'string') {
        // The body's shape is checked on the whole HTTP body (the arguments sit two levels deeper in MCP's),
        // and a body that is not an object is JSON-RPC's invalid params: both refusals, with their own words.
        const shape = /: has \d+ fields; at most|body: nested more than|body: has more than/;
        if (shape.test(restOutcome) || mcpOutcome === '400 -32602' || shape.test(mcpOutcome)) {
          expect([body.slice(0, 200), mcpOutcome.startsWith('400')]).toEqual([body.slice(0, 200), true]);
          refused++;
          continue;
        }
      }
      expect([body.slice(0, 300), mcpOutcome]).toEqual([body.slice(0, 300), restOutcome]);
      if (restOutcome === 'ok') ok++;
      else refused++;
    }
    return { compared: bodies.length, ok, refused };
  }

  it('validates generated arguments exactly like REST bodies (the REST fuzz’s generators)', async () => {
    const sample = (arbitrary: fc.Arbitrary<unknown>, n: number, seed: number) => fc.sample(arbitrary, { numRuns: n, seed });
    const texts = (valid: fc.Arbitrary<unknown>, seed: number) => [
      ...sample(valid, 25, seed).map((body) => JSON.stringify(body)),
      ...sample(nearValid(valid), 60, seed + 1).map((body) => JSON.stringify(body)),
      ...(sample(hostileRaw(valid), 80, seed + 2) as { text: string }[])
        .map((raw) => raw.text)
        .filter((text) => {
          try {
            JSON.parse(text);
            return text.length < 200_000;
          } catch {
            return false;
          }
        }),
    ];
    const data = await parity('/v1/cost-insights/data', 'get_cost_data', texts(validBodies.data, 3501));
    const compare = await parity('/v1/cost-insights/compare', 'compare_costs', texts(validBodies.compare, 3601));
    const forecast = await parity('/v1/cost-insights/forecast', 'forecast_costs', texts(validBodies.forecast, 3701));
    const anomalies = await parity('/v1/cost-insights/anomalies', 'find_anomalies', texts(validBodies.anomalies, 3801));
    console.log(
      `MCP/REST parity: /data ${JSON.stringify(data)}, /compare ${JSON.stringify(compare)}, /forecast ${JSON.stringify(forecast)}, /anomalies ${JSON.stringify(anomalies)}`,
    );
    for (const outcome of [data, compare, forecast, anomalies]) {
      expect(outcome.ok).toBeGreaterThan(5);
      expect(outcome.refused).toBeGreaterThan(50);
    }
    // A bound against a hang, not a speed: ~600 requests (~240 took up to 60 s on a loaded cluster).
  }, 240_000);
});

/**
 * Issue 35 §1: every tools/call is a unit of work. A batch of N costs N requests of the key's rate limit
 * (a 60-call batch once counted as one request), is refused whole with the 429 when they do not fit, and
 * holds at most MCP_MAX_BATCH_CALLS messages (a larger one is a 400 saying so).
 */
describe('MCP batches and the rate limit', () => {
  const LIMIT = 30;
  let t: TestApp;
  let base: string;

  beforeAll(async () => {
    t = await startAppWithEnv({ RATE_LIMIT_PER_MINUTE: String(LIMIT), MCP_MAX_BATCH_CALLS: '20' });
    base = await listen(t);
  });
  afterAll(() => t.close());

  const batch = (n: number) =>
    `[${Array.from({ length: n }, (_, i) => toolCall(i + 1, 'get_cost_data', '{"groupBy":{"dateGrouping":"monthly"},"limit":1}')).join(',')}]`;
  const post = (org: TestOrganization, body: string) =>
    send(`${base}/v1/mcp`, { method: 'POST', headers: { ...org.auth, 'Content-Type': 'application/json', Accept: ACCEPT }, body });
  const remaining = (answer: HttpAnswer) => Number(answer.headers.get('x-ratelimit-remaining'));

  it('counts each tools/call of a batch against the key’s limit and refuses a batch that does not fit, whole', async () => {
    const org = await t.newOrganization();
    const ten = await post(org, batch(10));
    expect(ten.status).toBe(200);
    expect(JSON.parse(ten.text)).toHaveLength(10);
    expect(remaining(ten)).toBe(LIMIT - 10);
    const fifteen = await post(org, batch(15));
    expect([fifteen.status, remaining(fifteen)]).toEqual([200, LIMIT - 25]);
    // 5 left: a batch of 10 is refused whole (its first unit counted, like any refused request), nothing runs.
    const refused = await post(org, batch(10));
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(refused.headers.get('x-ratelimit-limit')).toBe(String(LIMIT));
    expect(remaining(refused)).toBe(4);
    expect(JSON.parse(refused.text)).toEqual({
      success: false,
      error: {
        message: `Rate limit exceeded: this request carries 10 tool calls, each one request of the key's ${LIMIT} per minute, and 4 are left. Please retry after ${refused.headers.get('retry-after')} seconds.`,
      },
    });
    // What is left is still usable: a batch of exactly 4, then nothing.
    const four = await post(org, batch(4));
    expect([four.status, remaining(four)]).toEqual([200, 0]);
    const after = await post(org, batch(1));
    expect([after.status, remaining(after)]).toEqual([429, 0]);
    console.log(`MCP batch cost: 10 + 15 + 4 tool calls answered of a ${LIMIT}-request budget; a 10-call batch with 5 left refused whole`);
  });

  it('refuses a batch over MCP_MAX_BATCH_CALLS with a 400 that says the cap, at the cost of one request', async () => {
    const org = await t.newOrganization();
    const atCap = await post(org, batch(20));
    expect([atCap.status, remaining(atCap)]).toEqual([200, LIMIT - 20]);
    const over = await post(org, batch(21));
    expect([over.status, remaining(over)]).toEqual([400, LIMIT - 21]);
    expect(JSON.parse(over.text)).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32600,
        message: 'Invalid Request: a batch holds at most 20 messages (MCP_MAX_BATCH_CALLS); this one holds 21. Send fewer per POST.',
      },
    });
    const sixty = await post(org, batch(60));
    expect([sixty.status, remaining(sixty)]).toEqual([400, LIMIT - 22]);
  });

  it('counts a batch against the organisation’s budget too, one request per tools/call', async () => {
    const org = await t.newOrganization();
    const answer = await post(org, batch(12));
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-ratelimit-organization-remaining')).toBe(String(4 * LIMIT - 12));
  });
});
