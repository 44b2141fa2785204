// modes: embedded — log redaction at the HTTP layer
import { withChecksum } from '../support/key-format';
import { startAppWithEnv } from '../support/app-with-env';
import { decodeRepeatedly, keySpellings } from '../support/key-spellings';
import { TestApp, TestOrganization } from '../support/test-app';

/**
 * Authentication beyond auth.e2e-spec.ts (which covers the exact 401 body for missing, malformed,
 * bad-checksum, unknown and revoked keys, and that responses never echo keys) and rate-limit.e2e-spec.ts
 * ("counts bad keys per IP too": repeated bad keys from one client IP are throttled):
 *  - no key and no Authorization value in any log line, with the application's real logger on, whatever
 *    the spelling (percent-encoded in a path or query string: log text is decoded before the scan);
 * The coarse timing check of key verification is test/timing/key-verification.timing-spec.ts (it runs alone).
 */

describe('authentication hardening', () => {
  let t: TestApp;
  let org: TestOrganization;
  const captured: string[] = [];
  const restore: Array<() => void> = [];
  /** Summaries are printed once the streams are restored (jest's console writes through them). */
  const summaries: string[] = [];
  const print = (line: string) => summaries.push(line);

  beforeAll(async () => {
    // Capture everything the process writes while the app runs with its production logger.
    for (const stream of [process.stdout, process.stderr]) {
      const original = stream.write.bind(stream);
      stream.write = ((chunk: unknown, ...rest: unknown[]) => {
        captured.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'));
        const callback = rest.find((arg) => typeof arg === 'function') as (() => void) | undefined;
        callback?.();
        return true; // kept, not printed: the request log would drown the test output
      }) as typeof stream.write;
      restore.push(() => (stream.write = original as typeof stream.write));
    }
    for (const level of ['log', 'info', 'warn', 'error', 'debug'] as const) {
      const spy = jest.spyOn(console, level).mockImplementation((...args: unknown[]) => void captured.push(args.map(String).join(' ')));
      restore.push(() => spy.mockRestore());
    }
    // The most verbose level: every line the application can write is inspected.
    t = await startAppWithEnv({ LOG_LEVEL: 'trace' }, { logs: true });
    org = await t.newOrganization();
  });
  afterAll(async () => {
    await t.close();
    for (const undo of restore.reverse()) undo();
    for (const line of summaries) console.log(line);
  });

  it('writes no key and no Authorization value to the logs, whatever the request', async () => {
    const revoked = await t.keyFor(org.organizationId);
    await t.apiKeys.revoke(revoked.keyId);
    const [, id] = /^cik_([0-9A-Za-z]{12})_/.exec(org.key)!;
    const forged = withChecksum(`cik_${id}_${'B'.repeat(43)}`);
    const badChecksum = org.key.slice(0, -1) + (org.key.endsWith('a') ? 'b' : 'a');
    const opaque = 'opaque-credential-0123456789';
    // Named: a failure reports which secret leaked, never the secret itself.
    const secrets: Record<string, string> = {
      'the key': org.key,
      'a revoked key': revoked.key,
      'a forged key': forged,
      'a key with a bad checksum': badChecksum,
      'an opaque bearer value': opaque,
      'the id and start of the secret': org.key.slice(4, 40),
    };
    const data = { filters: { inclusions: { dateRange: { start: '2026-10-01', end: '2026-10-02' } } }, groupBy: { dateGrouping: 'daily' } };

    const statuses: number[] = [];
    const record = async (request: PromiseLike<{ status: number }>) => statuses.push((await request).status);
    await record(t.http.post('/v1/cost-insights/data').set(org.auth).send(data));
    await record(t.http.post('/v1/cost-insights/data').set('Authorization', `Bearer ${revoked.key}`).send(data));
    await record(t.http.post('/v1/cost-insights/data').set('Authorization', `Bearer ${forged}`).send(data));
    await record(t.http.post('/v1/cost-insights/data').set('Authorization', `Bearer ${badChecksum}`).send(data));
    await record(t.http.post('/v1/cost-insights/data').set('Authorization', `Bearer ${opaque}`).send(data));
    await record(
      t.http
        .post('/v1/cost-insights/data')
        .set('Authorization', `Basic ${Buffer.from(`${opaque}:x`).toString('base64')}`)
        .send(data),
    );
    // Keys where they do not belong: in the URL, in a path parameter, in a body (400 names the field).
    await record(t.http.post(`/v1/cost-insights/data?api_key=${org.key}`).set(org.auth).send(data));
    await record(t.http.get(`/v1/cost-insights/shared-filters/${org.key}`).set(org.auth));
    await record(t.http.get(`/v1/nowhere/${org.key}`).set(org.auth));
    await record(
      t.http
        .post('/v1/cost-insights/data')
        .set(org.auth)
        .send({ ...data, [org.key]: opaque }),
    );
    await record(t.http.post('/v1/cost-insights/data').set(org.auth).set('Content-Type', 'application/json').send(`{"key":"${org.key}"`));
    // The same key percent-encoded (a client URL-encoding a query value, or an attacker probing the redaction),
    // in the query string and in the path.
    const spellings = Object.values(keySpellings(org.key));
    for (const spelled of spellings) {
      await record(t.http.post(`/v1/cost-insights/data?api_key=${spelled}`).set(org.auth).send(data));
      await record(t.http.get(`/v1/nowhere/${spelled}`).set(org.auth));
    }
    await record(t.http.post(`/v1/cost-insights/data?auth=Bearer%20${org.key}&other=Bearer+${opaque}`).set(org.auth).send(data));
    await record(t.http.get(`/v1/nowhere/Bearer%20${opaque}`).set(org.auth));
    // The admin API: a key created (its answer carries the full key), listed, refused in a body, revoked.
    const created = await t.http
      .post('/v1/admin/api-keys')
      .set(org.auth)
      .send({ name: 'log probe', scopes: ['cost:read'] });
    statuses.push(created.status);
    secrets['a key created by the admin API'] = created.body.data.key;
    await record(t.http.get('/v1/admin/api-keys').set(org.auth));
    await record(
      t.http
        .post('/v1/admin/api-keys')
        .set(org.auth)
        .send({ name: created.body.data.key, scopes: [created.body.data.key] }),
    );
    await record(t.http.delete(`/v1/admin/api-keys/${created.body.data.id}`).set(org.auth));
    await new Promise((r) => setTimeout(r, 200)); // let asynchronous log destinations flush

    const logText = captured.join('');
    const lines = logText.split('\n').filter((line) => line.trim());
    // Every spelling is undone before looking (the test's own decoder, not the production pattern).
    const decodedLogText = decodeRepeatedly(logText);
    const leaks = Object.entries({
      ...Object.fromEntries(Object.entries(secrets).map(([name, secret]) => [name, decodedLogText.includes(secret)])),
      'cik_ followed by anything but [redacted]': /cik_(?!\[redacted\])/i.test(decodedLogText),
      'a Bearer value not redacted': /Bearer\s+(?!\[redacted\])\S/i.test(decodedLogText),
      'a Basic credential': /Basic\s+[A-Za-z0-9+/=]{8,}/.test(logText),
    }).flatMap(([finding, found]) => (found ? [finding] : []));
    print(
      `auth-logs[${process.env.E2E_MODE}]: ${statuses.length} requests (statuses ${statuses.join(',')}), ${lines.length} log lines captured, leaks: ${leaks.join(', ') || 'none'}`,
    );
    expect(statuses).toEqual([
      ...[200, 401, 401, 401, 401, 401, 200, 400, 404, 400, 400, ...spellings.flatMap(() => [200, 404]), 200, 404],
      ...[201, 200, 400, 200],
    ]);
    // The capture works: requests were logged (by path), so a key in a log line would have been seen.
    expect(logText).toContain('/v1/cost-insights/data');
    expect(leaks).toEqual([]);
    // Query strings are not logged, only a marker that there was one.
    expect(logText).toContain('/v1/cost-insights/data?[redacted]');
  });
});
