import { CanActivate, ExecutionContext, ForbiddenException, Injectable, UnauthorizedException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthenticatedRequest, IS_PUBLIC, REQUIRED_SCOPES, WITHOUT_KEY } from '../common/http/request-context';
import type { Scope } from '../common/http/principal';

/** 401 without a valid key (same answer for missing, malformed, unknown and revoked); 403 without the scope. */
@Injectable()
export class ScopesGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets) || this.reflector.getAllAndOverride<boolean>(WITHOUT_KEY, targets))
      return true;
    const principal = context.switchToHttp().getRequest<AuthenticatedRequest>().principal;
    if (!principal) throw new UnauthorizedException();
    const required = this.reflector.getAllAndOverride<Scope[]>(REQUIRED_SCOPES, targets) ?? [];
    const missing = required.filter((scope) => !principal.scopes.includes(scope));
    if (missing.length) {
      throw new ForbiddenException(`This API key lacks the scope required for this operation: ${missing.join(', ')}.`);
    }
    return true;
  }
}
