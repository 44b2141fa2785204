import type { Response } from 'supertest';

/**
 * Low limits for the rate-limit suites' own applications. Client IPs
 * come from X-Forwarded-For (one trusted hop), so each unauthenticated case has its own IP and, in
 * server mode, never touches the per-IP counter other test files share in Redis.
 */
export const KEY_LIMIT = 5;
export const IP_LIMIT = 3;
export const LIMIT_ENV = {
  RATE_LIMIT_PER_MINUTE: String(KEY_LIMIT),
  UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE: String(IP_LIMIT),
  TRUST_PROXY_HOPS: '1',
};

export function rateHeaders(response: Response): { limit: number; remaining: number } {
  return { limit: Number(response.headers['x-ratelimit-limit']), remaining: Number(response.headers['x-ratelimit-remaining']) };
}

export function expectRateLimited(response: Response, limit: number): void {
  expect(response.status).toBe(429);
  const retryAfter = response.headers['retry-after'];
  expect(retryAfter).toMatch(/^\d+$/);
  expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
  expect(Number(retryAfter)).toBeLessThanOrEqual(60);
  expect(response.body).toEqual({
    success: false,
    error: { message: `Rate limit exceeded. Please retry after ${retryAfter} seconds.` },
  });
  expect(rateHeaders(response)).toEqual({ limit, remaining: 0 });
}
