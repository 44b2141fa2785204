import { JsonText, serializeJson } from './json-text';

const items = (...elements: string[]) => JsonText.arrayOf(Buffer.from(elements.join('\n,')));

describe('serializeJson', () => {
  it('is JSON.stringify without JsonText, as UTF-8 bytes', () => {
    const value = { a: [1, 'two', { three: null }], b: 'x"y', c: 'Zürich €' };
    expect(serializeJson(value).toString('utf8')).toBe(JSON.stringify(value));
  });

  it('splices JsonText in verbatim, anywhere in the tree', () => {
    const body = { success: true, data: { items: items('{"n":1.50}', '{"n":2}'), summary: { total: 3.5 }, more: new JsonText('"raw"') } };
    const text = serializeJson(body).toString('utf8');
    expect(text).toBe('{"success":true,"data":{"items":[{"n":1.50}\n,{"n":2}],"summary":{"total":3.5},"more":"raw"}}');
    expect(JSON.parse(text).data.items).toEqual([{ n: 1.5 }, { n: 2 }]);
    expect(serializeJson({ items: JsonText.arrayOf(Buffer.alloc(0)) }).toString('utf8')).toBe('{"items":[]}');
  });

  it('copies multi-byte UTF-8 bytes unchanged on both sides of a splice', () => {
    const body = { before: 'Zürich', items: items('{"city":"São Paulo"}'), after: '東京' };
    expect(JSON.parse(serializeJson(body).toString('utf8'))).toEqual({ before: 'Zürich', items: [{ city: 'São Paulo' }], after: '東京' });
  });

  it('cannot be fooled by data that looks like a placeholder', () => {
    const body = { items: items('1'), label: '0:0', other: '"0:0"' };
    expect(JSON.parse(serializeJson(body).toString('utf8'))).toEqual({ items: [1], label: '0:0', other: '"0:0"' });
  });

  it('stays correct under a plain JSON.stringify (the parsed value)', () => {
    expect(JSON.stringify({ items: items('{"n":1.50}') })).toBe('{"items":[{"n":1.5}]}');
  });
});
