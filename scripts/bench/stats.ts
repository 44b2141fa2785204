/** Latency summaries of the bench's samples (milliseconds). */
export interface Stats {
  runs: number;
  p50: number;
  p95: number;
  p99: number;
  mean: number;
}

export function stats(samples: number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  return {
    runs: sorted.length,
    p50: round(at(0.5)),
    p95: round(at(0.95)),
    p99: round(at(0.99)),
    mean: round(sorted.reduce((a, b) => a + b, 0) / sorted.length),
  };
}

export function round(n: number): number {
  return Math.round(n * 100) / 100;
}
