import { CanActivate, ExecutionContext, HttpStatus, Injectable } from '@nestjs/common';
import { ApiError } from '../common/errors/api-errors';
import { AuthenticatedRequest } from '../common/http/request-context';
import { bearerToken } from './api-key-format';
import { ApiKeysService } from './api-keys.service';
import { requestCookie, SESSION_COOKIE } from './sign-in-cookies';
import { sessionPrincipal, SsoService } from './sso.service';
import { ThrottledClients } from './throttled-clients';

/**
 * The routes a signed-in person's session may call: those the Settings pages use — the admin API, and the value lists
 * of the data-scope picker (with the person's cost:read). Every other data route takes API keys only.
 */
const SESSION_ROUTES = /^\/v1\/(admin\/|cost-insights\/(filters|tag-values|cost-category-values)$)/;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Resolves the API key (or, on the admin API, a Settings page's session) into `request.principal` but rejects
 * nothing itself: the rate limiter runs next (per key, or per client IP for unauthenticated traffic), then ScopesGuard
 * answers 401/403. The one refusal here: a change made with a session from another site (cross-site request forgery).
 */
@Injectable()
export class ApiKeyAuthGuard implements CanActivate {
  constructor(
    private readonly apiKeys: ApiKeysService,
    private readonly throttledClients: ThrottledClients,
    private readonly sso: SsoService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const token = bearerToken(request.headers.authorization);
    if (token) {
      request.principal = await this.apiKeys.authenticate(token, { clientThrottled: this.throttledClients.isThrottled(request.ip) });
    } else if (this.sso.settings && SESSION_ROUTES.test(request.path)) {
      const cookie = requestCookie(request, SESSION_COOKIE);
      const session = cookie ? await this.sso.session(cookie) : undefined;
      if (session) {
        refuseCrossSite(request, this.sso.settings.publicOrigin);
        request.principal = sessionPrincipal(session);
      }
    }
    return true;
  }
}

/**
 * The session cookie is SameSite=Strict, so browsers send it from this site only; as a second line (older browsers, a
 * sibling subdomain), a change must also say it comes from the pages' own origin: `Origin` (every browser sends it on
 * a POST or DELETE from a script), or `Sec-Fetch-Site: same-origin` where a privacy setting drops Origin.
 */
function refuseCrossSite(request: AuthenticatedRequest, publicOrigin: string): void {
  if (SAFE_METHODS.has(request.method)) return;
  const origin = request.headers.origin;
  const sameOrigin = origin === undefined ? request.headers['sec-fetch-site'] === 'same-origin' : origin === publicOrigin;
  if (!sameOrigin) {
    throw new ApiError(
      HttpStatus.FORBIDDEN,
      `A change made with a signed-in session must come from the Settings pages at ${publicOrigin}; this request came from ${origin ?? 'an unknown origin'}.`,
    );
  }
}
