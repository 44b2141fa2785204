// modes: embedded server cluster — insights read from the store
import { createHash, createHmac, randomUUID } from 'node:crypto';
import { ANOMALY_LIMITS } from '../../src/anomalies/anomaly-limits';
import { clickhouseTimestamp } from '../../src/common/dates/clickhouse-time';
import { InstallationSecrets } from '../../src/store/repositories/installation-secrets.repository';
import { RowInput, TestApp, TestOrganization } from '../support/test-app';

/**
 * POST /v1/cost-insights/anomalies and its feedback (issue 32). The estates are flat series (no noise) with known
 * spikes and level changes, so every expectation comes from the inserted rows: a flat baseline expects exactly its
 * level, an anomaly's impact is the amount added, and its root causes are the rows that carried the addition.
 */
const ANOMALIES = '/v1/cost-insights/anomalies';
const DAY_MS = 86_400_000;
const today = new Date().toISOString().slice(0, 10);
const dayAfter = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
const yesterday = dayAfter(today, -1);
const daysAgo = (days: number) => dayAfter(today, -days);
/** How many days before today a row's day is. */
const ago = (row: RowInput) => Math.round((Date.parse(today) - Date.parse(String(row.usage_date))) / DAY_MS);

/** One row a day of `service` from `from` days ago to yesterday, of `amount(daysAgo)`. */
function series(service: string, from: number, amount: (ago: number) => number, extra: Partial<RowInput> = {}): RowInput[] {
  return Array.from({ length: from }, (_, i) => {
    const ago = from - i;
    return {
      usage_date: daysAgo(ago),
      service,
      account_id: 'acct-1',
      region: 'us-east-1',
      amortized_cost: amount(ago).toFixed(2),
      ...extra,
    };
  });
}

interface AnomalyBody {
  id: string;
  start: string;
  end: string;
  dimension_value: string;
  expected: number;
  actual: number;
  impact: number;
  impactPercentage: number | null;
  score: number;
  rootCauses: Array<{ dimension: string; value: string; contribution: number }>;
  feedback: string | null;
}

