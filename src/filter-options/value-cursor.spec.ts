import { decodeValueCursor, encodeValueCursor, expiredCursor, ValueCursorScope } from './value-cursor';

const SCOPE: ValueCursorScope = {
  organizationId: '6f1c1f5e-8a4b-4c1e-9a53-2d7f0c8b1a11',
  dataScope: '',
  kind: 'tag',
  key: 'env',
  search: 'pro',
};
const POSITION = { after: 'production ü🙂 "quoted"', dataVersion: '1234-5/' };
const PREFIX = 'Invalid request. Please see message details. ';

function refusal(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return (error as Error).message;
  }
  return undefined;
}

describe('value cursors', () => {
  it('round-trips the position, as base64url text that shows neither the organisation nor the key', () => {
    const cursor = encodeValueCursor(SCOPE, POSITION);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(Buffer.from(cursor, 'base64url').toString()).not.toContain(SCOPE.organizationId);
    expect(decodeValueCursor(cursor, SCOPE)).toEqual(POSITION);
    // The organisation in any case is the same organisation.
    expect(decodeValueCursor(cursor, { ...SCOPE, organizationId: SCOPE.organizationId.toUpperCase() })).toEqual(POSITION);
  });

  it.each([
    ['another organisation', { organizationId: '0b0e1f5e-8a4b-4c1e-9a53-2d7f0c8b1a11' }, 'cursor: was issued to another organisation'],
    ['a key with a data scope', { dataScope: '{"inclusions":{"clouds":["AWS"]}}' }, 'cursor: was issued to a key with another data scope'],
    ['the other route', { kind: 'costCategory' as const }, 'cursor: was issued by /tag-values, not /cost-category-values'],
    ['another key', { key: 'Env' }, 'cursor: was issued for another tagKey'],
    ['another search', { search: 'prod' }, 'cursor: was issued for another search'],
    ['no search', { search: '' }, 'cursor: was issued for another search'],
  ])('refuses a cursor for %s with a 400 naming cursor', (_label, change, detail) => {
    const cursor = encodeValueCursor(SCOPE, POSITION);
    expect(refusal(() => decodeValueCursor(cursor, { ...SCOPE, ...change }))).toBe(PREFIX + detail);
  });

  it('names the category key for category cursors', () => {
    const scope: ValueCursorScope = { ...SCOPE, kind: 'costCategory' };
    const cursor = encodeValueCursor(scope, POSITION);
    expect(refusal(() => decodeValueCursor(cursor, { ...scope, key: 'other' }))).toBe(
      PREFIX + 'cursor: was issued for another categoryKey',
    );
  });

  const json = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const valid = JSON.parse(Buffer.from(encodeValueCursor(SCOPE, POSITION), 'base64url').toString()) as Record<string, unknown>;

  it.each([
    ['not base64url', 'abc+/='],
    ['spaces', 'eyJ2 IjoxfQ'],
    ['not JSON', Buffer.from('garbage').toString('base64url')],
    ['a JSON array', json([1])],
    ['JSON null', json(null)],
    ['another format version', json({ ...valid, v: 1 })],
    ['no data scope digest (format 1)', json({ ...valid, c: undefined })],
    ['a field missing', json({ ...valid, a: undefined })],
    ['a field of another type', json({ ...valid, d: 5 })],
    ['an unknown kind', json({ ...valid, k: 'region' })],
    ['an inherited kind', json({ ...valid, k: 'toString' })],
  ])('refuses %s as not a cursor', (_label, cursor) => {
    expect(refusal(() => decodeValueCursor(cursor, SCOPE))).toBe(
      PREFIX + 'cursor: is not a cursor of this API; pass the nextCursor of the previous page as it is',
    );
  });

  it('refuses any spelling but its own: a character appended to a cursor whose length is a multiple of 4', () => {
    // Node's base64url decoder skips one dangling character, so such a cursor plus one character decodes to itself.
    const cursors = ['', 'a', 'ab', 'abc'].map((pad) => encodeValueCursor(SCOPE, { ...POSITION, after: POSITION.after + pad }));
    const whole = cursors.find((cursor) => cursor.length % 4 === 0)!;
    expect(decodeValueCursor(whole, SCOPE).after.startsWith(POSITION.after)).toBe(true);
    expect(refusal(() => decodeValueCursor(`${whole}x`, SCOPE))).toBe(
      PREFIX + 'cursor: is not a cursor of this API; pass the nextCursor of the previous page as it is',
    );
  });

  it('words the expired refusal', () => {
    expect(expiredCursor().message).toMatch(
      /^Invalid request\. Please see message details\. cursor: has expired: .*start again without a cursor$/,
    );
  });
});
