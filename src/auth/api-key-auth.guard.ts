import { CanActivate, ExecutionContext, HttpStatus, Injectable } from '@nestjs/common';
import { ApiError } from '../common/errors/api-errors';
import { AuthenticatedRequest } from '../common/http/request-context';
import { bearerToken } from './api-key-format';
import { ApiKeysService } from './api-keys.service';
import { isCrossSite, requestCookie, SESSION_COOKIE } from './sign-in-cookies';
import { SignedInSession, sessionPrincipal, SsoService } from './sso.service';
import { requestOrigin } from '../infrastructure/audit-trail/audit-origin';
import { AuditTrail } from '../infrastructure/audit-trail/audit-trail.service';
import { ThrottledClients } from './throttled-clients';

/**
 * The routes a signed-in person's session may call: those the Settings pages use — the admin API, and the value lists
 * of the data-scope picker (with the person's cost:read). Every other data route takes API keys only.
 */
const SESSION_ROUTES = /^\/v1\/(admin\/|cost-insights\/(filters|tag-values|cost-category-values)$)/;

/**
 * Resolves the API key (or, on the admin API, a Settings page's session) into `request.principal` but rejects
 * nothing itself: the rate limiter runs next (per key, or per client IP for unauthenticated traffic), then ScopesGuard
 * answers 401/403. The one refusal here: a change made with a session from another site (cross-site request forgery),
 * recorded in the audit trail.
 */
@Injectable()
export class ApiKeyAuthGuard implements CanActivate {
  constructor(
    private readonly apiKeys: ApiKeysService,
    private readonly throttledClients: ThrottledClients,
    private readonly sso: SsoService,
    private readonly auditTrail: AuditTrail,
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
        if (isCrossSite(request, this.sso.settings.publicOrigin)) await this.refuseCrossSite(request, session);
        request.principal = sessionPrincipal(session);
      }
    }
    return true;
  }

  /** Refuses a cross-site change made with a session, and leaves a trace of the attempt in the organisation's audit trail. */
  private async refuseCrossSite(request: AuthenticatedRequest, session: SignedInSession): Promise<never> {
    const origin = request.headers.origin ?? 'an unknown origin';
    const actor = { kind: 'sso' as const, subject: session.subject, email: session.email };
    await this.auditTrail.record(requestOrigin(request, session.organizationId, actor), 'session.cross-site-refused', session.subject, {
      origin,
      method: request.method,
      path: request.path,
    });
    throw new ApiError(
      HttpStatus.FORBIDDEN,
      `A change made with a signed-in session must come from the Settings pages at ${this.sso.settings!.publicOrigin}; this request came from ${origin}.`,
    );
  }
}
