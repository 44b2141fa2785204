// modes: embedded server — the whole run on a server (query_log checked too), a quarter on the embedded client; a cluster changes nothing at the HTTP layer
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { listen, pool, send, startAppWithEnv, startClickhouseWithQueryLog } from '../support/app-with-env';
import {
  encodedKeyPlacement,
  HOSTILE_MARKER,
  hostileRaw,
  hostileString,
  nearValid,
  outOfRuleRatesFile,
  outOfRuleSourceParameter,
  ratesFile,
  RawBody,
  validBodies,
} from '../support/fuzz-bodies';
import { LocalServer } from '../support/local-servers';
import { TestApp, TestOrganization } from '../support/test-app';

/**
 * Property-based fuzzing over HTTP, every endpoint: ≥10,000 generated requests per run (valid bodies
 * with hostile strings in every slot, near-valid bodies, hostile raw bodies). Properties:
 *  - every answer is a 2xx or a 4xx envelope (0 5xx, 0 hangs — a per-request timeout), except the
 *    spec's 500 "Shared filter not found or has expired." for a well-formed unknown filter id;
 *  - no 4xx message leaks internals;
 *  - no hostile string ever reaches ClickHouse as SQL text: values travel only as query parameters.
 *    Checked on every SQL text the application's ClickHouse client sends (both modes) and, in server
 *    mode, in ClickHouse's own system.query_log (on a server of this file's own with query_log enabled:
 *    clickhouse-local — the embedded engine and the suite's shared server — has no query_log). The
 *    query_log shows parameters substituted as literals, so it is checked with normalizeQuery(), which
 *    replaces literals by `?`: the marker may appear inside a literal, never outside one.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261121);
/** For investigating a failure: FUZZ_ONLY=/filters runs one endpoint's cases. */
const ONLY = process.env.FUZZ_ONLY;
/**
 * The whole run (≥10,000 requests) on a ClickHouse server, where ClickHouse's own query_log is checked too; a quarter
 * of it on the embedded engine, whose client sends the SQL text and parameters its own way (checked the same).
 */
const SCALE = Number(process.env.FUZZ_SCALE ?? (process.env.E2E_MODE === 'server' ? 1 : 0.25));
const CONCURRENCY = 16;
/**
 * A hang is no answer within this: a liveness bound, not a speed check. The statements of one organisation take
 * turns (4 at a time), so 16 concurrent hostile /filters bodies (13 branches, up to 1,000 values per list) queue;
 * with other suites on the same two cores answers took up to 15 s, so the bound is 60 s.
 */
const REQUEST_TIMEOUT_MS = 60_000;
const serverMode = process.env.E2E_MODE === 'server';