describe('POST /v1/cost-insights/anomalies', () => {
  let t: TestApp;
  let org: TestOrganization;
  /** 60 days of Compute at 100 and Storage at 50; 5 days ago Compute gains 400 in account acct-2, tagged team=data. */
  const spikeDay = daysAgo(5);

  beforeAll(async () => {
    t = await TestApp.start();
    org = await t.newOrganization();
    await t.insertRows(org.organizationId, [
      ...series('Compute', 60, () => 100),
      ...series('Storage', 60, () => 50),
      {
        usage_date: spikeDay,
        service: 'Compute',
        account_id: 'acct-2',
        region: 'eu-west-1',
        amortized_cost: '400',
        resource_tags: { team: 'data' },
      },
      // A purchase on the same day is not usage: left out, so it neither adds to the anomaly nor makes one.
      { usage_date: daysAgo(3), service: 'Storage', account_id: 'acct-1', amortized_cost: '5000', charge_category: 'Purchase' },
    ]);
  });
  afterAll(async () => {
    await t?.close();
  });

  const scan = (who: TestOrganization, body: object = {}) => t.http.post(ANOMALIES).set(who.auth).send(body);

  it('finds a spike on its day with its expected amount, impact and root causes; a flat series has none', async () => {
    const response = await scan(org);
    expect(response.status).toBe(200);
    expect(response.headers['x-currency']).toBe('USD');
    const data = response.body.data;
    expect(data).toMatchObject({
      currency: 'USD',
      dimension: 'service',
      date_range: { start: daysAgo(90), end: yesterday },
      last_complete_day: yesterday,
      thresholds: { min_impact: 10, min_impact_percentage: 20, score: 4 },
    });
    expect(data.anomalies).toHaveLength(1);
    const [anomaly] = data.anomalies as AnomalyBody[];
    expect(anomaly).toMatchObject({
      start: spikeDay,
      end: spikeDay,
      dimension_value: 'Compute',
      expected: 100,
      actual: 500,
      impact: 400,
      impactPercentage: 400,
      feedback: null,
    });
    expect(anomaly.id).toMatch(/^an_[0-9a-f]{24}$/);
    // The 400 came with account acct-2, region eu-west-1 and tag team=data (each rose by 400 over a baseline of 0)
    // and the usual usage type (500 over 100); acct-1 and us-east-1 carried the usual 100: no rise. Each explains
    // the whole impact: account, region, usage type, then tags.
    expect(anomaly.rootCauses).toEqual([
      { dimension: 'account', value: 'acct-2', contribution: 400 },
      { dimension: 'region', value: 'eu-west-1', contribution: 400 },
      { dimension: 'usageType', value: 'BoxUsage:m6i.large', contribution: 400 },
      { dimension: 'tag:team', value: 'data', contribution: 400 },
    ]);
    // The same anomaly keeps its id in a later scan.
    expect((await scan(org)).body.data.anomalies[0].id).toBe(anomaly.id);
  });

  it('monitors another dimension and honours the thresholds', async () => {
    const byAccount = (await scan(org, { dimension: 'account' })).body.data;
    expect(byAccount.anomalies.map((a: AnomalyBody) => [a.dimension_value, a.start, a.impact])).toEqual([['acct-2', spikeDay, 400]]);
    expect(byAccount.anomalies[0].rootCauses[0]).toEqual({ dimension: 'service', value: 'Compute', contribution: 400 });
    expect((await scan(org, { minImpact: 401 })).body.data.anomalies).toEqual([]);
    expect((await scan(org, { minImpactPercentage: 401 })).body.data.anomalies).toEqual([]);
    const before = (await scan(org, { dateRange: { start: daysAgo(40), end: daysAgo(6) } })).body.data;
    expect(before.date_range).toEqual({ start: daysAgo(40), end: daysAgo(6) });
    expect(before.anomalies).toEqual([]);
  });

  it('finds an anomaly of the values not monitored on their own as one of (other), naming the value that moved', async () => {
    // Two services more than are monitored on their own: the two smallest, S-1 (at 210) and S-0 (at 200), are (other).
    const services = ANOMALY_LIMITS.monitoredValues + 2;
    const own = await t.newOrganization();
    await t.insertRows(own.organizationId, [
      ...Array.from({ length: services }, (_, i) => series(`S-${i}`, 60, () => 200 + 10 * i)).flat(),
      { usage_date: spikeDay, service: 'S-0', account_id: 'acct-9', region: 'eu-west-1', amortized_cost: '300' },
    ]);
    const anomalies = (await scan(own)).body.data.anomalies as AnomalyBody[];
    expect(anomalies).toHaveLength(1);
    expect(anomalies[0]).toMatchObject({ dimension_value: '(other)', start: spikeDay, expected: 410, actual: 710, impact: 300 });
    // Over a baseline of 0 (account, region) or of the usual amounts (S-0's 200, the usage type's 410): +300 each.
    expect(anomalies[0].rootCauses).toEqual([
      { dimension: 'account', value: 'acct-9', contribution: 300 },
      { dimension: 'service', value: 'S-0', contribution: 300 },
      { dimension: 'region', value: 'eu-west-1', contribution: 300 },
      { dimension: 'usageType', value: 'BoxUsage:m6i.large', contribution: 300 },
    ]);
    // Feedback on it from a data-scoped key: a slice of one service never has an (other) series, so the id is the
    // 404 of an unknown one; a slice of more services than are monitored on its own has one, and may.
    const feedback = (key: TestOrganization) =>
      t.http.post(`${ANOMALIES}/${anomalies[0].id}/feedback`).set(key.auth).send({ reason: 'resolved' });
    const oneService = await t.keyFor(own.organizationId, undefined, { inclusions: { services: ['S-0'] } });
    const refused = await feedback(oneService);
    const unknown = await t.http
      .post(`${ANOMALIES}/an_000000000000000000000000/feedback`)
      .set(oneService.auth)
      .send({ reason: 'resolved' });
    expect([refused.status, refused.body]).toEqual([404, unknown.body]);
    const allButOne = await t.keyFor(own.organizationId, undefined, { exclusions: { services: [`S-${services - 1}`] } });
    expect((await feedback(allButOne)).status).toBe(200);
  });

  it('explains an anomaly of (not set): the rows without the value and those of a value so named are one series', async () => {
    const own = await t.newOrganization();
    await t.insertRows(own.organizationId, [
      ...series('', 60, () => 100),
      ...series('(not set)', 60, () => 50),
      { usage_date: spikeDay, service: '', account_id: 'acct-7', region: 'eu-west-1', amortized_cost: '300' },
    ]);
    const anomalies = (await scan(own)).body.data.anomalies as AnomalyBody[];
    expect(anomalies.map((a) => [a.dimension_value, a.start, a.expected, a.actual, a.impact])).toEqual([
      ['(not set)', spikeDay, 150, 450, 300],
    ]);
    // acct-1 and us-east-1 carried their usual 150 (100 + 50); the 300 came with acct-7 and eu-west-1 (over 0).
    expect(anomalies[0].rootCauses).toEqual([
      { dimension: 'account', value: 'acct-7', contribution: 300 },
      { dimension: 'region', value: 'eu-west-1', contribution: 300 },
      { dimension: 'usageType', value: 'BoxUsage:m6i.large', contribution: 300 },
    ]);
  });

  it("compares each root cause with its usual amount on the anomaly's weekdays: a weekly pattern is no cause", async () => {
    // Batch: acct-weekly spends 100 on weekdays only, acct-steady 50 every day; on a recent weekday acct-steady spends
    // 250. Against the same weekday of the 4 weeks before, acct-steady rose by 200 and acct-weekly not at all (a mean
    // over all 28 days would have called its usual Monday-to-Friday 100 a rise of 28.57).
    const own = await t.newOrganization();
    const isWeekday = (ago: number) => ![0, 6].includes(new Date(`${daysAgo(ago)}T00:00:00Z`).getUTCDay());
    const spikeAgo = [3, 4, 5, 6, 7].find(isWeekday)!;
    await t.insertRows(own.organizationId, [
      ...series('Batch', 60, () => 100, { account_id: 'acct-weekly' }).filter((row) => isWeekday(ago(row))),
      ...series('Batch', 60, (days) => (days === spikeAgo ? 250 : 50), { account_id: 'acct-steady' }),
    ]);
    const anomalies = (await scan(own)).body.data.anomalies as AnomalyBody[];
    expect(anomalies.map((a) => [a.dimension_value, a.start, a.actual])).toEqual([['Batch', daysAgo(spikeAgo), 350]]);
    expect(anomalies[0].rootCauses).toEqual([
      { dimension: 'account', value: 'acct-steady', contribution: 200 },
      { dimension: 'region', value: 'us-east-1', contribution: 200 },
      { dimension: 'usageType', value: 'BoxUsage:m6i.large', contribution: 200 },
    ]);
  });

  it('a data-scoped key sees only its slice: the anomaly outside it is not there', async () => {
    const storageOnly = await t.keyFor(org.organizationId, ['cost:read'], { inclusions: { services: ['Storage'] } });
    expect((await scan(storageOnly)).body.data.anomalies).toEqual([]);
    const computeOnly = await t.keyFor(org.organizationId, ['cost:read'], { inclusions: { services: ['Compute'] } });
    expect((await scan(computeOnly)).body.data.anomalies.map((a: AnomalyBody) => a.start)).toEqual([spikeDay]);
  });

  it("looks for tag root causes in the organisation's activated keys by default, in every key on request", async () => {
    // Compute at 100 a day (team=core, Name=web-1); on the spike day 400 more in acct-2, eu-west-1, tagged team=data,
    // Name=batch-7: each of those rose by 400 over 0, and the usage type by 400 over its usual 100.
    const own = await t.newOrganization();
    await t.insertRows(own.organizationId, [
      ...series('Compute', 60, () => 100, { resource_tags: { team: 'core', Name: 'web-1' } }),
      {
        usage_date: spikeDay,
        service: 'Compute',
        account_id: 'acct-2',
        region: 'eu-west-1',
        amortized_cost: '400',
        resource_tags: { team: 'data', Name: 'batch-7' },
      },
    ]);
    const columnCauses = [
      { dimension: 'account', value: 'acct-2', contribution: 400 },
      { dimension: 'region', value: 'eu-west-1', contribution: 400 },
      { dimension: 'usageType', value: 'BoxUsage:m6i.large', contribution: 400 },
    ];
    const scanned = async (body: object) => {
      const response = await scan(own, body);
      expect(response.status).toBe(200);
      const data = response.body.data as { root_cause_tags: unknown; anomalies: AnomalyBody[] };
      expect(data.anomalies.map((a) => [a.start, a.impact])).toEqual([[spikeDay, 400]]);
      return { tags: data.root_cause_tags, causes: data.anomalies[0].rootCauses };
    };
    const everyKey = {
      tags: 'all',
      causes: [
        ...columnCauses,
        { dimension: 'tag:Name', value: 'batch-7', contribution: 400 },
        { dimension: 'tag:team', value: 'data', contribution: 400 },
      ],
    };
    expect(await scanned({})).toEqual(everyKey);

    expect(
      (
        await t.http
          .put('/v1/admin/tag-keys')
          .set(own.auth)
          .send({ tag: ['team'], costCategory: [] })
      ).status,
    ).toBe(202);
    for (let waited = 0; ; waited += 250) {
      const { body } = await t.http.get('/v1/admin/tag-keys').set(own.auth);
      const activated = (body as { data?: { activated: Array<{ state: string }> } }).data?.activated ?? [];
      if (activated.length === 1 && activated[0].state === 'active') break;
      if (waited > 200_000) throw new Error(`team not active after 200 s: ${JSON.stringify(activated)}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(await scanned({})).toEqual({
      tags: 'activated',
      causes: [...columnCauses, { dimension: 'tag:team', value: 'data', contribution: 400 }],
    });
    expect(await scanned({ rootCauseTags: 'all' })).toEqual(everyKey);
    // A filter on a key that is not active: every key by default (one projection answers).
    expect(await scanned({ filters: { inclusions: { resourceTag: 'Name', resourceTagValues: ['web-1', 'batch-7'] } } })).toEqual(everyKey);
  }, 240_000); // the back-fill waits for the publish fence: imports of other suites on a shared test server

  it('refuses bad input with a clear 400', async () => {
    const cases: Array<[object, string]> = [
      [{ dateRange: { start: today, end: today } }, 'dateRange: anomalies are found in complete days'],
      [{ dateRange: { start: daysAgo(400), end: yesterday } }, 'dateRange: at most 366 days'],
      [{ dimension: 'colour' }, 'dimension'],
      [{ minImpact: -1 }, 'minImpact'],
      [{ minImpactPercentage: 'ten' }, 'minImpactPercentage'],
      [
        { filters: { inclusions: { dateRange: { start: daysAgo(10), end: yesterday } } } },
        'filters.inclusions.dateRange: not allowed in /anomalies filters: the top-level dateRange sets the days scanned',
      ],
      [{ currency: 'XXZ' }, 'currency'],
      [{ rootCauseTags: 'some' }, 'rootCauseTags'],
    ];
    for (const [body, fragment] of cases) {
      const response = await scan(org, body);
      expect([response.status, response.body.success]).toEqual([400, false]);
      expect(JSON.stringify(response.body.error.message)).toContain(fragment);
    }
  });

  it('keys the ids with the installation’s secret, which first uses racing from several replicas create once', async () => {
    // The id of the Compute spike is the HMAC-SHA256 of (organisation, dimension, value, first day) under the stored key.
    const [{ id }] = (await scan(org)).body.data.anomalies as AnomalyBody[];
    const stored = await t.clickhouse.query<{ secret: string }>(
      `SELECT secret FROM ${t.clickhouse.table('installation_secrets')} WHERE name = 'anomaly-ids' ORDER BY created_at, secret LIMIT 1`,
    );
    // The oldest row (on a cluster, other files' first scans may have raced this one's, each keeping its row).
    expect(stored).toHaveLength(1);
    const firstDay = Math.round(Date.parse(`${spikeDay}T00:00:00Z`) / DAY_MS);
    const keyed = createHmac('sha256', Buffer.from(stored[0].secret, 'hex'))
      .update(JSON.stringify([org.organizationId, 'service', 'Compute', firstDay]))
      .digest('hex');
    expect(id).toBe(`an_${keyed.slice(0, 24)}`);
    // Eight replicas' first uses of a new secret at once (embedded, one process holds the store: its own uses race).
    const name = `test-${randomUUID()}`;
    const replicas = Array.from({ length: 8 }, (_, i) =>
      t.clickhouse.embedded && i > 0 ? undefined : new InstallationSecrets(t.clickhouse),
    );
    const secrets = await Promise.all(replicas.map((replica) => (replica ?? replicas[0])!.secret(name)));
    const raced = new Set(secrets.map((secret) => secret.toString('hex')));
    expect(secrets[0]).toHaveLength(32);
    // What every server holding the table's rows (a cluster: each replica of the first shard) gives a reader, its oldest
    // row, is one secret. The deduplication token keeps one row almost always; under load a racer's row survived it
    // (a server, 2026-11-29). On a server every racer read what the others did. On a cluster every racer's row is kept on
    // every replica (a token made replicas keep different rows: the 2 x 2 cluster, 2026-11-29), and a racer may read
    // before an older row arrives: there the promise is that readers agree once the rows are stored (the oldest wins),
    // and a racer's answer is one of the stored secrets.
    const nodes = await t.nodes();
    const replicated = t.clickhouse.cluster !== undefined;
    for (const node of nodes) {
      const [{ engine }] = await node.query<{ engine: string }>(
        `SELECT engine FROM system.tables WHERE database = {db:String} AND name = 'installation_secrets'`,
        { db: node.database },
      );
      if (engine.startsWith('Replicated')) await node.command(`SYSTEM SYNC REPLICA ${node.database}.installation_secrets`);
    }
    const oldest = new Set<string>();
    const kept = new Set<string>();
    for (const node of nodes) {
      const rows = await node.query<{ secret: string }>(
        `SELECT secret FROM ${node.database}.installation_secrets WHERE name = {name:String} ORDER BY created_at, secret`,
        { name },
      );
      expect(rows.length).toBeLessThanOrEqual(replicas.length);
      if (rows.length > 0) oldest.add(rows[0].secret);
      rows.forEach((row) => kept.add(row.secret));
    }
    expect(oldest.size).toBe(1);
    const [agreed] = oldest;
    if (replicated) expect([...raced].filter((secret) => !kept.has(secret))).toEqual([]);
    else expect([...raced]).toEqual([agreed]);
    // Read afresh by a replica that took no part in the race: the one every reader agrees on.
    expect((await new InstallationSecrets(t.clickhouse).secret(name)).toString('hex')).toBe(agreed);
  });

  describe('feedback', () => {
    const feedback = (who: TestOrganization, id: string, reason: unknown) =>
      t.http.post(`${ANOMALIES}/${id}/feedback`).set(who.auth).send({ reason });

    it('is recorded, returned with the anomaly, and refused for a bad reason, a foreign or unknown id, or without anomalies:write', async () => {
      const [anomaly] = (await scan(org)).body.data.anomalies as AnomalyBody[];
      const given = await feedback(org, anomaly.id, 'resolved');
      expect(given.status).toBe(200);
      expect(given.body.data).toMatchObject({ id: anomaly.id, reason: 'resolved' });
      expect((await scan(org)).body.data.anomalies[0].feedback).toBe('resolved');
      expect((await feedback(org, anomaly.id, 'not-applicable')).status).toBe(200);
      expect((await scan(org)).body.data.anomalies[0].feedback).toBe('not-applicable');

      const bad = await feedback(org, anomaly.id, 'because');
      expect([bad.status, JSON.stringify(bad.body.error.message)]).toEqual([400, expect.stringContaining('reason')]);
      const stranger = await t.newOrganization();
      for (const id of [anomaly.id, 'an_000000000000000000000000', 'not-an-id']) {
        const refused = await feedback(stranger, id, 'expected');
        expect([refused.status, refused.body.success]).toEqual([404, false]);
      }
      const reader = await t.keyFor(org.organizationId, ['cost:read']);
      expect((await feedback(reader, anomaly.id, 'expected')).status).toBe(403);
      // Each feedback given is an event of the audit trail, with its key; the refused ones are none.
      const events = await t.http.get('/v1/admin/audit-events').query({ action: 'anomaly.feedback-given' }).set(org.auth);
      const event = (reason: string) => ({
        action: 'anomaly.feedback-given',
        actor: { kind: 'api-key', id: org.keyId, email: null },
        target: anomaly.id,
        details: { reason, dimension: 'service', dimensionValue: 'Compute', start: spikeDay, end: spikeDay },
      });
      expect(events.body.data.events).toEqual([
        expect.objectContaining(event('not-applicable')),
        expect.objectContaining(event('resolved')),
      ]);
    });

    it('keeps applying feedback stored under the unkeyed ids of earlier releases, as feedback given now', async () => {
      // Two organisations with Batch's load test (44 to 31 days ago): one says expected now, the other said it under
      // an earlier release, whose ids were an unkeyed digest of (organisation, dimension, value, first day).
      const level = (ago: number) => (ago > 44 ? 100 : ago > 28 ? 300 : 180);
      const [current, upgraded] = [await t.newOrganization(), await t.newOrganization()];
      for (const own of [current, upgraded]) await t.insertRows(own.organizationId, series('Batch', 74, level));
      const outline = (anomalies: AnomalyBody[]) => anomalies.map((a) => [a.dimension_value, a.start, a.end, a.actual, a.feedback]);
      const before = (await scan(current)).body.data.anomalies as AnomalyBody[];
      const loadTest = before.find((a) => a.start === daysAgo(44));
      expect(loadTest).toMatchObject({ end: daysAgo(31), feedback: null });
      expect((await feedback(current, loadTest!.id, 'expected')).status).toBe(200);
      const firstDay = Math.round(Date.parse(`${daysAgo(44)}T00:00:00Z`) / DAY_MS);
      const oldId = `an_${createHash('sha256')
        .update(JSON.stringify([upgraded.organizationId, 'service', 'Batch', firstDay]))
        .digest('hex')
        .slice(0, 24)}`;
      await t.clickhouse.insert('anomaly_feedback', [
        {
          organization_id: upgraded.organizationId,
          anomaly_id: oldId,
          dimension: 'service',
          dimension_value: 'Batch',
          start_date: daysAgo(44),
          end_date: daysAgo(31),
          reason: 'expected',
          key_id: upgraded.keyId,
          recorded_at: clickhouseTimestamp(new Date()),
        },
      ]);
      const after = (await scan(current)).body.data.anomalies as AnomalyBody[];
      expect(outline(after)).not.toEqual(outline(before));
      expect(after.find((a) => a.start === daysAgo(44))?.feedback).toBe('expected');
      const fromOld = (await scan(upgraded)).body.data.anomalies as AnomalyBody[];
      expect(outline(fromOld)).toEqual(outline(after));
      expect(fromOld.map((a) => a.id)).not.toContain(oldId);
    });

    it('leaves the days of an expected anomaly out of later baselines', async () => {
      // 30 days at 100, 16 days at 300 (a planned load test), then 28 days at 180 up to yesterday.
      const level = (ago: number) => (ago > 44 ? 100 : ago > 28 ? 300 : 180);
      const own = await t.newOrganization();
      await t.insertRows(own.organizationId, series('Batch', 74, level));
      // The load test is anomalous until its 300s fill half of the 28-day baseline: its first 14 days.
      const loadTest = ((await scan(own)).body.data.anomalies as AnomalyBody[]).find((a) => a.start === daysAgo(44));
      expect(loadTest).toMatchObject({ dimension_value: 'Batch', end: daysAgo(31), expected: 1400, actual: 4200, impact: 2800 });
      // Before feedback the 300s fill the baselines of the 180s: below them, no anomaly.
      const lateDays = { dateRange: { start: daysAgo(28), end: yesterday } };
      expect((await scan(own, lateDays)).body.data.anomalies).toEqual([]);
      expect((await feedback(own, loadTest!.id, 'expected')).status).toBe(200);
      // Its 14 days left out, the baselines of the 180s are mostly the 100s (and the two 300s it did not cover) until
      // the 180s fill about half of them: an anomaly from the first 180, of 180 a day, some 80 % over its baseline.
      const after = (await scan(own, lateDays)).body.data.anomalies as AnomalyBody[];
      expect(after).toHaveLength(1);
      const [{ start, end, actual, impactPercentage }] = after;
      const days = (Date.parse(end) - Date.parse(start)) / DAY_MS + 1;
      expect([start, actual]).toEqual([daysAgo(28), 180 * days]);
      expect(days).toBeGreaterThanOrEqual(7);
      expect(days).toBeLessThanOrEqual(14);
      expect(impactPercentage).toBeGreaterThan(50);
    });
  });
});
