import { compareExact, divideExact, formatExactDecimal, multiplyExact, parseExactDecimal } from './exact-decimal';

const d = (text: string) => parseExactDecimal(text)!;
const text = (value: ReturnType<typeof d>) => formatExactDecimal(value);

describe('exact decimals', () => {
  it('parses plain decimal text only', () => {
    expect(parseExactDecimal('12.50')).toEqual({ units: 1250n, scale: 2 });
    expect(parseExactDecimal('-0.003')).toEqual({ units: -3n, scale: 3 });
    for (const bad of ['', '1e5', '1,5', '.5', '5.', ' 1', 'NaN', '1.2.3', '0x10']) expect(parseExactDecimal(bad)).toBeUndefined();
  });

  it('writes the shortest text', () => {
    expect(['12.50', '-0.0030', '7', '0.000', '100'].map((t) => text(d(t)))).toEqual(['12.5', '-0.003', '7', '0', '100']);
  });

  it('divides to a scale, rounding half to even', () => {
    expect(text(divideExact(d('1'), d('3'), 4))).toBe('0.3333');
    expect(text(divideExact(d('2'), d('3'), 4))).toBe('0.6667');
    expect(text(divideExact(d('1'), d('8'), 2))).toBe('0.12'); // 0.125 → even 2
    expect(text(divideExact(d('3'), d('8'), 2))).toBe('0.38'); // 0.375 → even 8
    expect(text(divideExact(d('-3'), d('8'), 2))).toBe('-0.38');
    expect(text(divideExact(d('161.31'), d('1.0412'), 18))).toBe('154.927007299270072993');
    expect(() => divideExact(d('1'), d('0'), 2)).toThrow('division by zero');
  });

  it('compares and multiplies exactly', () => {
    expect(compareExact(d('1.10'), d('1.1'))).toBe(0);
    expect(compareExact(d('0.3'), d('0.25'))).toBe(1);
    expect(text(multiplyExact(d('12.5'), d('1.0823')))).toBe('13.52875');
  });
});
