// modes: embedded server cluster — activated columns and projections, kept by every write path
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runIngestFocusCommand } from '../../src/cli/ingest-focus.command';
import { activatedMapMismatches } from '../../src/store/activated-maps';
import { ingestFocus } from '../../src/ingest/ingest-focus';
import { TagKeyActivationService } from '../../src/tag-keys/tag-key-activation.service';
import { sleep } from '../../src/common/async/sleep';
import { addDays } from '../../src/common/dates/calendar-date';
import { ClickhouseService } from '../../src/store/clickhouse/clickhouse.service';
import { interceptStatements, withSettings } from '../support/statement-interceptor';
import { sumDecimalText } from '../support/decimals';
import { RowInput, TestApp, TestOrganization } from '../support/test-app';

/**
 * Activated tag and cost-category keys (issue 34, migration 0027): a question naming only active keys reads the
 * activated columns and their projections; every answer is identical to the full maps' answer, whatever wrote the
 * rows (inserts before and after activation, a FOCUS import, a re-import, an import racing the back-fill), while a
 * back-fill runs, and after deactivation.
 */
const DAYS = ['2026-09-29', '2026-09-30', '2026-10-01', '2026-10-02', '2026-10-15', '2026-10-31'];
const TEAMS = ['red', 'blue', 'green', ''];

/** Every resource its own `build` tag (a resource-level key) beside team-level ones; amounts exact to 10 places. */
function estate(seed: number, days = DAYS): RowInput[] {
  const rows: RowInput[] = [];
  let n = seed;
  for (const usage_date of days) {
    for (let resource = 0; resource < 16; resource++) {
      n++;
      const team = TEAMS[resource % TEAMS.length];
      rows.push({
        usage_date,
        billing_period: usage_date.slice(0, 7),
        service: ['Amazon EC2', 'Amazon S3', 'Amazon RDS'][resource % 3],
        region: resource % 2 ? 'eu-west-1' : 'us-east-1',
        resource_tags: {
          ...(team ? { team } : {}),
          env: resource % 3 ? 'prod' : 'dev',
          build: `build-${seed}-${n}`,
        },
        cost_categories: resource % 5 ? { 'Business Unit': `BU-${resource % 2}` } : {},
        amortized_cost: `${(n * 37) % 101}.${String((n * 7_919) % 10_000_000_000).padStart(10, '0')}`,
        billed_cost: `${(n * 13) % 53}.${String((n * 104_729) % 10_000_000_000).padStart(10, '0')}`,
      });
    }
  }
  return rows;
}

const WINDOW = { start: DAYS[0], end: DAYS[DAYS.length - 1] };

/** Questions naming only `team`, `env` and `Business Unit`: /data daily and monthly, multi-dimension, filtered; /compare; values. */
const QUESTIONS: { path: string; body: object }[] = [
  {
    path: '/v1/cost-insights/data',
    body: { filters: { inclusions: { dateRange: WINDOW } }, groupBy: { dateGrouping: 'daily', dimension: 'tag:team' } },
  },
  {
    path: '/v1/cost-insights/data',
    body: { filters: { inclusions: { dateRange: WINDOW } }, groupBy: { dateGrouping: 'monthly', dimension: 'tag:team' } },
  },
  {
    path: '/v1/cost-insights/data',
    body: {
      filters: { inclusions: { dateRange: WINDOW, resourceTag: 'env', resourceTagValues: ['prod'] } },
      groupBy: { dateGrouping: 'daily', dimensions: ['tag:team', 'service'] },
    },
  },
  {
    path: '/v1/cost-insights/data',
    body: {
      filters: { inclusions: { dateRange: WINDOW }, exclusions: { resourceTag: 'team', resourceTagValues: ['(not set)'] } },
      groupBy: { dateGrouping: 'monthly', dimension: 'costCategory:Business Unit' },
    },
  },
  {
    path: '/v1/cost-insights/data',
    body: {
      filters: { inclusions: { dateRange: WINDOW, costCategory: 'Business Unit' } },
      groupBy: { dateGrouping: 'daily', dimension: 'region' },
    },
  },
  {
    path: '/v1/cost-insights/compare',
    body: {
      baselinePeriod: { start: '2026-09-29', end: '2026-09-30' },
      comparisonPeriod: { start: '2026-10-01', end: '2026-10-31' },
      metric: 'amortized_cost',
      groupBy: { dimension: 'tag:team' },
    },
  },
  {
    path: '/v1/cost-insights/filters',
    body: {
      fields: ['services', 'regions', 'accounts'],
      filters: {
        inclusions: { dateRange: WINDOW, resourceTag: 'env', resourceTagValues: ['prod'] },
        exclusions: { costCategory: 'Business Unit', costCategoryValues: ['BU-1'] },
      },
    },
  },
  { path: '/v1/cost-insights/tag-values', body: { tagKey: 'team' } },
  { path: '/v1/cost-insights/cost-category-values', body: { categoryKey: 'Business Unit' } },
];

