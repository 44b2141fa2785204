import type { Request, Response } from 'express';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The browser's session with the Settings pages: sent to this origin only, never readable by scripts. */
export const SESSION_COOKIE = 'ci_session';
/** A sign-in under way at the provider: sent back on the provider's redirect to the callback (a top-level GET). */
export const PENDING_COOKIE = 'ci_sign_in';

/** A cookie of the request, by name (the header parsed here: no cookie middleware for two cookies). */
export function requestCookie(request: Request, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const separator = part.indexOf('=');
    if (separator > 0 && part.slice(0, separator).trim() === name) return part.slice(separator + 1).trim();
  }
  return undefined;
}

/**
 * HttpOnly and Secure always. The session is SameSite=Strict: no other site's page, link or form carries it. The
 * pending sign-in is SameSite=Lax, because the provider's redirect back is a cross-site navigation, and scoped to /auth.
 */
export function setSignInCookie(
  response: Response,
  name: typeof SESSION_COOKIE | typeof PENDING_COOKIE,
  value: string,
  maxAgeSeconds: number,
): void {
  const attributes = name === SESSION_COOKIE ? 'Path=/; SameSite=Strict' : 'Path=/auth; SameSite=Lax';
  response.append('Set-Cookie', `${name}=${value}; Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}; ${attributes}; HttpOnly; Secure`);
}

export function clearSignInCookie(response: Response, name: typeof SESSION_COOKIE | typeof PENDING_COOKIE): void {
  setSignInCookie(response, name, '', 0);
}

/**
 * The session cookie is SameSite=Strict, so browsers send it from this site only; as a second line (older browsers, a
 * sibling subdomain), a change must also say it comes from the pages' own origin: `Origin` (every browser sends it on
 * a POST or DELETE from a script), or `Sec-Fetch-Site: same-origin` where a privacy setting drops Origin.
 */
export function isCrossSite(request: Request, publicOrigin: string): boolean {
  if (SAFE_METHODS.has(request.method)) return false;
  const origin = request.headers.origin;
  return origin === undefined ? request.headers['sec-fetch-site'] !== 'same-origin' : origin !== publicOrigin;
}
