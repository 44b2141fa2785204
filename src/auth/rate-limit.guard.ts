import { ExecutionContext, Inject, Injectable, Logger } from '@nestjs/common';
import { ThrottlerException, ThrottlerGuard, ThrottlerRequest } from '@nestjs/throttler';
import type { Request, Response } from 'express';
import { UpstreamUnavailableException } from '../common/errors/api-errors';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { AuthenticatedRequest, IS_PUBLIC } from '../common/http/request-context';
import { WORK_UNITS, WorkUnitsOf } from '../common/http/work-units';
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
    const { principal, ip } = req as unknown as AuthenticatedRequest;
    const units = principal ? this.unitsOf(context, req) : 1;
    const taken = await this.take(key, units, ttl, limit, blockDuration, throttler.name ?? 'default');
    res.setHeader('X-RateLimit-Limit', limit);
    if (taken.refused) {
      const retryAfter = taken.retryAfter;
      res.setHeader('X-RateLimit-Remaining', taken.remaining);
      res.setHeader('Retry-After', retryAfter);
      if (taken.remaining > 0) res.setHeader('X-RateLimit-Reset', retryAfter);
      metrics.rateLimitRejections.inc({ tracker: tracker.startsWith('key:') ? 'key' : 'ip' });
      if (!principal) this.throttledClients.throttle(ip ?? '', retryAfter);
      throw new ThrottlerException(
        taken.remaining > 0
          ? `Rate limit exceeded: this request carries ${units} tool calls, each one request of the key's ${limit} per minute, and ${taken.remaining} are left. Please retry after ${retryAfter} seconds.`
          : `Rate limit exceeded. Please retry after ${retryAfter} seconds.`,
      );
    }
    res.setHeader('X-RateLimit-Remaining', taken.remaining);
    res.setHeader('X-RateLimit-Reset', taken.resetSeconds);
    if (principal) await this.countOrganization(principal.organizationId, units, ttl, blockDuration, res);
    return true;
  }

  /** The units of work of the request (WorkUnits on its route; 1 otherwise). */
  private unitsOf(context: ExecutionContext, req: Record<string, unknown>): number {
    const unitsOf = this.reflector.get<WorkUnitsOf | undefined>(WORK_UNITS, context.getHandler());
    const units = unitsOf ? unitsOf(req as unknown as Request, this.config) : 1;
    return Number.isSafeInteger(units) && units > 1 ? units : 1;
  }

  /**
   * Counts `units` requests in the counter `key`, or refuses them all: the first unit is counted like any
   * request (a refused request counts too); when the rest do not fit in what is left, nothing more is
   * counted and the request is refused whole. Each unit is one atomic increment of the storage, so
   * requests counted at the same moment elsewhere can still take the last ones: then the request is
   * refused as well.
   */
  private async take(
    key: string,
    units: number,
    ttl: number,
    limit: number,
    blockDuration: number,
    name: string,
  ): Promise<{ refused: boolean; remaining: number; retryAfter: number; resetSeconds: number }> {
    // With Redis the storage degrades to in-memory counting by itself (ResilientThrottlerStorage);
    // anything still failing here is unexpected: answer with the envelope, never hang.
    const increment = () =>
      this.storageService.increment(key, ttl, limit, blockDuration, name).catch((error: unknown) => {
        this.failureLogger.error(`Rate-limit counter unavailable: ${error instanceof Error ? error.message : String(error)}`);
        throw new UpstreamUnavailableException('Rate limiting');
      });
    let record = await increment();
    const blocked = (r: typeof record) => ({
      refused: true,
      remaining: 0,
      retryAfter: Math.max(1, Math.ceil(r.timeToBlockExpire)),
      resetSeconds: 0,
    });
    if (record.isBlocked) return blocked(record);
    const left = Math.max(0, limit - record.totalHits);
    if (units - 1 > left) {
      const untilReset = Math.max(1, Math.ceil(record.timeToExpire));
      return { refused: true, remaining: left, retryAfter: untilReset, resetSeconds: untilReset };
    }
    for (let unit = 1; unit < units; unit++) {
      record = await increment();
      if (record.isBlocked) return blocked(record);
    }
    return {
      refused: false,
      remaining: Math.max(0, limit - record.totalHits),
      retryAfter: 0,
      resetSeconds: Math.max(0, Math.ceil(record.timeToExpire)),
    };
  }

  /**
   * The organisation's budget beside the key's (ORGANIZATION_RATE_LIMIT_PER_MINUTE): every request (every
   * unit of work) of any of its keys counts once more in one counter of the organisation, so creating keys
   * does not multiply what an organisation may ask. Its own headers, so the key's stay as they are.
   */
  private async countOrganization(organizationId: string, units: number, ttl: number, blockDuration: number, res: Response): Promise<void> {
    const limit = this.config.organizationRateLimitPerMinute;
    const taken = await this.take(`rate:organization:${organizationId.toLowerCase()}`, units, ttl, limit, blockDuration, 'organization');
    res.setHeader('X-RateLimit-Organization-Limit', limit);
    res.setHeader('X-RateLimit-Organization-Remaining', taken.remaining);
    if (taken.refused) {
      res.setHeader('X-RateLimit-Remaining', 0);
      res.setHeader('Retry-After', taken.retryAfter);
      metrics.rateLimitRejections.inc({ tracker: 'organization' });
      throw new ThrottlerException(
        `Rate limit exceeded: the organization's keys together used its ${limit} requests per minute (ORGANIZATION_RATE_LIMIT_PER_MINUTE). Please retry after ${taken.retryAfter} seconds.`,
      );
    }
  }
}
