import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import type { Request } from 'express';
import type { Scope } from './principal';
import type { Principal } from './principal';

export interface AuthenticatedRequest extends Request {
  /** Set by ApiKeyAuthGuard when the request carries a valid key (or, on the admin API, a signed-in session). */
  principal?: Principal;
}

export const REQUIRED_SCOPES = 'requiredScopes';
export const IS_PUBLIC = 'isPublic';

/** The scopes an API key needs for a route (403 when missing). */
export const RequireScopes = (...scopes: Scope[]) => SetMetadata(REQUIRED_SCOPES, scopes);

/** A route that needs no API key and is not rate-limited (health checks). */
export const Public = () => SetMetadata(IS_PUBLIC, true);

export const WITHOUT_KEY = 'withoutKey';

/** A route that needs no API key but counts against the client IP's rate limit (the sign-in routes). */
export const WithoutKey = () => SetMetadata(WITHOUT_KEY, true);

/** The authenticated caller. Its organizationId is the only organisation scope a query may use. */
export const CurrentPrincipal = createParamDecorator((_data: unknown, context: ExecutionContext): Principal => {
  const principal = context.switchToHttp().getRequest<AuthenticatedRequest>().principal;
  if (!principal) throw new Error('CurrentPrincipal used on a route without authentication');
  return principal;
});
