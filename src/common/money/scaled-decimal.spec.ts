import { decimalText, scaled, shareHalfUp } from './scaled-decimal';

describe('money as integers of 1e-10', () => {
  it('reads and writes decimal texts of at most 10 places exactly', () => {
    expect(scaled('20.5202267290')).toBe(205_202_267_290n);
    expect(scaled('-0.0000000001')).toBe(-1n);
    expect(decimalText(scaled('0.1') + scaled('0.2'))).toBe('0.3');
    expect(decimalText(scaled('-1.0000000001') + scaled('0.5'))).toBe('-0.5000000001');
    expect(decimalText(0n)).toBe('0');
    expect(() => scaled('1.00000000001')).toThrow('not a decimal of at most 10 places');
  });

  it('gives a share rounded half up to 4 decimals, 0 of nothing', () => {
    expect(shareHalfUp(scaled('1'), scaled('3'))).toBe(0.3333);
    expect(shareHalfUp(scaled('2'), scaled('3'))).toBe(0.6667);
    expect(shareHalfUp(scaled('0.00005'), scaled('1'))).toBe(0.0001); // exactly half: up
    expect(shareHalfUp(scaled('0.000049'), scaled('1'))).toBe(0);
    expect(shareHalfUp(5n, 0n)).toBe(0);
  });
});
