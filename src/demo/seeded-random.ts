/**
 * Deterministic pseudo-random numbers for the demo estate: the same seed always yields the same
 * estate and the same cost rows. Not for anything secret (API keys use node:crypto).
 */

/** mulberry32: a small, fast 32-bit generator with good statistical quality for simulation. */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Mixes several integers into one 32-bit seed, so a value can be drawn for (seed, stream, day)
 * directly, independent of how many values were drawn before it (rows do not depend on batch order).
 */
export function mixSeed(...parts: number[]): number {
  let hash = 0x811c9dc5;
  for (const part of parts) {
    hash = Math.imul(hash ^ (part >>> 0), 0x01000193) >>> 0;
    hash ^= hash >>> 13;
    hash = Math.imul(hash, 0x5bd1e995) >>> 0;
    hash ^= hash >>> 15;
  }
  return hash >>> 0;
}

/** A seeded source with the helpers the estate generator needs. */
export class SeededRandom {
  private readonly next: () => number;

  constructor(seed: number) {
    this.next = mulberry32(seed);
  }

  /** Uniform in [0, 1). */
  float(): number {
    return this.next();
  }

  /** Uniform in [min, max). */
  between(min: number, max: number): number {
    return min + (max - min) * this.next();
  }

  /** Integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  /** Picks by weight; weights need not sum to 1. */
  weighted<T>(items: readonly T[], weights: readonly number[]): T {
    const total = weights.reduce((sum, w) => sum + w, 0);
    let target = this.next() * total;
    for (let i = 0; i < items.length; i++) {
      target -= weights[i];
      if (target < 0) return items[i];
    }
    return items[items.length - 1];
  }

  /** Standard normal deviate (Box-Muller). */
  normal(): number {
    const u = 1 - this.next(); // (0, 1]: log(0) is never taken
    const v = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }
}
