// modes: embedded — key-name validation
import { TestApp, TestOrganization } from '../support/test-app';

/**
 * Issue 35 §6: a key's name is what people read in the key table and the CLI to decide which key to
 * revoke, so it is trimmed, refused when blank, and refused when it holds characters that hide or
 * reorder text: controls, bidirectional overrides and isolates, zero-width characters, line separators.
 */
const ADMIN = '/v1/admin/api-keys';
const INVALID = 'Invalid request. Please see message details.';
const REFUSED = 'must not contain control, bidirectional, zero-width or line-separator characters';

describe('API key names', () => {
  let t: TestApp;
  let admin: TestOrganization;

  beforeAll(async () => {
    t = await TestApp.start();
    admin = await t.newOrganization();
  });
  afterAll(() => t.close());

  const create = (name: unknown) =>
    t.http
      .post(ADMIN)
      .set(admin.auth)
      .send({ name, scopes: ['cost:read'] });
  const names = async () => ((await t.http.get(ADMIN).set(admin.auth)).body.data.keys as { name: string }[]).map((key) => key.name);

  it('trims names and refuses blank ones', async () => {
    const created = await create('  \t Payments  ');
    expect(created.status).toBe(400); // a TAB is a control character, wherever it is
    const trimmed = await create('   Payments dashboards   ');
    expect([trimmed.status, trimmed.body.data.name]).toEqual([201, 'Payments dashboards']);
    for (const blank of ['   ', '\u00a0\u3000', ' \u2003 ']) {
      const response = await create(blank);
      expect([JSON.stringify(blank), response.status]).toEqual([JSON.stringify(blank), 400]);
      expect(response.body.error.message).toBe(`${INVALID} name: must not be blank`);
    }
    expect((await create('')).body.error.message).toBe(`${INVALID} name: must not be empty`);
  });

  it('refuses control, bidi-override, zero-width and line-separator characters, naming the first', async () => {
    const cases: [string, string][] = [
      ['\u0000', 'U+0000'],
      ['\u001b[31m', 'U+001B'],
      ['\u0085', 'U+0085'],
      ['\u202e', 'U+202E'],
      ['\u202a', 'U+202A'],
      ['\u2066', 'U+2066'],
      ['\u2069', 'U+2069'],
      ['\u200e', 'U+200E'],
      ['\u200f', 'U+200F'],
      ['\u061c', 'U+061C'],
      ['\u200b', 'U+200B'],
      ['\u200d', 'U+200D'],
      ['\u2060', 'U+2060'],
      ['\ufeff', 'U+FEFF'],
      ['\u2028', 'U+2028'],
      ['\u2029', 'U+2029'],
    ];
    for (const [character, code] of cases) {
      for (const name of [`admin${character}key`, `${character}admin`, `admin${character}`]) {
        const response = await create(name);
        expect([code, response.status]).toEqual([code, 400]);
        expect(response.body.error.message).toBe(`${INVALID} name: ${REFUSED} (${code})`);
      }
    }
    expect(await names()).toEqual(['test key', 'Payments dashboards']);
  });

  it('accepts ordinary Unicode names', async () => {
    for (const name of ['Zürich FinOps', 'מחלקת כספים', '財務チーム', 'Ops 😀', "O'Brien & co"]) {
      const response = await create(name);
      expect([name, response.status, response.body.data?.name]).toEqual([name, 201, name]);
    }
  });
});
