// modes: embedded server cluster — the audit table, paged
import { createHash, randomUUID } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { AUDIT_EVENTS_CSV_COLUMNS } from '../../src/audit/audit-events-csv';
import { loadConfig } from '../../src/config/app-config';
import { applyAuditRetention, retentionDaysOf } from '../../src/store/schema/audit-retention';
import { ClickhouseService } from '../../src/store/clickhouse/clickhouse.service';
import { loadMigrations } from '../../src/store/schema/migrator';
import { TestApp, TestOrganization } from '../support/test-app';

/**
 * Issue 36, the audit trail: every administrative change made through the admin API is an event of its
 * organisation, read back newest first by GET /v1/admin/audit-events with the acting key's id, the target, what
 * changed, the client IP and the request id; never a key; refused changes are no events; filters, paging (stable
 * while events are added), CSV, bad filters, permissions, and no organisation ever sees another's events.
 */
const EVENTS = '/v1/admin/audit-events';
const KEYS = '/v1/admin/api-keys';
const INVALID = 'Invalid request. Please see message details.';

interface EventJson {
  id: string;
  at: string;
  action: string;
  actor: { kind: string; id: string; email: string | null };
  target: string;
  details: Record<string, unknown>;
  clientIp: string;
  requestId: string;
}

describe('Audit trail: GET /v1/admin/audit-events', () => {
  let t: TestApp;
  let admin: TestOrganization;
  const root = resolve(process.env.E2E_TMP_DIR ?? '.test-tmp', `audit-sources-${randomUUID()}`);

  beforeAll(async () => {
    mkdirSync(root, { recursive: true });
    t = await TestApp.start({ settings: { INGEST_FILE_ROOT: root } });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(root, { recursive: true, force: true });
  });

  /** A fresh organisation with an admin key holding every permission it hands out. */
  beforeEach(async () => {
    admin = await t.newOrganization(['api-keys:admin', 'cost:read', 'rates:admin', 'sources:admin']);
  });

  const events = async (key: TestOrganization, query: Record<string, string> = {}): Promise<EventJson[]> => {
    const response = await t.http.get(EVENTS).query(query).set(key.auth);
    expect([response.status, response.body.success]).toEqual([200, true]);
    return response.body.data.events as EventJson[];
  };
  const createKey = (key: TestOrganization, body: object, headers: Record<string, string> = {}) =>
    t.http.post(KEYS).set(key.auth).set(headers).send(body);

  it('records a key created and revoked: the acting key, target, what was granted, client IP, request id; never the key', async () => {
    const created = await createKey(
      admin,
      { name: 'Payments dashboards', scopes: ['cost:read'], dataScope: { inclusions: { accountIds: ['222222222222'] } } },
      // Not trusted (TRUST_PROXY_HOPS is 0): the client IP is the socket's.
      { 'X-Request-Id': 'audit-create-1', 'X-Forwarded-For': '203.0.113.9' },
    );
    expect(created.status).toBe(201);
    const key = created.body.data as { id: string; key: string };
    const revoked = await t.http.delete(`${KEYS}/${key.id}`).set(admin.auth).set('X-Request-Id', 'audit-revoke-1');
    expect(revoked.status).toBe(200);

    const response = await t.http.get(EVENTS).set(admin.auth);
    expect(response.status).toBe(200);
    const [revocation, creation, ...rest] = response.body.data.events as EventJson[];
    expect(rest).toEqual([]);
    expect(response.body.data.nextCursor).toBeNull();
    expect(creation).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      action: 'api-key.created',
      actor: { kind: 'api-key', id: admin.keyId, email: null },
      target: key.id,
      details: { name: 'Payments dashboards', scopes: ['cost:read'], dataScope: { inclusions: { accountIds: ['222222222222'] } } },
      clientIp: expect.stringMatching(/^(::ffff:)?127\.0\.0\.1$/),
      requestId: 'audit-create-1',
    });
    expect(revocation).toMatchObject({
      action: 'api-key.revoked',
      actor: { kind: 'api-key', id: admin.keyId, email: null },
      target: key.id,
      details: { name: 'Payments dashboards' },
      requestId: 'audit-revoke-1',
    });
    expect(Date.parse(revocation.at)).toBeGreaterThanOrEqual(Date.parse(creation.at));

    // Neither the new key nor the acting one, in any part or form, in JSON or CSV.
    const csv = await t.http.get(EVENTS).set(admin.auth).set('Accept', 'text/csv');
    for (const text of [response.text, csv.text]) {
      for (const secret of [key.key, admin.key]) {
        expect(text).not.toContain(secret);
        expect(text).not.toContain(secret.slice(17));
        expect(text).not.toContain(createHash('sha256').update(secret).digest('hex'));
      }
      expect(text).not.toContain('Bearer');
    }
  });

  it('records nothing for a refused change, and revoking a revoked key again is no change', async () => {
    const reader = await t.keyFor(admin.organizationId, ['cost:read']);
    expect((await createKey(admin, { name: '', scopes: ['cost:read'] })).status).toBe(400);
    expect((await createKey(admin, { name: 'too much', scopes: ['anomalies:write'] })).status).toBe(403);
    expect((await createKey(reader, { name: 'not an admin', scopes: ['cost:read'] })).status).toBe(403);
    expect((await t.http.delete(`${KEYS}/NoSuchKey123`).set(admin.auth)).status).toBe(404);
    expect((await t.http.put('/v1/admin/currency').set(admin.auth).send({ reportingCurrency: 'XXY' })).status).toBe(400);
    expect(
      (await t.http.post('/v1/admin/exchange-rates').set(admin.auth).set('Content-Type', 'text/csv').send('date,from,to,rate\nx\n')).status,
    ).toBe(400);
    expect(
      (await t.http.post('/v1/admin/sources').set(admin.auth).send({ integrationId: 'x', kind: 'focus-files', url: 'file:///etc' })).status,
    ).toBe(403);
    expect(await events(admin)).toEqual([]);

    const key = (await createKey(admin, { name: 'twice', scopes: ['cost:read'] })).body.data as { id: string };
    for (let i = 0; i < 2; i++) expect((await t.http.delete(`${KEYS}/${key.id}`).set(admin.auth)).status).toBe(200);
    expect((await events(admin)).map((event) => event.action)).toEqual(['api-key.revoked', 'api-key.created']);
  });

  it('records currency settings (before → after, only a real change), rates loaded and data sources', async () => {
    const currency = (body: object) => t.http.put('/v1/admin/currency').set(admin.auth).send(body);
    expect((await currency({ reportingCurrency: 'EUR' })).status).toBe(200);
    expect((await currency({ reportingCurrency: 'EUR' })).status).toBe(200); // the same again: no change
    const rates = await t.http
      .post('/v1/admin/exchange-rates?source=Treasury')
      .set(admin.auth)
      .set('Content-Type', 'text/csv')
      .send('date,from,to,rate\n2026-10-01,EUR,USD,1.085\n2026-10-02,EUR,USD,1.09\n');
    expect(rates.status).toBe(200);
    const dir = resolve(root, admin.organizationId, `exports-${randomUUID()}`);
    mkdirSync(dir, { recursive: true });
    const added = await t.http
      .post('/v1/admin/sources')
      .set(admin.auth)
      .send({ integrationId: 'aws-payer', kind: 'focus-files', url: `file://${dir}` });
    expect(added.status).toBe(201);
    const sourceId = added.body.data.sourceId as string;
    expect((await t.http.post(`/v1/admin/sources/${sourceId}/run`).set(admin.auth)).status).toBe(200);
    expect((await t.http.delete(`/v1/admin/sources/${sourceId}`).set(admin.auth)).status).toBe(200);

    const trail = await events(admin);
    expect(trail.map(({ action, target }) => [action, target])).toEqual([
      ['source.deleted', sourceId],
      ['source.run', sourceId],
      ['source.created', sourceId],
      ['exchange-rates.changed', 'exchange-rates'],
      ['currency.settings-changed', 'currency'],
    ]);
    expect(trail.every((event) => event.actor.id === admin.keyId && event.actor.kind === 'api-key')).toBe(true);
    const details = Object.fromEntries(trail.map((event) => [event.action, event.details]));
    expect(details['currency.settings-changed']).toEqual({
      before: { reportingCurrency: 'USD', conversionPolicy: 'usage_date' },
      after: { reportingCurrency: 'EUR', conversionPolicy: 'usage_date' },
    });
    expect(details['exchange-rates.changed']).toMatchObject({ source: 'Treasury', format: 'pairs', rates: 2 });
    expect(details['source.created']).toEqual({ integrationId: 'aws-payer', kind: 'focus-files', url: `file://${dir}`, options: {} });
    expect(details['source.run']).toEqual({ busy: false, checks: expect.any(Array) });
    expect(details['source.deleted']).toEqual({ integrationId: 'aws-payer', kind: 'focus-files', url: `file://${dir}` });
  });

  it('filters by action, actor and time, newest first', async () => {
    const second = await t.keyFor(admin.organizationId, ['api-keys:admin', 'cost:read']);
    const first = (await createKey(admin, { name: 'by the first admin', scopes: ['cost:read'] })).body.data as { id: string };
    const other = (await createKey(second, { name: 'by the second admin', scopes: ['cost:read'] })).body.data as { id: string };
    await t.http.delete(`${KEYS}/${first.id}`).set(second.auth);

    const created = await events(admin, { action: 'api-key.created' });
    expect(created.map((event) => event.target)).toEqual([other.id, first.id]);
    const bySecond = await events(admin, { actor: second.keyId });
    expect(bySecond.map((event) => [event.action, event.target])).toEqual([
      ['api-key.revoked', first.id],
      ['api-key.created', other.id],
    ]);
    expect(await events(admin, { actor: second.keyId, action: 'api-key.revoked' })).toHaveLength(1);

    const all = await events(admin);
    const [newest, , oldest] = all;
    expect(await events(admin, { from: newest.at })).toEqual([newest]);
    expect(await events(admin, { to: oldest.at })).toEqual([oldest]);
    expect(await events(admin, { from: oldest.at, to: newest.at })).toEqual(all);
    const today = newest.at.slice(0, 10);
    expect(await events(admin, { from: today, to: today })).toEqual(all);
    expect(await events(admin, { to: '2026-01-01' })).toEqual([]);
    // An offset is the same instant.
    expect(await events(admin, { from: newest.at.replace('Z', '+00:00') })).toEqual([newest]);
  });

  it('pages newest first with an opaque cursor; events added meanwhile never shift the next pages', async () => {
    const created: string[] = [];
    for (let i = 0; i < 5; i++)
      created.push(((await createKey(admin, { name: `key ${i}`, scopes: ['cost:read'] })).body.data as { id: string }).id);
    const first = await t.http.get(EVENTS).query({ limit: '2' }).set(admin.auth);
    expect(first.body.data.events.map((event: EventJson) => event.target)).toEqual([created[4], created[3]]);
    // Recorded after the first page was read: newer than it, so never on the pages that follow it.
    const later = ((await createKey(admin, { name: 'later', scopes: ['cost:read'] })).body.data as { id: string }).id;
    const seen: string[] = first.body.data.events.map((event: EventJson) => event.target);
    let cursor = first.body.data.nextCursor as string | null;
    let pages = 1;
    while (cursor) {
      const page = await t.http.get(EVENTS).query({ limit: '2', cursor }).set(admin.auth);
      expect(page.status).toBe(200);
      seen.push(...page.body.data.events.map((event: EventJson) => event.target));
      cursor = page.body.data.nextCursor;
      pages++;
    }
    expect([pages, seen]).toEqual([3, [...created].reverse()]);
    expect((await events(admin, { limit: '1' }))[0].target).toBe(later);
  });

  it('exports CSV: a header, one formula-safe record per event, continued by X-Next-Cursor', async () => {
    await createKey(admin, { name: '=HYPERLINK("https://evil.example")', scopes: ['cost:read'] });
    await createKey(admin, { name: '@SUM(1)', scopes: ['cost:read'] });
    const whole = await t.http.get(EVENTS).set(admin.auth).set('Accept', 'text/csv');
    expect(whole.status).toBe(200);
    expect(whole.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(whole.headers['x-next-cursor']).toBeUndefined();
    const lines = whole.text.split('\r\n');
    expect(lines[0]).toBe(AUDIT_EVENTS_CSV_COLUMNS.map((column) => `"${column}"`).join(','));
    expect(lines).toHaveLength(4); // header, two records, the empty string after the last CRLF
    expect(lines[1]).toContain(`"api-key.created","api-key","${admin.keyId}",""`);
    // Details are JSON text whose first character is `{`; the names inside stay as given, never a cell of their own.
    expect(lines[1]).toContain('""name"":""@SUM(1)""');
    const firstPage = await t.http.get(EVENTS).query({ limit: '1' }).set(admin.auth).set('Accept', 'text/csv');
    expect(firstPage.text.split('\r\n')).toHaveLength(3);
    const rest = await t.http.get(EVENTS).query({ cursor: firstPage.headers['x-next-cursor'] }).set(admin.auth).set('Accept', 'text/csv');
    expect(rest.text.split('\r\n')[1]).toBe(lines[2]);
  });

  it('answers bad filters with a 400 envelope naming each, never a 5xx', async () => {
    const cases: [Record<string, string>, string][] = [
      [{ from: 'yesterday' }, 'from: expected a date (YYYY-MM-DD, UTC) or a date and time with its zone'],
      [{ to: '2026-11-25T09:30' }, 'to: expected a date'],
      [{ from: '2026-02-30' }, 'from: expected a date'],
      [{ from: '2026-11-02', to: '2026-11-01' }, 'from: must be before to'],
      [{ action: 'key.created' }, 'action: expected one of api-key.created'],
      [{ limit: '1001' }, 'limit: expected an integer from 1 to 1000'],
      [{ cursor: 'bm90IGEgY3Vyc29y' }, 'cursor: is not a cursor of this list'],
      [{ organizationId: randomUUID() }, 'organizationId: unknown query parameter'],
      [{ actor: "x' OR 1=1 --\u0000" }, 'actor: expected an API key id'],
    ];
    for (const [query, detail] of cases) {
      const response = await t.http.get(EVENTS).query(query).set(admin.auth);
      expect([response.status, response.body.success]).toEqual([400, false]);
      const message = response.body.error.message as string;
      expect(message.startsWith(`${INVALID} ${detail}`) ? detail : message).toBe(detail);
    }
    const repeated = await t.http.get(`${EVENTS}?action=api-key.created&action=api-key.revoked`).set(admin.auth);
    expect([repeated.status, repeated.body.error.message]).toEqual([400, `${INVALID} action: give it once, as text`]);
    const csv = await t.http.get(EVENTS).query({ from: 'x' }).set(admin.auth).set('Accept', 'text/csv');
    expect([csv.status, csv.headers['content-type']]).toEqual([400, expect.stringContaining('application/json')]);
  });

  it('needs api-keys:admin and a key without a data scope; no key is the 401', async () => {
    const reader = await t.keyFor(admin.organizationId, ['cost:read', 'rates:admin', 'sources:admin']);
    const scoped = await t.keyFor(admin.organizationId, ['cost:read'], { inclusions: { accountIds: ['111111111111'] } });
    // Not creatable through the API (an admin key never has a data scope), but refused all the same.
    const scopedAdmin = await t.keyFor(admin.organizationId, ['api-keys:admin'], { inclusions: { accountIds: ['111111111111'] } });
    for (const key of [reader, scoped, scopedAdmin]) {
      const response = await t.http.get(EVENTS).set(key.auth);
      expect([response.status, response.body.success]).toEqual([403, false]);
    }
    expect((await t.http.get(EVENTS).set(scopedAdmin.auth)).body.error.message).toContain('without a data scope');
    const anonymous = await t.http.get(EVENTS);
    expect([anonymous.status, anonymous.body]).toEqual([401, { message: 'Unauthorized' }]);
  });

  it('keeps events AUDIT_RETENTION_DAYS: the TTL of every server, set when it differs, left alone when not', async () => {
    const retentionOn = async (nodes: ClickhouseService[], database: string) =>
      Promise.all(
        nodes.map(async (node) => {
          const [table] = await node.query<{ engine_full: string }>(
            "SELECT engine_full FROM system.tables WHERE database = {database:String} AND name = 'audit_events'",
            { database },
          );
          return retentionDaysOf(table.engine_full);
        }),
      );
    const nodes = await t.nodes();
    // Start-up applied the configuration (the default) on every server.
    expect(new Set(await retentionOn(nodes, t.clickhouse.database))).toEqual(new Set([400]));
    if (t.clickhouse.embedded) {
      // This worker's own store: no other test's application shares it.
      expect(await applyAuditRetention(t.clickhouse, 30)).toEqual({ table: 'changed', from: [400] });
      expect(await retentionOn(nodes, t.clickhouse.database)).toEqual([30]);
      expect(await applyAuditRetention(t.clickhouse, 30)).toEqual({ table: 'kept' });
      expect(await applyAuditRetention(t.clickhouse, 400)).toEqual({ table: 'changed', from: [30] });
      return;
    }
    // Shared servers: a database of this test's own, its audit table made by migration 0024 on every node.
    const database = `audit_retention_${randomUUID().replace(/-/g, '')}`;
    const [migration] = loadMigrations(database).filter((candidate) => candidate.name === '0024_create_audit_events');
    const own = new ClickhouseService(loadConfig({ ...process.env, CLICKHOUSE_DATABASE: database }));
    try {
      expect(await applyAuditRetention(own, 30)).toEqual({ table: 'missing' });
      for (const node of nodes) {
        await node.command(`CREATE DATABASE ${database}`);
        for (const statement of migration.statements) await node.command(statement);
      }
      expect(await applyAuditRetention(own, 30)).toEqual({ table: 'changed', from: nodes.map(() => 400) });
      expect(await retentionOn(nodes, database)).toEqual(nodes.map(() => 30));
      expect(await applyAuditRetention(own, 30)).toEqual({ table: 'kept' });
    } finally {
      for (const node of nodes) await node.command(`DROP DATABASE IF EXISTS ${database}`);
      await own.onModuleDestroy();
    }
  });

  it("never shows another organisation's events, whatever the filters", async () => {
    const other = await t.newOrganization(['api-keys:admin', 'cost:read']);
    const theirs = (await createKey(other, { name: 'theirs', scopes: ['cost:read'] })).body.data as { id: string };
    await createKey(admin, { name: 'ours', scopes: ['cost:read'] });
    const ours = await t.http.get(EVENTS).set(admin.auth);
    expect(ours.body.data.events).toHaveLength(1);
    expect(ours.text).not.toContain(theirs.id);
    expect(ours.text).not.toContain(other.keyId);
    expect(await events(admin, { actor: other.keyId })).toEqual([]);
    // Their cursor is only a position: with our key it pages our events, never theirs.
    const theirPage = await t.http.get(EVENTS).query({ limit: '1' }).set(other.auth);
    expect(theirPage.body.data.events.map((event: EventJson) => event.target)).toEqual([theirs.id]);
    expect((await events(other)).every((event) => event.actor.id === other.keyId)).toBe(true);
  });
});