const ACTIVE = { tag: ['team', 'env'], costCategory: ['Business Unit'] };

/**
 * Clears both activated projections in one partition, as parts written before migration 0027 lack them. A CLEAR
 * PROJECTION waits for its mutation whatever mutations_sync says (measured: ~2 s for a 10M-row part on an idle store;
 * over 20 s on CI, behind the background pool's merges of other suites' data), so the statement has no time limit and
 * a client-side timeout is no failure: the mutation, once registered, runs on; it is awaited by polling the parts.
 */
async function clearActivatedProjections(server: ClickhouseService, partitionId: string): Promise<void> {
  const clear = (projection: string) => `CLEAR PROJECTION ${projection} IN PARTITION ID '${partitionId}'`;
  await server
    .command(
      `ALTER TABLE ${server.table('cost_line_items')} ${clear('daily_activated_tag_sums')}, ${clear('monthly_activated_tag_sums')}
       SETTINGS mutations_sync = 0, max_execution_time = 0`,
    )
    .catch((error: unknown) => {
      if (!/timeout/i.test(String(error))) throw error;
    });
  for (;;) {
    const [{ projected }] = await server.query<{ projected: string }>(
      `SELECT toString(countIf(has(projections, 'daily_activated_tag_sums') OR has(projections, 'monthly_activated_tag_sums'))) AS projected
       FROM system.parts WHERE database = {db:String} AND table = 'cost_line_items' AND active AND partition_id = {id:String}`,
      { db: server.database, id: partitionId },
    );
    if (projected === '0') return;
    await sleep(250);
  }
}

