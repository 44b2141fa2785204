import { ExecutionContext, Inject, Injectable, Logger } from '@nestjs/common';
import { ThrottlerException, ThrottlerGuard, ThrottlerRequest } from '@nestjs/throttler';
import type { Response } from 'express';
import { UpstreamUnavailableException } from '../common/errors/api-errors';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { AuthenticatedRequest, IS_PUBLIC } from '../common/http/request-context';
import { metrics } from '../observability/prometheus-metrics';
import { ThrottledClients } from './throttled-clients';

/**
 * Fixed one-minute window per API key (RATE_LIMIT_PER_MINUTE), or per client IP for requests
 * without a valid key (UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE). Counters live in Redis when
 * REDIS_URL is set, so every instance shares them (per instance while Redis is unreachable).
 * One counter per key across all endpoints.
 */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  private readonly failureLogger = new Logger(RateLimitGuard.name);
  @Inject(ThrottledClients) private readonly throttledClients!: ThrottledClients;
  @Inject(APP_CONFIG) private readonly config!: AppConfig;

  protected override async shouldSkip(context: ExecutionContext): Promise<boolean> {
    return this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()]) ?? false;
  }

  protected override async getTracker(request: Record<string, unknown>): Promise<string> {
    const { principal, ip } = request as unknown as AuthenticatedRequest;
    return principal ? `key:${principal.keyId}` : `ip:${ip}`;
  }

  protected override generateKey(_context: ExecutionContext, tracker: string, throttlerName: string): string {
    return `rate:${throttlerName}:${tracker}`;
  }

  protected override async handleRequest(request: ThrottlerRequest): Promise<boolean> {
    const { context, limit, ttl, throttler, blockDuration, getTracker, generateKey } = request;
    const { req, res } = this.getRequestResponse(context) as { req: Record<string, unknown>; res: Response };
    const tracker = await getTracker(req, context);
    const key = generateKey(context, tracker, throttler.name ?? 'default');
    // With Redis the storage degrades to in-memory counting by itself (ResilientThrottlerStorage);
    // anything still failing here is unexpected: answer with the envelope, never hang.
    const { totalHits, timeToExpire, isBlocked, timeToBlockExpire } = await this.storageService
      .increment(key, ttl, limit, blockDuration, throttler.name ?? 'default')
      .catch((error: unknown) => {
        this.failureLogger.error(`Rate-limit counter unavailable: ${error instanceof Error ? error.message : String(error)}`);
        throw new UpstreamUnavailableException('Rate limiting');
      });
    res.setHeader('X-RateLimit-Limit', limit);
    if (isBlocked) {
      const retryAfter = Math.max(1, Math.ceil(timeToBlockExpire));
      res.setHeader('X-RateLimit-Remaining', 0);
      res.setHeader('Retry-After', retryAfter);
      metrics.rateLimitRejections.inc({ tracker: tracker.startsWith('key:') ? 'key' : 'ip' });
      const { principal, ip } = req as unknown as AuthenticatedRequest;
      if (!principal) this.throttledClients.throttle(ip ?? '', retryAfter);
      throw new ThrottlerException(`Rate limit exceeded. Please retry after ${retryAfter} seconds.`);
    }
    res.setHeader('X-RateLimit-Remaining', Math.max(0, limit - totalHits));
    res.setHeader('X-RateLimit-Reset', Math.max(0, Math.ceil(timeToExpire)));
    const { principal } = req as unknown as AuthenticatedRequest;
    if (principal) await this.countOrganization(principal.organizationId, ttl, blockDuration, res);
    return true;
  }

  /**
   * The organisation's budget beside the key's (ORGANIZATION_RATE_LIMIT_PER_MINUTE): every request of any
   * of its keys counts once more in one counter of the organisation, so creating keys does not multiply
   * what an organisation may ask. Its own headers, so the key's stay as they are.
   */
  private async countOrganization(organizationId: string, ttl: number, blockDuration: number, res: Response): Promise<void> {
    const limit = this.config.organizationRateLimitPerMinute;
    const { totalHits, isBlocked, timeToBlockExpire } = await this.storageService
      .increment(`rate:organization:${organizationId.toLowerCase()}`, ttl, limit, blockDuration, 'organization')
      .catch((error: unknown) => {
        this.failureLogger.error(`Rate-limit counter unavailable: ${error instanceof Error ? error.message : String(error)}`);
        throw new UpstreamUnavailableException('Rate limiting');
      });
    res.setHeader('X-RateLimit-Organization-Limit', limit);
    if (isBlocked) {
      const retryAfter = Math.max(1, Math.ceil(timeToBlockExpire));
      res.setHeader('X-RateLimit-Organization-Remaining', 0);
      res.setHeader('X-RateLimit-Remaining', 0);
      res.setHeader('Retry-After', retryAfter);
      metrics.rateLimitRejections.inc({ tracker: 'organization' });
      throw new ThrottlerException(
        `Rate limit exceeded: the organization's keys together used its ${limit} requests per minute (ORGANIZATION_RATE_LIMIT_PER_MINUTE). Please retry after ${retryAfter} seconds.`,
      );
    }
    res.setHeader('X-RateLimit-Organization-Remaining', Math.max(0, limit - totalHits));
  }
}
