import { readCommitmentsResult } from './commitments.query';

const TOTAL = '{"kind":"total","bucket_date":"1970-01-01","service":"","type":"","applied":0,"used_cost":9,"coverage":0.5}';
const SERVICE = '{"kind":"service","bucket_date":"1970-01-01","service":"EC2","type":"","applied":1,"used_cost":9,"coverage":null}';
const FIRST = '{"commitment_discount_id":"sp-1","used_cost":6}';
const SECOND = '{"commitment_discount_id":"sp-2","used_cost":3}';

/** The commitments' bytes as the answer splices them: inside brackets they must be a JSON array. */
const commitmentsOf = (chunks: Buffer[]) => JSON.parse(`[${Buffer.concat(readCommitmentsResult(chunks).commitments).toString()}]`);

describe('readCommitmentsResult', () => {
  it('parses the head lines and keeps the commitments as the inside of an array', () => {
    const text = `${TOTAL}\n${SERVICE}\n,${FIRST}\n,${SECOND}\n`;
    const result = readCommitmentsResult([Buffer.from(text)]);
    expect(result.heads.map((line) => [line.kind, line.service, line.used_cost])).toEqual([
      ['total', '', 9],
      ['service', 'EC2', 9],
    ]);
    expect(commitmentsOf([Buffer.from(text)])).toEqual([JSON.parse(FIRST), JSON.parse(SECOND)]);
  });

  it('reads lines split anywhere across the chunks ClickHouse sent', () => {
    const text = Buffer.from(`${TOTAL}\n,${FIRST}\n,${SECOND}\n`);
    for (const cut of [1, TOTAL.length, TOTAL.length + 1, TOTAL.length + 2, text.length - 1]) {
      const chunks = [text.subarray(0, cut), text.subarray(cut)];
      expect(readCommitmentsResult(chunks).heads).toHaveLength(1);
      expect(commitmentsOf(chunks).map((c: { commitment_discount_id: string }) => c.commitment_discount_id)).toEqual(['sp-1', 'sp-2']);
    }
  });

  it('answers commitments without a head, a head without commitments, and nothing', () => {
    expect(readCommitmentsResult([Buffer.from(`,${FIRST}\n`)]).heads).toEqual([]);
    expect(commitmentsOf([Buffer.from(`,${FIRST}\n`)])).toEqual([JSON.parse(FIRST)]);
    expect(readCommitmentsResult([Buffer.from(`${TOTAL}\n`)])).toEqual({ heads: [JSON.parse(TOTAL)], commitments: [] });
    expect(readCommitmentsResult([])).toEqual({ heads: [], commitments: [] });
  });
});