describe('activated tag and cost-category keys', () => {
  jest.setTimeout(240_000); // back-fills on a shared test server, beside every other suite's data
  let t: TestApp;
  const statements: string[] = [];
  beforeAll(async () => {
    t = await TestApp.start({ settings: { TAG_KEYS_DEFAULT: 'true' } });
    interceptStatements(t.clickhouse, (sql) => {
      statements.push(sql);
      return sql;
    });
  });
  afterAll(async () => {
    await t.close();
  });

  const ask = async (org: TestOrganization, question: { path: string; body: object }) => {
    // no-store: every question is computed (readsOf looks at its statements), never served from the answer cache.
    const response = await t.http.post(question.path).set(org.auth).set('Cache-Control', 'no-store').send(question.body);
    expect({ status: response.status, body: response.status === 200 ? undefined : (response.body as unknown) }).toEqual({
      status: 200,
      body: undefined,
    });
    // When the rows were written (/filters) differs between two organisations given the same rows: left out.
    const body = response.body as { data: { dataImportedAt?: string } };
    delete body.data.dataImportedAt;
    return body as unknown;
  };
  const askAll = (org: TestOrganization) => Promise.all(QUESTIONS.map((question) => ask(org, question)));

  /** What the SQL of a question read: the activated columns, the full maps, or both (never, by design). */
  const readsOf = async (org: TestOrganization, question: { path: string; body: object }) => {
    statements.length = 0;
    await ask(org, question);
    const text = statements.join('\n');
    return {
      activated: /\bactivated_(resource_tags|cost_categories)\b/.test(text),
      full: /(?<!activated_)\b(resource_tags|cost_categories)\b/.test(text),
    };
  };

  const setKeys = (org: TestOrganization, keys: { tag: string[]; costCategory: string[] }) =>
    t.http.put('/v1/admin/tag-keys').set(org.auth).send(keys);

  /** Sets the keys and waits until every one is active (the back-fill runs in the background). */
  const activate = async (org: TestOrganization, keys = ACTIVE) => {
    const response = await setKeys(org, keys);
    expect(response.status).toBe(202);
    // The answer lists every key of the set, each back-filling or (already) active.
    const answered = (response.body as { data: { activated: { kind: string; key: string; state: string }[] } }).data.activated;
    expect(answered.map((a) => `${a.kind}:${a.key}`).sort()).toEqual(
      [...keys.costCategory.map((key) => `costCategory:${key}`), ...keys.tag.map((key) => `tag:${key}`)].sort(),
    );
    const wanted = keys.tag.length + keys.costCategory.length;
    for (let waited = 0; ; waited += 250) {
      const { status, body } = await t.http.get('/v1/admin/tag-keys').set(org.auth);
      const activated =
        status === 200 ? (body as { data: { activated: { kind: string; key: string; state: string }[] } }).data.activated : [];
      if (activated.length === wanted && activated.every((a) => a.state === 'active')) return activated;
      if (waited > 200_000) throw new Error(`keys not active after 200 s (last answer ${status}): ${JSON.stringify(activated)}`);
      await sleep(250);
    }
  };

  it('answers every question identically before activation, after it (from the activated columns) and after deactivation', async () => {
    const org = await t.newOrganization();
    const rows = await t.insertRows(org.organizationId, estate(1));
    const before = await askAll(org);
    for (const question of QUESTIONS) expect(await readsOf(org, question)).toEqual({ activated: false, full: true });

    // The daily tag:team totals, computed here from the rows inserted.
    const daily = before[0] as { data: { items: { usage_date: string; dimension_value: string; amortized_cost: number }[] } };
    for (const item of daily.data.items) {
      const matching = rows.filter(
        (row) =>
          row.usage_date === item.usage_date &&
          ((row.resource_tags as Record<string, string>).team ?? '(not set)') === item.dimension_value,
      );
      expect(item.amortized_cost).toBe(Number(sumDecimalText(matching.map((row) => String(row.amortized_cost)))));
    }

    const activated = await activate(org);
    expect(activated.map((a) => `${a.kind}:${a.key}`).sort()).toEqual(['costCategory:Business Unit', 'tag:env', 'tag:team']);
    expect(await askAll(org)).toEqual(before);
    for (const question of QUESTIONS) expect(await readsOf(org, question)).toEqual({ activated: true, full: false });
    expect(await activatedMapMismatches(t.clickhouse, org.organizationId, ACTIVE)).toBe(0);

    // A question naming one key that is not active reads the full maps throughout (same answer as without it).
    const mixed = {
      path: '/v1/cost-insights/data',
      body: {
        filters: { inclusions: { dateRange: WINDOW, resourceTag: 'build' } },
        groupBy: { dateGrouping: 'monthly', dimension: 'tag:team' },
      },
    };
    expect(await readsOf(org, mixed)).toEqual({ activated: false, full: true });
    const allRows = { ...mixed, body: { ...mixed.body, filters: { inclusions: { dateRange: WINDOW } } } };
    expect(await ask(org, mixed)).toEqual(await ask(org, allRows));

    expect((await setKeys(org, { tag: ['env'], costCategory: [] })).status).toBe(202);
    expect(await askAll(org)).toEqual(before);
    expect(await readsOf(org, QUESTIONS[0])).toEqual({ activated: false, full: true });
  });

  it('answers daily and monthly tag questions from the activated projections once the keys are active', async () => {
    const org = await t.newOrganization();
    await t.insertRows(org.organizationId, estate(6));
    // Parts written before migration 0027 have no activated projections: the back-fill gives them both.
    const servers = t.clickhouse.cluster ? (await t.clickhouse.cluster.allNodes('the test')).map((n) => n.connection) : [t.clickhouse];
    for (const server of servers) {
      const partitions = await server.query<{ id: string }>(
        `SELECT DISTINCT _partition_id AS id FROM ${server.table('cost_line_items')} WHERE organization_id = {org:UUID}`,
        { org: org.organizationId },
      );
      for (const { id } of partitions) await clearActivatedProjections(server, id);
    }
    await activate(org);
    for (const server of servers) {
      // One read of system.parts (a part lists its projections): a merge finishing meanwhile cannot skew the counts.
      const [{ parts, projected }] = await server.query<{ parts: string; projected: string }>(
        `SELECT toString(count()) AS parts,
                toString(countIf(has(projections, 'daily_activated_tag_sums') AND has(projections, 'monthly_activated_tag_sums'))) AS projected
         FROM system.parts WHERE database = {db:String} AND table = 'cost_line_items' AND active
           AND startsWith(partition, concat('(\\'', {org:String}, '\\''))`,
        { db: server.database, org: org.organizationId.toLowerCase() },
      );
      expect(projected).toBe(parts);
    }
    await t.insertRows(org.organizationId, estate(7, ['2026-10-20'])); // a part written after activation has them too
    // ClickHouse fails a statement that does not read the named projection (preferred: on a tie of granules read, ClickHouse
    // would take either); the test app's statements are made to name it.
    const forced: { projection?: string } = {};
    interceptStatements(t.clickhouse, (sql) =>
      forced.projection && /\bactivated_resource_tags\b/.test(sql) && !/SETTINGS (?!preferred_optimize_projection_name)/.test(sql)
        ? withSettings(
            sql,
            `optimize_use_projections = 1, preferred_optimize_projection_name = '${forced.projection}', force_optimize_projection_name = '${forced.projection}'`,
          )
        : sql,
    );
    try {
      // The monthly projection answers whole months (a day range needs the days: the daily one).
      const wholeMonths = { inclusions: { dateRange: { start: '2026-09-01', end: '2026-10-31' } } };
      const monthly = { path: QUESTIONS[1].path, body: { ...QUESTIONS[1].body, filters: wholeMonths } };
      for (const [question, projection] of [
        [QUESTIONS[0], 'daily_activated_tag_sums'],
        [QUESTIONS[1], 'daily_activated_tag_sums'],
        [monthly, 'monthly_activated_tag_sums'],
        [QUESTIONS[2], 'daily_activated_tag_sums'],
      ] as const) {
        forced.projection = projection;
        await ask(org, question);
      }
    } finally {
      forced.projection = undefined;
    }
  });

  it('keeps the activated columns exact for rows inserted after activation, and for another organisation untouched', async () => {
    const org = await t.newOrganization();
    const other = await t.newOrganization();
    await t.insertRows(org.organizationId, estate(2));
    await t.insertRows(other.organizationId, estate(2));
    await activate(org);
    await t.insertRows(org.organizationId, estate(3));
    await t.insertRows(other.organizationId, estate(3));
    expect(await activatedMapMismatches(t.clickhouse, org.organizationId, ACTIVE)).toBe(0);
    // Same rows, one organisation reading activated columns and the other the full maps: the same answers.
    expect(await askAll(org)).toEqual(await askAll(other));
    const [{ stored }] = await t.clickhouse.query<{ stored: string }>(
      `SELECT toString(countIf(notEmpty(activated_resource_tags))) AS stored FROM ${t.clickhouse.table('cost_line_items')}
       WHERE organization_id = {org:UUID}`,
      { org: other.organizationId },
    );
    expect(stored).toBe('0');
  });

  it('keeps them exact through FOCUS imports, a re-import and an import racing the back-fill', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'activated-keys-'));
    try {
      const org = await t.newOrganization();
      const other = await t.newOrganization();
      const file = join(dir, 'export.csv');
      writeFileSync(file, focusCsv(4_000));
      const importBoth = () =>
        Promise.all(
          [org, other].map((o) => ingestFocus(t.clickhouse, { paths: [file], organizationId: o.organizationId, integrationId: 'aws' })),
        );
      // The first import races the activation: the back-fill waits for its publish, or it refreshes its staging.
      await Promise.all([importBoth(), activate(org)]);
      expect(await activatedMapMismatches(t.clickhouse, org.organizationId, ACTIVE)).toBe(0);
      expect(await askAll(org)).toEqual(await askAll(other));
      await importBoth(); // re-import: REPLACE PARTITION of every period
      expect(await activatedMapMismatches(t.clickhouse, org.organizationId, ACTIVE)).toBe(0);
      expect(await askAll(org)).toEqual(await askAll(other));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('changes no answer while a back-fill runs under concurrent questions', async () => {
    const org = await t.newOrganization();
    await t.insertRows(org.organizationId, [...estate(4), ...estate(5, ['2026-10-03', '2026-10-04'])]);
    const before = await askAll(org);
    let done = false;
    const activation = activate(org).finally(() => (done = true));
    let rounds = 0;
    while (!done || rounds === 0) {
      expect(await askAll(org)).toEqual(before);
      rounds++;
    }
    await activation;
    expect(await askAll(org)).toEqual(before);
  });

  it('activates the suggested keys for an organisation that never chose its keys, once: a first import before writing a row', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'default-keys-'));
    try {
      const rows = 3_000;
      const file = join(dir, 'export.csv');
      writeFileSync(file, focusCsv(rows, 3));
      // Computed here from the rows written: team and env tag every row; build every third, under half of the cost.
      const costOf = (keep: (n: number) => boolean) =>
        sumDecimalText(
          Array.from({ length: rows }, (_, n) => n)
            .filter(keep)
            .map(focusCost),
        );
      expect(Number(costOf((n) => n % 3 === 0)) / Number(costOf(() => true))).toBeLessThan(0.5);
      const suggested = ['tag:env', 'tag:team'];

      const importWithDefault = async (org: TestOrganization) => {
        const out: string[] = [];
        const err: string[] = [];
        const command = { paths: [file], organizationId: org.organizationId, integrationId: 'aws', json: true };
        const io = { out: (text: string) => out.push(text), err: (text: string) => err.push(text) };
        expect({ code: await runIngestFocusCommand(command, t.clickhouse, io, t.app.get(TagKeyActivationService)), err }).toEqual({
          code: 0,
          err: [],
        });
        return (JSON.parse(out.join('')) as { activatedTagKeys: string[] }).activatedTagKeys;
      };
      const activatedOf = async (org: TestOrganization) => {
        const { body } = await t.http.get('/v1/admin/tag-keys').set(org.auth);
        return (body as { data: { activated: { kind: string; key: string; state: string }[] } }).data.activated.map(
          (a) => `${a.kind}:${a.key}:${a.state}`,
        );
      };
      const [org, chose, twin] = [await t.newOrganization(), await t.newOrganization(), await t.newOrganization()];
      expect((await setKeys(chose, { tag: [], costCategory: [] })).status).toBe(202); // a choice of none is a choice

      expect((await importWithDefault(org)).sort()).toEqual(suggested);
      expect(await activatedOf(org)).toEqual(suggested.map((key) => `${key}:active`));
      expect(await importWithDefault(org)).toEqual([]); // chosen now: a re-import changes nothing
      expect(await activatedOf(org)).toEqual(suggested.map((key) => `${key}:active`));
      expect(await importWithDefault(chose)).toEqual([]);
      expect(await activatedOf(chose)).toEqual([]);

      // The same rows imported without the default answer the same, read from the full maps.
      await ingestFocus(t.clickhouse, { paths: [file], organizationId: twin.organizationId, integrationId: 'aws' });
      expect(await askAll(org)).toEqual(await askAll(twin));
      expect(await readsOf(org, QUESTIONS[0])).toEqual({ activated: true, full: false });
      expect(await activatedMapMismatches(t.clickhouse, org.organizationId, { tag: ['env', 'team'], costCategory: [] })).toBe(0);

      // A first import activates the keys its files suggest before writing a row: right after it, with no back-fill
      // run, every row already holds them; and it answers byte for byte as an import whose keys were back-filled.
      const tagKeys = t.app.get(TagKeyActivationService);
      const [first, backfilled] = [await t.newOrganization(), await t.newOrganization()];
      const activatedFirst: string[] = [];
      // Nor does the import rewrite its staged rows before publishing them (rewriteActivatedMaps reads the columns'
      // defaults first): the keys were in force on every node before it began.
      const stagedRewrites: string[] = [];
      const nodes = t.clickhouse.cluster ? (await t.clickhouse.cluster.nodes()).reachable.map((node) => node.connection) : [];
      for (const connection of [t.clickhouse, ...nodes])
        interceptStatements(connection, (sql) => {
          if (sql.includes('default_expression') && sql.includes('system.columns')) stagedRewrites.push(sql);
          return sql;
        });
      await ingestFocus(t.clickhouse, {
        paths: [file],
        organizationId: first.organizationId,
        integrationId: 'aws',
        beforeWriting: async (files) => {
          const keys = await tagKeys.activateSuggestedBeforeFirstImport(first.organizationId, () => files.keyPresence());
          activatedFirst.push(...keys.map(({ kind, key }) => `${kind}:${key}`));
          return keys;
        },
      });
      expect(activatedFirst.sort()).toEqual(suggested);
      expect(stagedRewrites).toEqual([]);
      expect(await activatedOf(first)).toEqual(suggested.map((key) => `${key}:active`));
      expect(await activatedMapMismatches(t.clickhouse, first.organizationId, { tag: ['env', 'team'], costCategory: [] })).toBe(0);
      await ingestFocus(t.clickhouse, { paths: [file], organizationId: backfilled.organizationId, integrationId: 'aws' });
      expect(
        await activatedMapMismatches(t.clickhouse, backfilled.organizationId, { tag: ['env', 'team'], costCategory: [] }),
      ).toBeGreaterThan(0);
      expect((await tagKeys.activateSuggestedKeys(backfilled.organizationId)).sort()).toEqual(suggested);
      expect(await readsOf(first, QUESTIONS[0])).toEqual({ activated: true, full: false });
      expect(await askAll(first)).toEqual(await askAll(backfilled));
      // An organisation with rows already is not a first import: the keys are chosen after it, as before.
      const teamOnEveryRow = { kind: 'tag' as const, key: 'team', cost_share: 1, distinct_values: '3', resources: '0' };
      expect(await tagKeys.activateSuggestedBeforeFirstImport(twin.organizationId, () => Promise.resolve([teamOnEveryRow]))).toEqual([]);
      expect(await activatedOf(twin)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a key without tag-keys:admin, a data-scoped key, and a malformed set', async () => {
    const org = await t.newOrganization(['cost:read']);
    expect((await t.http.get('/v1/admin/tag-keys').set(org.auth)).status).toBe(403);
    const admin = await t.keyFor(org.organizationId, ['tag-keys:admin']);
    const scoped = await t.keyFor(org.organizationId, ['tag-keys:admin', 'cost:read'], { inclusions: { services: ['Amazon EC2'] } });
    expect((await setKeys(scoped, ACTIVE)).status).toBe(403);
    for (const body of [
      {},
      { tag: 'team', costCategory: [] },
      { tag: [''], costCategory: [] },
      { tag: ['x'.repeat(257)], costCategory: [] },
    ]) {
      const response = await t.http.put('/v1/admin/tag-keys').set(admin.auth).send(body);
      expect(response.status).toBe(400);
      expect(response.body.success).toBe(false);
    }
    const tooMany = { tag: Array.from({ length: 51 }, (_, i) => `k${i}`), costCategory: [] };
    expect((await setKeys(admin, tooMany)).status).toBe(400);
  });

  it('lists the keys present over the latest 90 days with their share of cost, suggesting those on most of it', async () => {
    const org = await t.newOrganization();
    const today = new Date().toISOString().slice(0, 10);
    await t.insertRows(org.organizationId, [
      { usage_date: today, resource_tags: { team: 'a', build: 'b1' }, amortized_cost: '3' },
      { usage_date: today, resource_tags: { team: 'b', build: 'b2' }, amortized_cost: '1' },
      { usage_date: today, resource_tags: { rare: 'x' }, amortized_cost: '5' },
      // Before the latest 90 days: neither its key nor its cost counts.
      { usage_date: addDays(today, -90), resource_tags: { old: 'x', team: 'c' }, amortized_cost: '100' },
    ]);
    const { body } = await t.http.get('/v1/admin/tag-keys').set(org.auth);
    expect(body.data.present).toEqual([
      { kind: 'tag', key: 'rare', costShare: 0.5556, distinctValues: 1, resources: 0, suggested: true },
      { kind: 'tag', key: 'build', costShare: 0.4444, distinctValues: 2, resources: 0, suggested: false },
      { kind: 'tag', key: 'team', costShare: 0.4444, distinctValues: 2, resources: 0, suggested: false },
    ]);
    expect(body.data.activated).toEqual([]);
  });

  it('never suggests a key naming each resource: values over a tenth of the resources carrying it, from 50 values on', async () => {
    const org = await t.newOrganization();
    const today = new Date().toISOString().slice(0, 10);
    // 60 resources, two rows each: `build` has one value per resource (60 > 60 / 10), `team` 3 (under 50 values);
    // `host` one per resource on the first 40 only (40 values: under 50, whatever it names).
    const resources = Array.from({ length: 60 }, (_, i) => `i-${i}`);
    await t.insertRows(
      org.organizationId,
      resources.flatMap((resource, i) =>
        [0, 1].map(() => ({
          usage_date: today,
          resource_id: resource,
          resource_tags: { build: `b-${i}`, team: `t-${i % 3}`, ...(i < 40 ? { host: `h-${i}` } : {}) },
          amortized_cost: '1',
        })),
      ),
    );
    const { body } = await t.http.get('/v1/admin/tag-keys').set(org.auth);
    expect(body.data.present).toEqual([
      { kind: 'tag', key: 'build', costShare: 1, distinctValues: 60, resources: 60, suggested: false },
      { kind: 'tag', key: 'team', costShare: 1, distinctValues: 3, resources: 60, suggested: true },
      { kind: 'tag', key: 'host', costShare: 0.6667, distinctValues: 40, resources: 40, suggested: true },
    ]);
  });
});

