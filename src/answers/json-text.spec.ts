import { JsonText, serializeJson } from './json-text';

const items = (...elements: string[]) => JsonText.arrayOf([Buffer.from(elements.join('\n,'))]);
const text = (bytes: Buffer) => bytes.toString('utf8');

describe('serializeJson', () => {
  it('is JSON.stringify without JsonText, as UTF-8 bytes', () => {
    const value = { a: [1, 'two', { three: null }], b: 'x"y', c: 'Zürich €' };
    expect(text(serializeJson(value))).toBe(JSON.stringify(value));
  });

  it('splices JsonText in verbatim, anywhere in the tree', () => {
    const body = { success: true, data: { items: items('{"n":1.50}', '{"n":2}'), summary: { total: 3.5 }, more: new JsonText('"raw"') } };
    const json = text(serializeJson(body));
    expect(json).toBe('{"success":true,"data":{"items":[{"n":1.50}\n,{"n":2}],"summary":{"total":3.5},"more":"raw"}}');
    expect(JSON.parse(json).data.items).toEqual([{ n: 1.5 }, { n: 2 }]);
    expect(text(serializeJson({ items: JsonText.arrayOf([]) }))).toBe('{"items":[]}');
  });

  it('copies multi-byte UTF-8 bytes unchanged on both sides of a splice', () => {
    const body = { before: 'Zürich', items: items('{"city":"São Paulo"}'), after: '東京' };
    expect(JSON.parse(text(serializeJson(body)))).toEqual({ before: 'Zürich', items: [{ city: 'São Paulo' }], after: '東京' });
  });

  it('cannot be fooled by data that looks like a placeholder', () => {
    const body = { items: items('1'), label: '0:0', other: '"0:0"' };
    expect(JSON.parse(text(serializeJson(body)))).toEqual({ items: [1], label: '0:0', other: '"0:0"' });
  });

  it('stays correct under a plain JSON.stringify (the parsed value)', () => {
    expect(JSON.stringify({ items: items('{"n":1.50}') })).toBe('{"items":[{"n":1.5}]}');
  });

  it('joins the chunks of a JsonText in order, wherever they were cut', async () => {
    const inside = [Buffer.from('{"n":1}\n,{"n"'), Buffer.from(':2}\n,{"é":"'), Buffer.from([0xc3]), Buffer.from([0xa9, 0x22, 0x7d])];
    expect(JSON.parse(text(serializeJson({ items: JsonText.arrayOf(inside), after: 'é' })))).toEqual({
      items: [{ n: 1 }, { n: 2 }, { é: 'é' }],
      after: 'é',
    });
  });
});