const NOT_FOUND_FILTER = JSON.stringify({ success: false, error: { message: 'Shared filter not found or has expired.' } });
/** Internals that must never reach a client (generated input echoed in a 400 may contain anything else). */
const LEAK = /DB::Exception|\(version \d+\.\d+|ClickHouseError|node_modules|ECONNREFUSED|ETIMEDOUT|\bat \S+ \(\/|\.ts:\d+|\.js:\d+/;

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

interface Case {
  endpoint: string;
  kind: 'valid' | 'near-valid' | 'hostile' | 'id' | 'encoded-key';
  method: 'POST' | 'GET' | 'DELETE';
  path: string;
  body?: RawBody;
  /** Replaces the case's own valid Authorization header (encoded-key cases). */
  authorization?: string | null;
}

describe(`fuzzing every endpoint (fast-check, seed ${SEED})`, () => {
  let t: TestApp;
  let base: string;
  let org: TestOrganization;
  let ownClickhouse: LocalServer | undefined;
  const sql = { texts: 0, withMarker: 0, paramsWithMarker: 0, examples: [] as string[] };
  /** The only directory data sources may name (an empty one: checking it finds nothing). */
  const sourcesRoot = resolve(process.env.E2E_TMP_DIR ?? '.test-tmp', `fuzz-sources-${process.pid}`);
  /** Keys created by the generated admin requests, each with a generated data scope. */
  const scopedKeys: string[] = [];
  // ── Anomaly feedback (hardening: feedback inside the key's scope, audited) ──
  /** An organisation of its own with one anomaly (40 days at 100, 500 three days ago): valid feedback names it. */
  let anomalyOrg: TestOrganization;
  let anomalyId: string;
  const prepareAnomaly = async () => {
    anomalyOrg = await t.newOrganization();
    await t.insertRows(
      anomalyOrg.organizationId,
      Array.from({ length: 40 }, (_, n) => ({
        usage_date: day(Date.now() - (n + 1) * 86_400_000),
        amortized_cost: n === 2 ? '500' : '100',
      })),
    );
    const scan = await send(`${base}/v1/cost-insights/anomalies`, {
      method: 'POST',
      headers: { ...anomalyOrg.auth, 'Content-Type': 'application/json' },
      body: '{}',
    });
    [{ id: anomalyId }] = (JSON.parse(scan.text) as { data: { anomalies: Array<{ id: string }> } }).data.anomalies;
  };
  // ── end of anomaly feedback ──

  beforeAll(async () => {
    if (serverMode) ownClickhouse = await startClickhouseWithQueryLog(join(process.env.E2E_TMP_DIR!, `fuzz-clickhouse-${process.pid}`));
    mkdirSync(sourcesRoot, { recursive: true });
    t = await startAppWithEnv({
      INGEST_FILE_ROOT: sourcesRoot,
      RATE_LIMIT_PER_MINUTE: '1000000',
      UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE: '1000000',
      ...(ownClickhouse ? { CLICKHOUSE_URL: ownClickhouse.url } : {}),
    });
    base = await listen(t);
    org = await t.newOrganization();
    await t.insertRows(org.organizationId, [
      {
        usage_date: '2026-10-01',
        service: 'Amazon EC2',
        amortized_cost: '1.5',
        resource_tags: { env: 'prod', "o'brien": "x' OR 1=1 --" },
        cost_categories: { 'Business Unit': 'a\\b' },
      },
      {
        usage_date: '2026-10-15',
        service: 'Amazon S3',
        cloud: 'Azure',
        amortized_cost: '2.25',
        resource_tags: { 'nul\u0000key': '\u0000' },
      },
      { usage_date: '2026-09-03', service: '(not set)', amortized_cost: '3' },
      { usage_date: '2026-10-20', service: 'Virtual Machines', cloud: 'Azure', billing_currency: 'EUR', amortized_cost: '4.75' },
      // The last four weeks, whenever the suite runs: a forecast's history.
      ...Array.from({ length: 28 }, (_, n) => ({
        usage_date: day(Date.now() - (n + 1) * 86_400_000),
        amortized_cost: `${10 + (n % 7)}.5`,
      })),
    ]);
    // EUR and USD both convert (a rate every day the rows need); JPY has no rates: a valid body asking for it is a 400.
    const rates = [
      'date,from,to,rate',
      ...Array.from({ length: 70 }, (_, n) => `${day(Date.UTC(2026, 7, 25) + n * 86_400_000)},EUR,USD,1.08`),
    ];
    const loaded = await send(`${base}/v1/admin/exchange-rates?source=fuzz`, {
      method: 'POST',
      headers: { ...org.auth, 'Content-Type': 'text/csv' },
      body: rates.join('\n'),
    });
    expect(loaded.status).toBe(200);
    await prepareAnomaly();
    // Observe (not replace) every SQL text the application's client sends to ClickHouse.
    const client = t.clickhouse.client as unknown as Record<
      'query' | 'command',
      (p: { query: string; query_params?: unknown }) => Promise<unknown>
    >;
    for (const method of ['query', 'command'] as const) {
      const original = client[method].bind(client);
      client[method] = (params) => {
        sql.texts += 1;
        if (params.query.includes(HOSTILE_MARKER)) {
          sql.withMarker += 1;
          if (sql.examples.length < 3) sql.examples.push(params.query.slice(0, 500));
        }
        if (JSON.stringify(params.query_params ?? {}).includes(HOSTILE_MARKER)) sql.paramsWithMarker += 1;
        return original(params);
      };
    }
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    await ownClickhouse?.stop();
  });

  /** A query parameter of the audit trail: absent (a third), well-formed (a third) or generated text. */
  const auditParameter = (wellFormed: fc.Arbitrary<string>): fc.Arbitrary<string | undefined> =>
    fc.oneof(fc.constant(undefined), wellFormed, hostileString);

  function buildCases(): Case[] {
    const sample = <T>(arb: fc.Arbitrary<T>, numRuns: number, offset: number) => fc.sample(arb, { numRuns, seed: SEED + offset });
    const json = (body: unknown): RawBody => ({ text: JSON.stringify(body), contentType: 'application/json' });
    const post = (
      endpoint: string,
      path: string,
      valid: fc.Arbitrary<unknown>,
      counts: [number, number, number],
      offset: number,
    ): Case[] => [
      ...sample(valid, Math.ceil(counts[0] * SCALE), offset).map((b) => ({
        endpoint,
        kind: 'valid' as const,
        method: 'POST' as const,
        path,
        body: json(b),
      })),
      ...sample(nearValid(valid), Math.ceil(counts[1] * SCALE), offset + 1).map((b) => ({
        endpoint,
        kind: 'near-valid' as const,
        method: 'POST' as const,
        path,
        body: json(b),
      })),
      ...sample(hostileRaw(valid), Math.ceil(counts[2] * SCALE), offset + 2).map((body) => ({
        endpoint,
        kind: 'hostile' as const,
        method: 'POST' as const,
        path,
        body,
      })),
    ];
    const ids = [
      ...sample(hostileString, 300, 100).map((s) => encodeURIComponent(s)),
      ...sample(fc.string({ unit: 'binary', minLength: 1, maxLength: 60 }), 150, 101).map((s) => encodeURIComponent(s)),
      // Well-formed ids that were never issued: the spec's 500 "not found".
      ...sample(fc.stringMatching(/^sf_[A-Za-z0-9_-]{24}$/), 150, 102),
    ];
    return [
      ...post('/data', '/v1/cost-insights/data', validBodies.data, [100, 2000, 300], 0),
      ...post('/compare', '/v1/cost-insights/compare', validBodies.compare, [60, 1600, 250], 10),
      ...post('/filters', '/v1/cost-insights/filters', validBodies.filters, [20, 1000, 100], 20),
      ...post('/tag-values', '/v1/cost-insights/tag-values', validBodies.tagValues, [60, 1000, 300], 30),
      ...post('/cost-category-values', '/v1/cost-insights/cost-category-values', validBodies.costCategoryValues, [60, 1000, 300], 40),
      ...post('/shared-filters', '/v1/cost-insights/shared-filters', validBodies.sharedFilter(org.organizationId), [60, 1000, 300], 50),
      ...post('/admin/api-keys', '/v1/admin/api-keys', validBodies.apiKey, [200, 600, 200], 60),
      ...post('/invoices', '/v1/cost-insights/invoices', validBodies.invoices, [60, 600, 200], 80),
      ...post('/forecast', '/v1/cost-insights/forecast', validBodies.forecast, [60, 600, 200], 82),
      ...post('/anomalies', '/v1/cost-insights/anomalies', validBodies.anomalies, [60, 600, 200], 83),
      // At most 100 sources per organisation: the valid ones (in the organisation's folder) stay below it.
      ...post('/admin/sources', '/v1/admin/sources', validBodies.source(join(sourcesRoot, org.organizationId)), [60, 400, 150], 85),
      ...sample(ratesFile, Math.ceil(300 * SCALE), 90).map(({ text, valid }) => ({
        endpoint: '/admin/exchange-rates',
        kind: valid ? ('valid' as const) : ('hostile' as const),
        method: 'POST' as const,
        path: '/v1/admin/exchange-rates',
        body: { text, contentType: 'text/csv' },
      })),
      ...ids.map((id) => ({
        endpoint: 'DELETE /admin/api-keys/{id}',
        kind: 'id' as const,
        method: 'DELETE' as const,
        path: `/v1/admin/api-keys/${id}`,
      })),
      ...ids.map((id) => ({
        endpoint: 'DELETE /shared-filters/{id}',
        kind: 'id' as const,
        method: 'DELETE' as const,
        path: `/v1/cost-insights/shared-filters/${id}`,
      })),
      ...ids.slice(0, 300).flatMap((id) => [
        { endpoint: 'POST /admin/sources/{id}/run', kind: 'id' as const, method: 'POST' as const, path: `/v1/admin/sources/${id}/run` },
        {
          endpoint: 'GET /admin/sources/{id}/history',
          kind: 'id' as const,
          method: 'GET' as const,
          path: `/v1/admin/sources/${id}/history`,
        },
      ]),
      // ── Anomaly feedback (hardening: feedback inside the key's scope, audited) ──
      // Generated bodies on its organisation's anomaly, then generated and well-formed unknown ids (a 404) with a valid body.
      ...post(
        'POST /anomalies/{id}/feedback',
        `/v1/cost-insights/anomalies/${anomalyId}/feedback`,
        validBodies.anomalyFeedback,
        [20, 300, 150],
        110,
      ).map((c) => ({ ...c, authorization: anomalyOrg.auth.Authorization })),
      ...[...ids.slice(0, 300), ...sample(fc.stringMatching(/^an_[0-9a-f]{24}$/), 100, 113)].map((id) => ({
        endpoint: 'POST /anomalies/{id}/feedback',
        kind: 'id' as const,
        method: 'POST' as const,
        path: `/v1/cost-insights/anomalies/${id}/feedback`,
        body: json({ reason: 'expected' }),
      })),
      // ── end of anomaly feedback ──
      // The audit trail's filters: each query parameter absent, well-formed or generated text; the actor (any printable
      // text is one) reaches ClickHouse as a parameter.
      ...sample(
        fc.record({
          from: auditParameter(
            fc.date({ min: new Date('2000-01-01'), max: new Date('2050-12-31'), noInvalidDate: true }).map((d) => d.toISOString()),
          ),
          to: auditParameter(
            fc
              .date({ min: new Date('2051-01-01'), max: new Date('2099-12-31'), noInvalidDate: true })
              .map((d) => d.toISOString().slice(0, 10)),
          ),
          actor: auditParameter(hostileString),
          action: auditParameter(fc.constantFrom('api-key.created', 'source.run')),
          limit: auditParameter(fc.integer({ min: 1, max: 1000 }).map(String)),
          cursor: fc.option(hostileString, { nil: undefined, freq: 4 }),
        }),
        Math.ceil(300 * SCALE),
        104,
      ).map((query) => ({
        endpoint: 'GET /admin/audit-events',
        kind: 'hostile' as const,
        method: 'GET' as const,
        path: `/v1/admin/audit-events?${new URLSearchParams(Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined)).toString()}`,
      })),
      ...ids.map((id) => ({
        endpoint: 'GET /shared-filters/{id}',
        kind: 'id' as const,
        method: 'GET' as const,
        path: `/v1/cost-insights/shared-filters/${id}`,
      })),
      // Mangled keys in the URL and the Authorization header: the spec's 401 (or, beside a valid key, a normal answer).
      ...sample(fc.tuple(encodedKeyPlacement, validBodies.data, fc.boolean()), Math.ceil(300 * SCALE), 103).map(
        ([placement, body, withValidKey]) => ({
          endpoint: '/data',
          kind: 'encoded-key' as const,
          method: 'POST' as const,
          path: `/v1/cost-insights/data${placement.query}`,
          body: json(body),
          authorization: withValidKey ? undefined : (placement.authorization ?? null),
        }),
      ),
    ];
  }

  /** The property every answer must satisfy; returns what is wrong, or undefined. */
  function problemWith(c: Case, status: number, text: string): string | undefined {
    if (status === 0) return `no answer within ${REQUEST_TIMEOUT_MS} ms`;
    if (status >= 500) {
      const wellFormedUnknownId = c.kind === 'id' && /^\/v1\/cost-insights\/shared-filters\/sf_[A-Za-z0-9_-]{24}$/.test(c.path);
      return wellFormedUnknownId && status === 500 && text === NOT_FOUND_FILTER ? undefined : `${status} ${text.slice(0, 300)}`;
    }
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(text);
    } catch {
      return `${status} with a non-JSON body`;
    }
    if (status >= 200 && status < 300)
      return body.success === true && 'data' in body ? undefined : `${status} without the success envelope`;
    if (status === 429) return '429: the fuzzing app must not be rate limited';
    if (status === 401) {
      const unauthenticated = c.kind === 'encoded-key' && c.authorization !== undefined;
      return unauthenticated && text === '{"message":"Unauthorized"}' ? undefined : `401 ${text.slice(0, 200)}`;
    }
    const error = body.error as Record<string, unknown> | undefined;
    const envelope =
      Object.keys(body).sort().join() === 'error,success' &&
      body.success === false &&
      error &&
      Object.keys(error).join() === 'message' &&
      typeof error.message === 'string' &&
      error.message.length > 0;
    if (!envelope) return `${status} without the error envelope: ${text.slice(0, 200)}`;
    // Only check the part of the message that is not an echo of generated input.
    if (LEAK.test(error.message as string)) return `${status} leaks internals: ${text.slice(0, 300)}`;
    return undefined;
  }

  it('answers ≥10,000 generated requests with a 2xx or a 4xx envelope: 0 5xx, 0 hangs', async () => {
    const cases = buildCases().filter((c) => !ONLY || c.endpoint === ONLY);
    if (!ONLY && SCALE === 1) expect(cases.length).toBeGreaterThanOrEqual(10_000);
    const started = Date.now();
    const answers = await pool(cases, CONCURRENCY, (c) =>
      send(
        base + c.path,
        {
          method: c.method,
          headers: {
            ...(c.authorization === undefined ? org.auth : c.authorization === null ? {} : { Authorization: c.authorization }),
            ...(c.body && c.body.contentType ? { 'Content-Type': c.body.contentType } : {}),
          },
          body: c.body?.text,
        },
        REQUEST_TIMEOUT_MS,
      ),
    );
    const seconds = (Date.now() - started) / 1000;

    const failures: string[] = [];
    const byEndpoint = new Map<
      string,
      { total: number; ok2xx: number; c4xx: number; validOk: number; valid: number; spec500: number; ms2xx: number }
    >();
    let slowest = 0;
    const kinds = new Map<string, { total: number; ok2xx: number }>();
    answers.forEach((answer, i) => {
      const c = cases[i];
      const row = byEndpoint.get(c.endpoint) ?? { total: 0, ok2xx: 0, c4xx: 0, validOk: 0, valid: 0, spec500: 0, ms2xx: 0 };
      row.total += 1;
      if (answer.status >= 200 && answer.status < 300) {
        row.ok2xx += 1;
        row.ms2xx += answer.ms;
      } else if (answer.status >= 400 && answer.status < 500) row.c4xx += 1;
      else if (answer.status === 500) row.spec500 += 1;
      if (c.kind === 'valid') {
        row.valid += 1;
        if (answer.status >= 200 && answer.status < 300) row.validOk += 1;
      }
      byEndpoint.set(c.endpoint, row);
      const kind = kinds.get(c.kind) ?? { total: 0, ok2xx: 0 };
      kind.total += 1;
      if (answer.status >= 200 && answer.status < 300) kind.ok2xx += 1;
      kinds.set(c.kind, kind);
      slowest = Math.max(slowest, answer.ms);
      const problem = problemWith(c, answer.status, answer.text);
      if (problem) failures.push(`${c.endpoint} [${c.kind}] ${problem}\n  body: ${(c.body?.text ?? c.path).slice(0, 400)}`);
    });

    // Keys the admin API created with generated data scopes: the next test queries with them.
    answers.forEach((answer, i) => {
      if (cases[i].endpoint === '/admin/api-keys' && answer.status === 201) scopedKeys.push(JSON.parse(answer.text).data.key);
    });
    const hangs = answers.filter((a) => a.status === 0).length;
    console.log(
      `fuzz[${process.env.E2E_MODE}] seed=${SEED}: ${cases.length} requests in ${seconds.toFixed(1)} s ` +
        `(${(cases.length / seconds).toFixed(0)}/s, concurrency ${CONCURRENCY}, slowest ${slowest} ms); property failures=${failures.length}, hangs=${hangs}; ` +
        `by kind: ${[...kinds.entries()].map(([k, r]) => `${k} ${r.total} (2xx ${r.ok2xx})`).join(', ')}; ` +
        [...byEndpoint.entries()]
          .map(
            ([e, r]) =>
              `${e}: ${r.total} (2xx ${r.ok2xx} avg ${(r.ms2xx / Math.max(1, r.ok2xx)).toFixed(0)} ms, 4xx ${r.c4xx}${r.spec500 ? `, spec-500 not-found ${r.spec500}` : ''}; valid answered 2xx ${r.validOk}/${r.valid})`,
          )
          .join('; '),
    );
    if (failures.length) console.log(`fuzz[${process.env.E2E_MODE}] first failures:\n${failures.slice(0, 8).join('\n')}`);
    expect(failures.slice(0, 10)).toEqual([]);
    expect(hangs).toBe(0);
    // The generators must exercise the queries, not only the validator: most valid bodies run.
    for (const [endpoint, row] of byEndpoint) {
      if (row.valid > 0) expect({ endpoint, share: row.validOk / row.valid >= 0.5 }).toEqual({ endpoint, share: true });
    }
  }, 600_000);

  it('answers keys with generated data scopes on every read endpoint with a 2xx or a 4xx envelope', async () => {
    const keys = scopedKeys.slice(0, 60);
    expect(keys.length).toBeGreaterThanOrEqual(40); // most valid admin bodies created a key
    const bodies = fc.sample(fc.tuple(validBodies.data, validBodies.filters, validBodies.tagValues, validBodies.compare), {
      numRuns: keys.length,
      seed: SEED + 70,
    });
    const requests = keys.flatMap((key, i) =>
      (
        [
          ['/v1/cost-insights/data', bodies[i][0]],
          ['/v1/cost-insights/filters', bodies[i][1]],
          ['/v1/cost-insights/tag-values', bodies[i][2]],
          ['/v1/cost-insights/compare', bodies[i][3]],
        ] as const
      ).map(([path, body]) => ({ key, path, body })),
    );
    const answers = await pool(requests, CONCURRENCY, (r) =>
      send(
        base + r.path,
        { method: 'POST', headers: { Authorization: `Bearer ${r.key}`, 'Content-Type': 'application/json' }, body: JSON.stringify(r.body) },
        REQUEST_TIMEOUT_MS,
      ),
    );
    const failures = answers.flatMap((answer, i) => {
      const c: Case = { endpoint: requests[i].path, kind: 'valid', method: 'POST', path: requests[i].path };
      const problem = problemWith(c, answer.status, answer.text);
      return problem ? [`${requests[i].path} ${problem}`] : [];
    });
    const ok = answers.filter((answer) => answer.status === 200).length;
    console.log(
      `fuzz[${process.env.E2E_MODE}] scoped keys: ${keys.length} keys × 4 endpoints = ${answers.length} requests, 2xx ${ok}, failures ${failures.length}`,
    );
    expect(failures.slice(0, 10)).toEqual([]);
    expect(ok).toBeGreaterThan(answers.length / 2);
  }, 300_000);

  // -------------------------------------------------------------------------------------------------------------------
  // Rates outside 1e-12 to 1e12 and rate sources outside their rule (hardening round, finding 8): every such upload is a
  // 400 naming the line (or `source`), and nothing of it is stored.
  // -------------------------------------------------------------------------------------------------------------------
  it('refuses every generated rates upload with a rate outside 1e-12 to 1e12 or a source outside the rule, naming it; stores nothing', async () => {
    const loaded = async () => (await t.http.get('/v1/admin/currency').set(org.auth)).body.data.exchangeRates;
    const before = await loaded();
    const uploads: { text: string; named: string; source?: string }[] = [
      ...fc.sample(outOfRuleRatesFile, { numRuns: Math.ceil(240 * SCALE), seed: SEED + 110 }),
      ...fc
        .sample(outOfRuleSourceParameter, { numRuns: Math.ceil(60 * SCALE), seed: SEED + 111 })
        .map(({ text, source }) => ({ text, source, named: 'source: must be 1 to 64 letters' })),
    ];
    const answers = await pool(uploads, CONCURRENCY, (upload) =>
      send(
        `${base}/v1/admin/exchange-rates${upload.source === undefined ? '?source=fuzz' : `?source=${encodeURIComponent(upload.source)}`}`,
        { method: 'POST', headers: { ...org.auth, 'Content-Type': 'text/csv' }, body: upload.text },
        REQUEST_TIMEOUT_MS,
      ),
    );
    const failures = answers.flatMap((answer, i) => {
      const refused = answer.status === 400 && answer.text.startsWith('{"success":false,"error":{"message":');
      return refused && answer.text.includes(JSON.stringify(uploads[i].named).slice(1, -1))
        ? []
        : [`${answer.status} ${answer.text.slice(0, 300)}\n  body: ${uploads[i].text.slice(0, 400)}`];
    });
    console.log(`fuzz[${process.env.E2E_MODE}] out-of-rule rates uploads: ${uploads.length}, not refused as expected ${failures.length}`);
    expect(failures.slice(0, 5)).toEqual([]);
    expect(await loaded()).toEqual(before);
  }, 300_000);

  it('never lets a hostile string into SQL text: values travel only as parameters', async () => {
    let queryLog = 'n/a (embedded chDB has no system.query_log; SQL text checked at the client boundary)';
    if (ownClickhouse) {
      const run = async (statement: string) => {
        const response = await fetch(`${ownClickhouse!.url}/?default_format=JSONEachRow`, { method: 'POST', body: statement });
        const text = await response.text();
        if (!response.ok) throw new Error(text);
        return text;
      };
      await run('SYSTEM FLUSH LOGS');
      const counts = JSON.parse(
        await run(
          `SELECT count() AS logged,
                  countIf(position(query, '${HOSTILE_MARKER}') > 0) AS marker_as_literal,
                  countIf(position(normalizeQuery(query), '${HOSTILE_MARKER}') > 0) AS marker_in_sql
           FROM system.query_log WHERE type != 'QueryStart' AND query_kind = 'Select'`,
        ),
      ) as { logged: string; marker_as_literal: string; marker_in_sql: string };
      queryLog = `query_log: ${counts.logged} queries logged, ${counts.marker_as_literal} carried a hostile value (as a literal), ${counts.marker_in_sql} had it in SQL text`;
      expect(Number(counts.marker_as_literal)).toBeGreaterThan(0); // the hostile values did reach ClickHouse
      expect(Number(counts.marker_in_sql)).toBe(0);
    }
    console.log(
      `fuzz[${process.env.E2E_MODE}] SQL: ${sql.texts} SQL texts sent, ${sql.paramsWithMarker} carried a hostile value as a parameter, ` +
        `${sql.withMarker} had one in the SQL text; ${queryLog}`,
    );
    expect(sql.paramsWithMarker).toBeGreaterThan(100); // the valid bodies' hostile values reached ClickHouse
    expect(sql.examples).toEqual([]);
    expect(sql.withMarker).toBe(0);
  });
});
