import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { redactSecrets } from '../../observability/log-redaction';
import { metrics } from '../../observability/prometheus-metrics';
import { ClickhouseService } from '../../store/clickhouse/clickhouse.service';
import { actorColumns, AuditAction, AuditDetails, AuditEvent, AuditOrigin } from '../../store/repositories/audit-event';
import { AuditEventQuery, AuditEventsRepository } from '../../store/repositories/audit-events.repository';
import { applyAuditRetention } from '../../store/schema/audit-retention';

/**
 * The audit trail: every administrative change of an organisation, recorded after it succeeded (a refused change
 * is no change), append-only, kept AUDIT_RETENTION_DAYS. Any feature records through it (it sits below them all);
 * GET /v1/admin/audit-events reads it.
 */
@Injectable()
export class AuditTrail implements OnApplicationBootstrap {
  private readonly logger = new Logger('AuditTrail');

  constructor(
    private readonly repository: AuditEventsRepository,
    private readonly clickhouse: ClickhouseService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Records one change. Every text is passed through the log redaction too (key material, bearer credentials), a
   * last line of defence behind callers that pass only names, ids and settings. The change has happened when this
   * runs, so a failed write does not turn it into an error: the event is logged whole at error level and counted
   * (cost_insights_audit_events_unrecorded_total) for the operator to alert on.
   */
  async record(origin: AuditOrigin, action: AuditAction, target: string, details: AuditDetails = {}): Promise<void> {
    await this.recordAll(origin, [{ action, target, details }]);
  }

  /** Records several changes of one origin in one write (the worker's alerts of a round), each as record() would. */
  async recordAll(
    origin: AuditOrigin,
    changes: ReadonlyArray<{ action: AuditAction; target: string; details?: AuditDetails }>,
  ): Promise<void> {
    const at = new Date().toISOString();
    const events = changes.map(({ action, target, details = {} }): AuditEvent =>
      withoutSecrets({
        eventId: randomUUID(),
        at,
        organizationId: origin.organizationId,
        ...actorColumns(origin.actor),
        action,
        target,
        details,
        clientIp: origin.clientIp,
        requestId: origin.requestId,
      }),
    );
    try {
      await this.repository.insertAll(events);
    } catch (error) {
      metrics.auditEventsUnrecorded.inc(events.length);
      const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
      for (const event of events) this.logger.error(`Audit event not recorded (${reason}): ${JSON.stringify(event)}`);
    }
  }

  /** One page of an organisation's events, newest first. */
  page(query: AuditEventQuery): Promise<AuditEvent[]> {
    return this.repository.page(query);
  }

  /** Applies AUDIT_RETENTION_DAYS to the table's TTL (after start-up migrations; audit-retention.ts). A failure is logged, not fatal. */
  async onApplicationBootstrap(): Promise<void> {
    try {
      const outcome = await applyAuditRetention(this.clickhouse, this.config.auditRetentionDays);
      if (outcome.table === 'missing') this.logger.warn('Audit retention not applied: audit_events does not exist yet (run migrate)');
      if (outcome.table === 'changed')
        this.logger.log(`Audit events are now kept ${this.config.auditRetentionDays} days (AUDIT_RETENTION_DAYS)`);
    } catch (error) {
      this.logger.error(`Audit retention not applied: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
    }
  }
}

/** `value` with key material and bearer credentials redacted from every string in it, however deep. */
export function withoutSecrets<T>(value: T): T {
  if (typeof value === 'string') return redactSecrets(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => withoutSecrets(item)) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, withoutSecrets(field)])) as T;
  }
  return value;
}
