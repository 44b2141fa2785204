import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import type { AuthenticatedRequest } from '../../common/http/request-context';
import type { AuditActor, AuditOrigin } from '../../store/repositories/audit-event';

/**
 * The origin of a request made by `actor` for `organizationId`: the client IP as Express resolves it (the socket's
 * address, or X-Forwarded-For across TRUST_PROXY_HOPS only: app.factory.ts) and the request id the logs carry
 * (observability/request-id.ts). For the OIDC sign-in, whose actor is a person: `{kind: 'sso', subject, email}`.
 */
export function requestOrigin(request: Request, organizationId: string, actor: AuditActor): AuditOrigin {
  return {
    organizationId,
    actor,
    clientIp: request.ip ?? '',
    requestId: typeof request.id === 'string' ? request.id : String(request.id ?? ''),
  };
}

/**
 * The origin of an authenticated request: its organisation, and the key by its public id (never the key), or the
 * person signed in to the Settings pages.
 */
export function apiKeyOrigin(request: AuthenticatedRequest): AuditOrigin {
  const principal = request.principal;
  if (!principal) throw new Error('apiKeyOrigin used on a route without authentication');
  const actor = principal.person ? { kind: 'sso' as const, ...principal.person } : { kind: 'api-key' as const, keyId: principal.keyId };
  return requestOrigin(request, principal.organizationId, actor);
}

/** The route parameter: the origin of this API-key request, for AuditTrail.record. */
export const ApiKeyOrigin = createParamDecorator((_data: unknown, context: ExecutionContext): AuditOrigin =>
  apiKeyOrigin(context.switchToHttp().getRequest<AuthenticatedRequest>()),
);
