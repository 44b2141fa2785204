// modes: embedded server cluster — ClickHouse SQL
import { randomUUID } from 'node:crypto';
import { addDays, todayUtc } from '../../src/common/dates/calendar-date';
import { RowInput, TestApp, TestOrganization } from '../support/test-app';

/** Keys and values that must travel as data: quotes, backslashes, SQL, placeholders, control characters, unicode. */
const HOSTILE = ["it's", 'say "hi"', 'back\\slash\\', "x') OR 1=1 --", '{p0:String}', 'tab\there', 'line\nbreak', 'ключ 🔑', '%_*'];

/** The documented bound of an unpaged answer and of a page. */
const MAX_VALUES = 10_000;
const PREFIX = 'Invalid request. Please see message details. ';
const byBytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

const ENDPOINTS = [
  { path: '/v1/cost-insights/tag-values', keyField: 'tagKey', column: 'resource_tags' },
  { path: '/v1/cost-insights/cost-category-values', keyField: 'categoryKey', column: 'cost_categories' },
] as const;

describe('POST /v1/cost-insights/tag-values and /cost-category-values', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(async () => {
    await t.close();
  });

  describe.each(ENDPOINTS)('$path', ({ path, keyField, column }) => {
    const post = (org: TestOrganization, body: unknown) =>
      t.http
        .post(path)
        .set(org.auth)
        .send(body as object);
    const row = (usage_date: string, map: Record<string, string>, amortized_cost = '1'): RowInput => ({
      usage_date,
      [column]: map,
      amortized_cost,
    });

    it('lists the distinct non-empty values of the key, ascending, over all time, for the caller’s organisation only', async () => {
      const a = await t.newOrganization();
      const b = await t.newOrganization();
      const today = todayUtc();
      const rowsA = [
        row('2026-10-01', { 'Business Unit': 'Retail', env: 'production' }),
        row('2026-10-02', { 'Business Unit': 'Platform', env: 'staging' }),
        row('2026-10-03', { 'Business Unit': 'Retail', env: 'production' }),
        row('2019-01-15', { 'Business Unit': 'Legacy', env: 'archive' }), // years ago: still listed
        row(addDays(today, -1), { 'Business Unit': 'data', env: 'development' }),
        row('2026-10-04', { 'Business Unit': '', env: '' }), // empty value: not listed
        row('2026-10-05', { other: 'x' }), // key absent
      ];
      await t.insertRows(a.organizationId, rowsA);
      await t.insertRows(b.organizationId, [row('2026-10-01', { 'Business Unit': 'Org B unit', env: 'org-b-env' })]);

      for (const key of ['Business Unit', 'env']) {
        const expected = [...new Set(rowsA.map((r) => (r[column] as Record<string, string>)[key]).filter(Boolean))].sort();
        const response = await post(a, { [keyField]: key });
        expect(response.status).toBe(200);
        expect(response.body).toEqual({ success: true, data: { values: expected } });
      }
      const responseB = await post(b, { [keyField]: 'env' });
      expect(responseB.body.data.values).toEqual(['org-b-env']);
    });

    it('answers [] for a key the organisation does not have (another organisation’s key included)', async () => {
      const a = await t.newOrganization();
      const b = await t.newOrganization();
      await t.insertRows(a.organizationId, [row('2026-10-01', { env: 'prod' })]);
      await t.insertRows(b.organizationId, [row('2026-10-01', { 'only-in-b': 'secret' })]);
      const response = await post(a, { [keyField]: 'only-in-b' });
      expect(response.status).toBe(200);
      expect(response.body.data.values).toEqual([]);
    });

    it('matches the key exactly (case-sensitive, no patterns)', async () => {
      const a = await t.newOrganization();
      await t.insertRows(a.organizationId, [row('2026-10-01', { Env: 'upper', env: 'lower', 'env%': 'percent' })]);
      expect((await post(a, { [keyField]: 'env' })).body.data.values).toEqual(['lower']);
      expect((await post(a, { [keyField]: 'Env' })).body.data.values).toEqual(['upper']);
      expect((await post(a, { [keyField]: 'en%' })).body.data.values).toEqual([]);
    });

    it('treats hostile keys and values as plain data', async () => {
      const a = await t.newOrganization();
      const b = await t.newOrganization();
      const map = Object.fromEntries(HOSTILE.map((key, i) => [key, `${HOSTILE[(i + 1) % HOSTILE.length]}`]));
      await t.insertRows(a.organizationId, [row('2026-10-01', map), row('2026-10-02', { [HOSTILE[0]]: HOSTILE[5] })]);
      await t.insertRows(b.organizationId, [row('2026-10-01', Object.fromEntries(HOSTILE.map((key) => [key, 'org-b'])))]);
      for (const [i, key] of HOSTILE.entries()) {
        const expected = i === 0 ? [HOSTILE[1], HOSTILE[5]].sort() : [HOSTILE[(i + 1) % HOSTILE.length]];
        const response = await post(a, { [keyField]: key });
        expect({ key, status: response.status, values: response.body.data?.values }).toEqual({ key, status: 200, values: expected });
      }
    });

    it('sorts by code point, not by locale', async () => {
      const a = await t.newOrganization();
      const values = ['b', 'B', 'a', 'é', '10', '9', 'Z'];
      await t.insertRows(
        a.organizationId,
        values.map((value, i) => row(`2026-10-${String(i + 1).padStart(2, '0')}`, { k: value })),
      );
      expect((await post(a, { [keyField]: 'k' })).body.data.values).toEqual(['10', '9', 'B', 'Z', 'a', 'b', 'é']);
    });

    describe('search', () => {
      const VALUES = [
        'PRODUCTION',
        'prod-eu',
        'staging',
        'Été',
        'été-2',
        'ete',
        'ПРОД',
        'прод-ru',
        '100%',
        '1000',
        'a_b',
        'axb',
        '(not set)',
      ];
      const matches = (value: string, search: string) => value.toLowerCase().includes(search.toLowerCase());

      it('keeps the values containing the text, case-insensitively (unicode too), with % and _ taken literally', async () => {
        const a = await t.newOrganization();
        const b = await t.newOrganization();
        await t.insertRows(
          a.organizationId,
          VALUES.map((value, i) => row(`2026-10-${String(i + 1).padStart(2, '0')}`, { k: value, other: `${value}-other-key` })),
        );
        await t.insertRows(b.organizationId, [row('2026-10-01', { k: 'production of org B' })]);
        for (const search of ['prod', 'PROD', 'été', 'ÉTÉ', 'прод', 'ПРОД', '%', '_', 'a_b', '(NOT', 'e', 'nothing']) {
          const expected = VALUES.filter((value) => matches(value, search)).sort(byBytes);
          const response = await post(a, { [keyField]: 'k', search });
          expect({ search, status: response.status, body: response.body }).toEqual({
            search,
            status: 200,
            body: { success: true, data: { values: expected } },
          });
        }
      });

      it('treats an empty or null search like none', async () => {
        const a = await t.newOrganization();
        await t.insertRows(a.organizationId, [row('2026-10-01', { k: 'x' }), row('2026-10-02', { k: 'Y' })]);
        for (const search of ['', null]) {
          expect((await post(a, { [keyField]: 'k', search })).body).toEqual({ success: true, data: { values: ['Y', 'x'] } });
        }
      });
    });

    describe(`the ${MAX_VALUES} bound and paging`, () => {
      /** `count` values v-<i> of key k for a fresh organisation, generated inside ClickHouse; v-<i> costs i + 1. */
      async function generated(count: number, key = 'k'): Promise<TestOrganization> {
        const org = await t.newOrganization();
        await t.clickhouse.command(
          `INSERT INTO ${t.clickhouse.table('cost_line_items')} (organization_id, usage_date, billing_period, ${column}, amortized_cost)
           SELECT {org:UUID}, toDate('2019-01-01') + number % 2000, '2019-01', map({key:String}, concat('v-', leftPad(toString(number), 5, '0'))),
                  toDecimal128(number + 1, 10)
           FROM numbers({rows:UInt64})`,
          { org: org.organizationId, rows: count, key },
        );
        return org;
      }
      const names = (count: number, from = 0) => Array.from({ length: count }, (_, i) => `v-${String(from + i).padStart(5, '0')}`);

      /** Every page of a paged question, following nextCursor; each page's own checks included. */
      async function allPages(org: TestOrganization, body: Record<string, unknown>, limit?: number): Promise<string[][]> {
        const pages: string[][] = [];
        let cursor: string | undefined;
        do {
          const response = await post(org, { ...body, ...(limit === undefined ? {} : { limit }), ...(cursor ? { cursor } : {}) });
          expect(response.status).toBe(200);
          const { values, nextCursor, ...rest } = response.body.data as { values: string[]; nextCursor?: string };
          expect(rest).toEqual({}); // a paged answer is never `truncated`
          expect(values.length).toBeLessThanOrEqual(limit ?? MAX_VALUES);
          if (nextCursor !== undefined) expect(values.length).toBe(limit ?? MAX_VALUES);
          pages.push(values);
          cursor = nextCursor;
          expect(pages.length).toBeLessThan(1000);
        } while (cursor);
        return pages;
      }

      it(`unpaged: exactly ${MAX_VALUES} values are the whole answer; ${MAX_VALUES + 1} keep the most expensive and say truncated`, async () => {
        const atBound = await generated(MAX_VALUES);
        const fits = await post(atBound, { [keyField]: 'k' });
        expect(fits.status).toBe(200);
        expect(fits.body).toEqual({ success: true, data: { values: names(MAX_VALUES) } });

        const overBound = await generated(MAX_VALUES + 1);
        const cut = await post(overBound, { [keyField]: 'k' });
        expect(cut.status).toBe(200);
        expect(cut.body).toEqual({ success: true, data: { values: names(MAX_VALUES, 1), truncated: true } }); // v-00000 (cheapest) cut
        // A search applies before the bound: it reaches the cut value.
        expect((await post(overBound, { [keyField]: 'k', search: 'V-00000' })).body.data).toEqual({ values: ['v-00000'] });
        expect((await post(overBound, { [keyField]: 'k', search: 'v-0' })).body.data).toEqual({ values: names(MAX_VALUES) });

        // Paged, every value is reachable: a full page and the one left over; at the bound, one page.
        expect(await allPages(overBound, { [keyField]: 'k' }, MAX_VALUES)).toEqual([names(MAX_VALUES), [`v-${MAX_VALUES}`]]);
        expect(await allPages(atBound, { [keyField]: 'k' }, MAX_VALUES)).toEqual([names(MAX_VALUES)]);
        // A cursor without a limit: pages of the largest size.
        const first = await post(overBound, { [keyField]: 'k', limit: 3 });
        const rest = await post(overBound, { [keyField]: 'k', cursor: first.body.data.nextCursor });
        expect(rest.body.data).toEqual({ values: names(MAX_VALUES - 2, 3) });
      });

      const PAGED_VALUES = ['b', 'B', 'a', 'é', '10', '9', 'Z', 'z', '😀', '\uffff', 'ab', 'a b', 'prod', 'PROD-2', 'pro', '%', '_'];

      it.each([1, 2, 7, PAGED_VALUES.length - 1, PAGED_VALUES.length, PAGED_VALUES.length + 1])(
        'pages of %i, in byte order, add up to the whole list: no repeat, no gap',
        async (limit) => {
          const a = await t.newOrganization();
          await t.insertRows(
            a.organizationId,
            PAGED_VALUES.map((value, i) => row(addDays('2026-01-01', i), { k: value, other: 'x' })),
          );
          const pages = await allPages(a, { [keyField]: 'k' }, limit);
          expect(pages.flat()).toEqual([...PAGED_VALUES].sort(byBytes));
          expect(pages).toHaveLength(Math.ceil(PAGED_VALUES.length / limit));
          const searched = await allPages(a, { [keyField]: 'k', search: 'PRO' }, limit);
          expect(searched.flat()).toEqual(PAGED_VALUES.filter((value) => value.toLowerCase().includes('pro')).sort(byBytes));
        },
      );

      it('answers an empty page, without a cursor, for a key without values', async () => {
        const a = await t.newOrganization();
        expect((await post(a, { [keyField]: 'nothing', limit: 5 })).body).toEqual({ success: true, data: { values: [] } });
      });

      describe('cursors', () => {
        /** An organisation with values v-00000 … v-00009 of key k (in January 2026), and the first page of 4 with its cursor. */
        async function firstPage(search?: string) {
          const org = await t.newOrganization();
          const rows = names(10).map((value, i) => row(addDays('2026-01-01', i), { k: value }));
          // Two inserts: two parts of one partition, with another organisation's insert between them (block
          // numbers count per table, so the partition's blocks are not contiguous, as on a busy server).
          await t.insertRows(org.organizationId, rows.slice(0, 5));
          await t.insertRows((await t.newOrganization()).organizationId, [row('2026-01-01', { k: 'elsewhere' })]);
          await t.insertRows(org.organizationId, rows.slice(5));
          const response = await post(org, { [keyField]: 'k', limit: 4, ...(search ? { search } : {}) });
          expect(response.status).toBe(200);
          expect(response.body.data.values).toEqual(names(4));
          return { org, cursor: response.body.data.nextCursor as string };
        }
        const refused = (response: { status: number; body: { error?: { message: string } } }, detail: string | RegExp) => {
          expect(response.status).toBe(400);
          expect(response.body.error!.message.startsWith(PREFIX)).toBe(true);
          expect(response.body.error!.message.slice(PREFIX.length)).toMatch(detail);
        };

        /**
         * The partitions of an organisation's rows, and how many active parts they have on each node holding them
         * (on a cluster: every replica of their shard, each with its own parts).
         */
        async function partitionsOf(org: TestOrganization): Promise<{ ids: string[]; parts: number[] }> {
          const ids = new Set<string>();
          const parts: number[] = [];
          for (const node of await t.nodes()) {
            const [row] = await node.query<{ ids: string[]; parts: string }>(
              `SELECT groupUniqArray(partition_id) AS ids, toString(count()) AS parts FROM system.parts
               WHERE database = {database:String} AND table = 'cost_line_items' AND active
                 AND substring(partition, 3, 36) = {org:String}`,
              { database: node.database, org: org.organizationId },
            );
            row.ids.forEach((id) => ids.add(id));
            if (Number(row.parts) > 0) parts.push(Number(row.parts));
          }
          return { ids: [...ids], parts };
        }

        it('continues with the same cursor as often as asked while the data is unchanged: through a merge of its parts and another organisation’s import', async () => {
          const { org, cursor } = await firstPage();
          const second = await post(org, { [keyField]: 'k', limit: 4, cursor });
          expect(second.body.data).toEqual({ values: names(4, 4), nextCursor: expect.any(String) });
          const other = await t.newOrganization();
          await t.insertRows(other.organizationId, [row('2026-01-05', { k: 'v-00004a' })]);
          expect((await post(org, { [keyField]: 'k', limit: 4, cursor })).body).toEqual(second.body);
          // Merging the organisation's parts rewrites them but not a row.
          const before = await partitionsOf(org);
          expect(new Set(before.parts)).toEqual(new Set([2])); // firstPage inserted two parts into one partition
          await t.mergeOrganizationParts(org.organizationId);
          expect(new Set((await partitionsOf(org)).parts)).toEqual(new Set([1]));
          const merged = await post(org, { [keyField]: 'k', limit: 4, cursor });
          expect(merged.status).toBe(200);
          expect(merged.body).toEqual(second.body);
          const third = await post(org, { [keyField]: 'k', limit: 4, cursor: second.body.data.nextCursor });
          expect(third.body).toEqual({ success: true, data: { values: names(2, 8) } });
        });

        it('continues on another instance of the API (its own answer cache and write count): the version is the stored data’s', async () => {
          const { org, cursor } = await firstPage();
          const other = await TestApp.start();
          try {
            const second = await other.http
              .post(path)
              .set(org.auth)
              .send({ [keyField]: 'k', limit: 4, cursor });
            expect(second.status).toBe(200);
            expect(second.body.data.values).toEqual(names(4, 4));
            const third = await post(org, { [keyField]: 'k', limit: 4, cursor: second.body.data.nextCursor });
            expect(third.body.data).toEqual({ values: names(2, 8) });
          } finally {
            await other.close();
          }
        });

        it('refuses a cursor once rows of the organisation were inserted after its first page, so no page repeats or skips a value', async () => {
          const { org, cursor } = await firstPage();
          expect((await post(org, { [keyField]: 'k', limit: 4, cursor })).status).toBe(200); // answered (and cached) before the insert
          // A value that sorts into the pages already read, and one into those to come.
          await t.insertRows(org.organizationId, [row('2026-02-01', { k: 'v-00001a' }), row('2026-02-02', { k: 'v-00005a' })]);
          const after = await post(org, { [keyField]: 'k', limit: 4, cursor });
          refused(after, /^cursor: has expired: the organisation's cost data changed since the first page/);
          // Starting again sees the new data whole.
          const restarted = await allPages(org, { [keyField]: 'k' }, 4);
          expect(restarted.flat()).toEqual([...names(10), 'v-00001a', 'v-00005a'].sort(byBytes));
        });

        it('refuses a cursor once an import replaced a partition of the organisation (REPLACE PARTITION, as the importer swaps)', async () => {
          const { org, cursor } = await firstPage();
          const { ids } = await partitionsOf(org);
          // On every node holding the partition (each replica of its shard on a cluster).
          for (const node of await t.nodes()) {
            const staging = `${node.database}.values_cursor_staging_${randomUUID().replace(/-/g, '')}`;
            const table = node.table('cost_line_items');
            await node.command(`CREATE TABLE ${staging} AS ${table}`);
            try {
              // The same rows but the last value: the partition as a re-import would leave it.
              await node.command(
                `INSERT INTO ${staging} SELECT * FROM ${table} WHERE organization_id = {org:UUID} AND ${column}['k'] != 'v-00009'`,
                { org: org.organizationId },
              );
              const held = await node.query<{ id: string }>(
                `SELECT DISTINCT partition_id AS id FROM system.parts WHERE database = {database:String} AND table = 'cost_line_items' AND active AND partition_id IN {ids:Array(String)}`,
                { database: node.database, ids },
              );
              for (const { id } of held) await node.command(`ALTER TABLE ${table} REPLACE PARTITION ID '${id}' FROM ${staging}`);
            } finally {
              await node.command(`DROP TABLE IF EXISTS ${staging}`);
            }
          }
          refused(await post(org, { [keyField]: 'k', limit: 4, cursor }), /^cursor: has expired/);
          expect((await allPages(org, { [keyField]: 'k' }, 4)).flat()).toEqual(names(9));
        });

        it('refuses a cursor of another organisation, key, search or route, and one this API did not issue', async () => {
          const { org, cursor } = await firstPage();
          const searched = await firstPage('V-');
          const stranger = await t.newOrganization();
          refused(await post(stranger, { [keyField]: 'k', limit: 4, cursor }), 'cursor: was issued to another organisation');
          refused(await post(org, { [keyField]: 'K', limit: 4, cursor }), `cursor: was issued for another ${keyField}`);
          refused(await post(org, { [keyField]: 'k', limit: 4, cursor, search: 'v' }), 'cursor: was issued for another search');
          refused(
            await post(searched.org, { [keyField]: 'k', limit: 4, cursor: searched.cursor }),
            'cursor: was issued for another search',
          );
          expect((await post(searched.org, { [keyField]: 'k', limit: 4, cursor: searched.cursor, search: 'V-' })).body.data.values).toEqual(
            names(4, 4),
          );
          const otherPath = ENDPOINTS.find((endpoint) => endpoint.path !== path)!;
          const crossed = await t.http
            .post(otherPath.path)
            .set(org.auth)
            .send({ [otherPath.keyField]: 'k', limit: 4, cursor });
          refused(
            crossed,
            `cursor: was issued by ${path.replace('/v1/cost-insights', '')}, not ${otherPath.path.replace('/v1/cost-insights', '')}`,
          );
          for (const garbage of [
            'garbage',
            `${cursor}x`,
            cursor.slice(0, -3),
            'eyJ2IjoxfQ',
            'not a cursor!',
            Buffer.from('{}').toString('base64url'),
          ]) {
            refused(await post(org, { [keyField]: 'k', limit: 4, cursor: garbage }), /^cursor: is not a cursor of this API/);
          }
        });
      });
    });

    describe('validation and access', () => {
      let org: TestOrganization;
      beforeAll(async () => {
        org = await t.newOrganization();
      });

      it.each([
        ['missing', {}, `${keyField}: Expected string, received undefined`],
        ['null', { [keyField]: null }, `${keyField}: Expected string, received null`],
        ['an empty string', { [keyField]: '' }, `${keyField}: must not be empty`],
        ['a number', { [keyField]: 42 }, `${keyField}: Expected string, received number`],
        ['an array', { [keyField]: ['env'] }, `${keyField}: Expected string, received array`],
        ['257 characters', { [keyField]: 'x'.repeat(257) }, `${keyField}: at most 256 characters`],
        ['with an unknown field', { [keyField]: 'env', extra: 1 }, 'extra: unknown field'],
        ['with a search of 257 characters', { [keyField]: 'env', search: 'x'.repeat(257) }, 'search: at most 256 characters'],
        ['with a search that is a number', { [keyField]: 'env', search: 1 }, 'search: Expected string, received number'],
        ['with a limit of 0', { [keyField]: 'env', limit: 0 }, 'limit: must be from 1 to 10000, received 0'],
        ['with a limit of -1', { [keyField]: 'env', limit: -1 }, 'limit: must be from 1 to 10000, received -1'],
        ['with a limit of 10001', { [keyField]: 'env', limit: 10001 }, 'limit: must be from 1 to 10000, received 10001'],
        ['with a limit of 2.5', { [keyField]: 'env', limit: 2.5 }, 'limit: Expected integer, received 2.5'],
        ['with a limit that is a string', { [keyField]: 'env', limit: '5' }, 'limit: Expected integer, received string'],
        ['with a limit that is an array', { [keyField]: 'env', limit: [5] }, 'limit: Expected integer, received array'],
        ['with an empty cursor', { [keyField]: 'env', cursor: '' }, 'cursor: must not be empty'],
        ['with a cursor that is a number', { [keyField]: 'env', cursor: 7 }, 'cursor: Expected string, received number'],
      ])('answers 400 for a key that is %s', async (_label, body, detail) => {
        const response = await post(org, body);
        expect(response.status).toBe(400);
        expect(response.body).toEqual({ success: false, error: { message: PREFIX + detail } });
      });

      it('accepts a search of 256 characters and limits of 1 and 10000; null means omitted', async () => {
        for (const body of [{ search: 'é'.repeat(256) }, { limit: 1 }, { limit: 10_000 }, { search: null, limit: null, cursor: null }]) {
          const response = await post(org, { [keyField]: 'env', ...body });
          expect({ body, status: response.status, data: response.body.data }).toEqual({ body, status: 200, data: { values: [] } });
        }
      });

      it('accepts a key of exactly 256 characters', async () => {
        const response = await post(org, { [keyField]: 'x'.repeat(256) });
        expect(response.status).toBe(200);
        expect(response.body.data.values).toEqual([]);
      });

      it('answers 401 without a key', async () => {
        const response = await t.http.post(path).send({ [keyField]: 'env' });
        expect(response.status).toBe(401);
        expect(response.body).toEqual({ message: 'Unauthorized' });
      });

      it('answers 403 to a key without cost:read', async () => {
        const limited = await t.newOrganization(['shared-filters:read']);
        const response = await post(limited, { [keyField]: 'env' });
        expect(response.status).toBe(403);
        expect(response.body.success).toBe(false);
      });
    });
  });

  it('stores tag and category maps in the basic layout (migration 0028, undoing 0008) without automatic column statistics (0009), and reads them back whole', async () => {
    const nodes = await t.nodes();
    const [{ statement }] = await t.clickhouse.query<{ statement: string }>(`SHOW CREATE TABLE ${nodes[0].table('cost_line_items')}`);
    expect(statement).toMatch(/map_serialization_version = 'basic'/);
    // Migration 0009: no automatic column statistics for the planner to read per part.
    expect(statement).toMatch(/auto_statistics_types = ''/);
    const a = await t.newOrganization();
    const tags = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`key-${i}`, `value-${i}`]));
    await t.insertRows(a.organizationId, [
      { usage_date: '2026-10-01', resource_tags: tags, cost_categories: { unit: 'u-1' }, amortized_cost: '2' },
    ]);
    const rows = await t.clickhouse.query<{ tags: Record<string, string>; team: string }>(
      `SELECT resource_tags AS tags, resource_tags['key-7'] AS team FROM ${t.clickhouse.table('cost_line_items')} WHERE organization_id = {org:UUID}`,
      { org: a.organizationId },
    );
    expect(rows).toEqual([{ tags, team: 'value-7' }]);
    const values = await t.http.post('/v1/cost-insights/tag-values').set(a.auth).send({ tagKey: 'key-7' });
    expect(values.body.data.values).toEqual(['value-7']);
    // The part written holds each map as one keys and one values stream, not buckets of them (on whichever node holds it).
    const layouts: string[][] = [];
    for (const node of nodes) {
      const found = await node.query<{ column: string; substreams: string[] }>(
        `SELECT column, substreams FROM system.parts_columns
         WHERE database = {database:String} AND table = 'cost_line_items' AND active
           AND substring(partition, 3, 36) = {org:String} AND column IN ('resource_tags', 'cost_categories')
         ORDER BY column`,
        { database: node.database, org: a.organizationId },
      );
      layouts.push(...found.map((part) => [part.column, ...part.substreams]));
    }
    expect(layouts.length).toBeGreaterThanOrEqual(2);
    for (const [column, ...substreams] of layouts) {
      expect(substreams).toEqual([
        `${column}.size0`,
        `${column}%2Ekeys.size`,
        `${column}%2Ekeys`,
        `${column}%2Evalues.size`,
        `${column}%2Evalues`,
      ]);
    }
  });

  it('keeps tags and cost categories apart', async () => {
    const a = await t.newOrganization();
    await t.insertRows(a.organizationId, [
      { usage_date: '2026-10-01', resource_tags: { shared: 'from-tag' }, cost_categories: { shared: 'from-category' } },
    ]);
    const tags = await t.http.post('/v1/cost-insights/tag-values').set(a.auth).send({ tagKey: 'shared' });
    const categories = await t.http.post('/v1/cost-insights/cost-category-values').set(a.auth).send({ categoryKey: 'shared' });
    expect(tags.body.data.values).toEqual(['from-tag']);
    expect(categories.body.data.values).toEqual(['from-category']);
  });
});