/** The cost of focusCsv's row `n`. */
function focusCost(n: number): string {
  return `${n % 997}.${String(n % 89).padStart(2, '0')}`;
}

/** A FOCUS 1.0 export (CSV) with team, env and a per-resource build tag (on every `buildEvery`th row), over two months. */
function focusCsv(rows: number, buildEvery = 1): string {
  const columns = [
    'BilledCost',
    'EffectiveCost',
    'ListCost',
    'ContractedCost',
    'BillingCurrency',
    'BillingPeriodStart',
    'BillingPeriodEnd',
    'ChargePeriodStart',
    'ChargePeriodEnd',
    'ChargeCategory',
    'ChargeDescription',
    'BillingAccountId',
    'BillingAccountName',
    'SubAccountId',
    'SubAccountName',
    'ProviderName',
    'PublisherName',
    'InvoiceIssuerName',
    'ServiceName',
    'ServiceCategory',
    'RegionId',
    'RegionName',
    'PricingCategory',
    'ResourceId',
    'Tags',
  ];
  const quote = (value: string) => `"${value.replace(/"/g, '""')}"`;
  const lines = [columns.join(',')];
  for (let n = 0; n < rows; n++) {
    const month = n % 2 === 0 ? '09' : '10';
    const next = month === '09' ? '10' : '11';
    const day = String((n % 28) + 1).padStart(2, '0');
    const hour = String(n % 24).padStart(2, '0');
    const cost = focusCost(n);
    const build = n % buildEvery === 0 ? { build: `b-${n % 300}` } : {};
    const tags = JSON.stringify({ team: ['red', 'blue', 'green'][n % 3], env: ['prod', 'dev'][n % 2], ...build });
    lines.push(
      [
        cost,
        cost,
        cost,
        cost,
        'USD',
        `2026-${month}-01T00:00:00Z`,
        `2026-${next}-01T00:00:00Z`,
        `2026-${month}-${day}T${hour}:00:00Z`,
        `2026-${month}-${day}T${hour}:59:59Z`,
        'Usage',
        'usage',
        '100000000000',
        'payer',
        `20000000000${n % 4}`,
        `account-${n % 4}`,
        'AWS',
        'Amazon Web Services, Inc.',
        'Amazon Web Services, Inc.',
        ['Amazon Elastic Compute Cloud', 'Amazon Simple Storage Service'][n % 2],
        'Compute',
        'us-east-1',
        'us-east-1',
        'Standard',
        `i-${n % 300}`,
        tags,
      ]
        .map(quote)
        .join(','),
    );
  }
  return `${lines.join('\n')}\n`;
}
