import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { HealthCheckResult, HealthCheckService, HealthIndicatorResult, HealthIndicatorService } from '@nestjs/terminus';
import type { Response } from 'express';
import type Redis from 'ioredis';
import { Public } from '../common/http/request-context';
import { ClickhouseService } from '../store/clickhouse/clickhouse.service';
import { REDIS } from '../infrastructure/redis/redis.module';
import { metrics } from '../observability/prometheus-metrics';
import { shutdownState } from './shutdown-state';

/** Per-dependency probe budget: a probe must answer well within the orchestrator's probe timeout. */
export const HEALTH_PROBE_TIMEOUT_MS = 1000;

/**
 * Liveness and readiness, outside /v1, without a key and without rate limiting (see docs/operations.md).
 * Ready = not draining and ClickHouse answers; an unreachable Redis is reported (`reachable: false`) but stays ready,
 * because the instance still serves every data endpoint (rate limits fall back to per-instance counting).
 */
@ApiExcludeController()
@Public()
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    private readonly clickhouse: ClickhouseService,
    @Inject(REDIS) private readonly redis: Redis | null,
  ) {}

  /** The process runs and its event loop answers; checks no dependency (a restart would not fix those). */
  @Get('live')
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('ready')
  async ready(@Res() response: Response): Promise<void> {
    let result: HealthCheckResult;
    try {
      result = await this.health.check([() => this.checkDraining(), () => this.checkClickhouse(), () => this.checkRedis()]);
    } catch (error) {
      const details = (error as { response?: HealthCheckResult }).response?.details ?? {};
      const down = Object.entries(details)
        .filter(([, value]) => value.status === 'down')
        .map(([name]) => name);
      response
        .status(503)
        .setHeader('Cache-Control', 'no-store')
        .json({ success: false, error: { message: `Not ready: ${down.join(', ') || 'unknown'}.` }, status: 'error', details });
      return;
    }
    response.status(200).setHeader('Cache-Control', 'no-store').json(result);
  }

  private checkDraining(): HealthIndicatorResult {
    const session = this.indicators.check('lifecycle');
    return shutdownState.draining ? session.down({ message: 'shutting down' }) : session.up();
  }

  private async checkClickhouse(): Promise<HealthIndicatorResult> {
    const session = this.indicators.check('clickhouse');
    try {
      if (!(await withTimeout(this.clickhouse.ping(), HEALTH_PROBE_TIMEOUT_MS))) return session.down({ message: 'ping failed' });
      return session.up();
    } catch (error) {
      return session.down({ message: error instanceof Error ? error.message : 'ping failed' });
    }
  }

  private async checkRedis(): Promise<HealthIndicatorResult> {
    const session = this.indicators.check('redis');
    if (!this.redis) return session.up({ message: 'not configured (single-instance mode)' });
    try {
      await withTimeout(this.redis.ping(), HEALTH_PROBE_TIMEOUT_MS);
      return session.up();
    } catch {
      metrics.redisErrors.inc({ operation: 'health' });
      // Still ready (see class comment): reported, not failed.
      return session.up({ reachable: false, message: 'unreachable: shared filters fail fast, rate limits count per instance' });
    }
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms))),
  ]).finally(() => clearTimeout(timer));
}
