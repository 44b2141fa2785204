import { JsonText, serializeJson } from './json-text';

describe('serializeJson', () => {
  it('is JSON.stringify without JsonText', () => {
    const value = { a: [1, 'two', { three: null }], b: 'x"y' };
    expect(serializeJson(value)).toBe(JSON.stringify(value));
  });

  it('splices JsonText in verbatim, anywhere in the tree', () => {
    const body = { success: true, data: { items: JsonText.array(['{"n":1.50}', '{"n":2}']), summary: { total: 3.5 }, more: new JsonText('"raw"') } };
    const text = serializeJson(body);
    expect(text).toBe('{"success":true,"data":{"items":[{"n":1.50},{"n":2}],"summary":{"total":3.5},"more":"raw"}}');
    expect(JSON.parse(text).data.items).toEqual([{ n: 1.5 }, { n: 2 }]);
    expect(serializeJson({ items: JsonText.array([]) })).toBe('{"items":[]}');
  });

  it('cannot be fooled by data that looks like a placeholder', () => {
    const body = { items: JsonText.array(['1']), label: '0:0', other: '"0:0"' };
    expect(JSON.parse(serializeJson(body))).toEqual({ items: [1], label: '0:0', other: '"0:0"' });
  });

  it('stays correct under a plain JSON.stringify (the parsed value)', () => {
    expect(JSON.stringify({ items: JsonText.array(['{"n":1.50}']) })).toBe('{"items":[{"n":1.5}]}');
  });
});
