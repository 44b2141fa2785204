import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { AuthenticatedRequest } from '../common/http/request-context';
import { bearerToken } from './api-key-format';
import { ApiKeysService } from './api-keys.service';
import { ThrottledClients } from './throttled-clients';

/**
 * Resolves the API key into `request.principal` but rejects nothing itself: the rate limiter runs
 * next (per key, or per client IP for unauthenticated traffic), then ScopesGuard answers 401/403.
 */
@Injectable()
export class ApiKeyAuthGuard implements CanActivate {
  constructor(
    private readonly apiKeys: ApiKeysService,
    private readonly throttledClients: ThrottledClients,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const token = bearerToken(request.headers.authorization);
    if (token)
      request.principal = await this.apiKeys.authenticate(token, { clientThrottled: this.throttledClients.isThrottled(request.ip) });
    return true;
  }
}
