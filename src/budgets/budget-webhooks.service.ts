import { Inject, Injectable, Logger } from '@nestjs/common';
import { openSecret } from '../common/crypto/secret-box';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { AuditTrail } from '../infrastructure/audit-trail/audit-trail.service';
import { workerOrigin } from './budget-alerts.service';
import { BudgetsRepository, StoredAlert, StoredAttempt } from '../store/repositories/budgets.repository';
import { deliverWebhook, DeliveryOutcome } from './webhook-delivery';
import { BudgetThresholdEvent, webhookBody } from './webhook-payloads';
import { nextAttemptAt } from './webhook-retry';
import { signatureHeader } from './webhook-signature';
import { webhookSettings, WebhookSettings } from './webhook-settings';

/** Alerts whose deliveries are still tried: a day of retries, and a margin for the last one. */
const DELIVERY_WINDOW_MS = 25 * 3600 * 1000;
/** Deliveries in flight at once: a receiver that hangs holds one of these for 10 s, never the evaluation. */
const CONCURRENT_DELIVERIES = 8;

/** One destination of one alert, with the attempts made so far. */
interface Delivery {
  organizationId: string;
  alert: StoredAlert;
  destination: number;
  attempts: StoredAttempt[];
}

/**
 * Webhook deliveries of budget alerts: every destination of every alert, signed (X-Cost-Insights-Signature) and
 * retried with growing delays for a day (webhook-retry.ts); each attempt recorded with its status code only.
 */
@Injectable()
export class BudgetWebhooksService {
  private readonly logger = new Logger('BudgetWebhooks');
  private readonly webhooks: WebhookSettings;

  constructor(
    private readonly repository: BudgetsRepository,
    private readonly auditTrail: AuditTrail,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.webhooks = webhookSettings(config);
  }

  /**
   * Makes every attempt that is due at `now` (the worker's clock; tests move it), timed at it — of every organisation, or
   * of one (a test's own, on a store other suites share); resolves when they have ended.
   */
  async deliverDue(now = new Date(), organizationId?: string): Promise<number> {
    const since = new Date(now.getTime() - DELIVERY_WINDOW_MS).toISOString();
    const { alerts, attempts } = await this.repository.deliveries(since, organizationId);
    const due = alerts
      .flatMap((alert) =>
        alert.notify.map((_, destination) => ({
          organizationId: alert.organizationId,
          alert,
          destination,
          attempts: attempts.filter((attempt) => attempt.eventId === alert.eventId && attempt.destination === destination),
        })),
      )
      .filter((delivery) => isDue(delivery, now));
    for (let i = 0; i < due.length; i += CONCURRENT_DELIVERIES)
      await Promise.all(due.slice(i, i + CONCURRENT_DELIVERIES).map((delivery) => this.attempt(delivery, now)));
    return due.length;
  }

  private async attempt(delivery: Delivery, started: Date): Promise<void> {
    const { organizationId, alert, destination } = delivery;
    const target = alert.notify[destination];
    const [budget] = await this.repository.budgets(organizationId, alert.budgetId);
    const outcome: DeliveryOutcome = budget
      ? await this.send(alert, target, openSecret(budget.sealedSecret, this.webhooks.encryptionKey), started)
      : { delivered: false, error: 'the budget was removed' };
    const number = delivery.attempts.length + 1;
    const first = delivery.attempts[0] ? new Date(delivery.attempts[0].at) : started;
    const next =
      outcome.delivered || !budget ? undefined : nextAttemptAt(first, started, number, this.config.budgets.webhookRetryBaseSeconds);
    const result: StoredAttempt = {
      eventId: alert.eventId,
      budgetId: alert.budgetId,
      destination,
      attempt: number,
      at: started.toISOString(),
      statusCode: outcome.status ?? 0,
      error: outcome.error ?? '',
      outcome: outcome.delivered ? 'delivered' : next ? 'retry' : 'dead',
      nextAttemptAt: (next ?? started).toISOString(),
    };
    await this.repository.recordAttempt(organizationId, result);
    await this.audit(organizationId, result, target.url);
  }

  private send(alert: StoredAlert, target: StoredAlert['notify'][number], secret: string, at: Date): Promise<DeliveryOutcome> {
    const body = webhookBody(JSON.parse(alert.payload) as BudgetThresholdEvent, target.format);
    const headers = {
      'X-Cost-Insights-Signature': signatureHeader(secret, body, Math.floor(at.getTime() / 1000)),
      'X-Cost-Insights-Event-Id': alert.eventId,
    };
    return deliverWebhook(target.url, body, headers, { allowedHosts: this.webhooks.allowedHosts });
  }

  private async audit(organizationId: string, attempt: StoredAttempt, url: string): Promise<void> {
    if (attempt.outcome === 'retry') return;
    const host = new URL(url).host;
    const details = { eventId: attempt.eventId, destination: host, attempts: attempt.attempt, status: attempt.statusCode };
    if (attempt.outcome === 'dead')
      this.logger.warn(`Webhook to ${host} given up after ${attempt.attempt} attempts (event ${attempt.eventId})`);
    const action = attempt.outcome === 'delivered' ? 'budget.webhook-delivered' : 'budget.webhook-dead-lettered';
    await this.auditTrail.record(workerOrigin(organizationId), action, attempt.budgetId, details);
  }
}

/** Never tried, or last tried and failed with its next attempt due; never once delivered or dead. */
function isDue(delivery: Delivery, now: Date): boolean {
  const last = delivery.attempts.at(-1);
  if (!last) return true;
  return last.outcome === 'retry' && new Date(last.nextAttemptAt).getTime() <= now.getTime();
}
