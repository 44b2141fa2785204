import { mixSeed, mulberry32, SeededRandom } from './seeded-random';

describe('seeded random', () => {
  it('repeats the same sequence for the same seed and differs for another seed', () => {
    const draw = (seed: number) => Array.from({ length: 5 }, mulberry32(seed));
    expect(draw(7)).toEqual(draw(7));
    expect(draw(7)).not.toEqual(draw(8));
  });

  it('stays in [0, 1) and is roughly uniform', () => {
    const next = mulberry32(123);
    const values = Array.from({ length: 20_000 }, next);
    expect(Math.min(...values)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...values)).toBeLessThan(1);
    const mean = values.reduce((sum, v) => sum + v, 0) / values.length;
    expect(mean).toBeGreaterThan(0.48);
    expect(mean).toBeLessThan(0.52);
  });

  it('mixes seeds so that neighbouring inputs give unrelated seeds', () => {
    expect(mixSeed(1, 2, 3)).toBe(mixSeed(1, 2, 3));
    expect(mixSeed(1, 2, 3)).not.toBe(mixSeed(1, 2, 4));
    expect(mixSeed(1, 2, 3)).not.toBe(mixSeed(2, 1, 3));
    const seeds = new Set(Array.from({ length: 1000 }, (_, day) => mixSeed(42, 5, day)));
    expect(seeds.size).toBe(1000);
  });

  it('draws integers within bounds, picks by weight and gives standard normals', () => {
    const random = new SeededRandom(99);
    const ints = Array.from({ length: 2000 }, () => random.int(3, 6));
    expect(new Set(ints)).toEqual(new Set([3, 4, 5, 6]));
    const picks = Array.from({ length: 4000 }, () => random.weighted(['a', 'b'], [3, 1]));
    const shareA = picks.filter((p) => p === 'a').length / picks.length;
    expect(shareA).toBeGreaterThan(0.7);
    expect(shareA).toBeLessThan(0.8);
    const normals = Array.from({ length: 20_000 }, () => random.normal());
    const mean = normals.reduce((s, v) => s + v, 0) / normals.length;
    const sd = Math.sqrt(normals.reduce((s, v) => s + (v - mean) ** 2, 0) / normals.length);
    expect(Math.abs(mean)).toBeLessThan(0.03);
    expect(sd).toBeGreaterThan(0.97);
    expect(sd).toBeLessThan(1.03);
    expect(normals.every(Number.isFinite)).toBe(true);
  });
});
