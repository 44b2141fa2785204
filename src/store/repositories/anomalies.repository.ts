import { Injectable } from '@nestjs/common';
import { clickhouseTimestamp } from '../../common/dates/clickhouse-time';
import { ClickhouseService } from '../clickhouse/clickhouse.service';

/** The reasons feedback on an anomaly may give (the feedback table's `reason`). */
export const FEEDBACK_REASONS = ['expected', 'seasonal', 'migration', 'resolved', 'not-applicable', 'other'] as const;
export type FeedbackReason = (typeof FEEDBACK_REASONS)[number];

/** An anomaly as kept for feedback: its series and days. */
export interface KeptAnomaly {
  id: string;
  dimension: string;
  dimensionValue: string;
  start: string;
  end: string;
}

export interface AnomalyFeedback extends KeptAnomaly {
  reason: FeedbackReason;
  recordedAt: string;
}

/** The SQL of anomalies (migration 0022): the ones reported, kept 90 days, and the feedback given on them. */
@Injectable()
export class AnomaliesRepository {
  constructor(private readonly clickhouse: ClickhouseService) {}

  /** Keeps the anomalies a scan reported (a later scan's row of the same id replaces it). */
  async keep(organizationId: string, anomalies: KeptAnomaly[]): Promise<void> {
    const detectedAt = clickhouseTimestamp(new Date());
    await this.clickhouse.insert(
      'anomalies',
      anomalies.map((anomaly) => ({
        organization_id: organizationId,
        anomaly_id: anomaly.id,
        dimension: anomaly.dimension,
        dimension_value: anomaly.dimensionValue,
        start_date: anomaly.start,
        end_date: anomaly.end,
        detected_at: detectedAt,
      })),
    );
  }

  /** One of the organisation's kept anomalies, or undefined (unknown, expired, or another organisation's). */
  async find(organizationId: string, id: string): Promise<KeptAnomaly | undefined> {
    const [row] = await this.clickhouse.query<{ dimension: string; dimension_value: string; start: string; end: string }>(
      `SELECT dimension, dimension_value, toString(start_date) AS start, toString(end_date) AS end
       FROM ${this.clickhouse.table('anomalies')} FINAL
       WHERE organization_id = {organization_id:UUID} AND anomaly_id = {id:String}
       LIMIT 1`,
      { organization_id: organizationId, id },
      { organizationId },
    );
    return row && { id, dimension: row.dimension, dimensionValue: row.dimension_value, start: row.start, end: row.end };
  }

  async recordFeedback(organizationId: string, keyId: string, feedback: Omit<AnomalyFeedback, 'recordedAt'>): Promise<string> {
    const now = new Date();
    await this.clickhouse.insert('anomaly_feedback', [
      {
        organization_id: organizationId,
        anomaly_id: feedback.id,
        dimension: feedback.dimension,
        dimension_value: feedback.dimensionValue,
        start_date: feedback.start,
        end_date: feedback.end,
        reason: feedback.reason,
        key_id: keyId,
        recorded_at: clickhouseTimestamp(now),
      },
    ]);
    return now.toISOString();
  }

  /** The organisation's latest feedback per anomaly of one monitored dimension. */
  async feedback(organizationId: string, dimension: string): Promise<AnomalyFeedback[]> {
    const rows = await this.clickhouse.query<{
      anomaly_id: string;
      dimension_value: string;
      start: string;
      end: string;
      reason: FeedbackReason;
      recorded_at: string;
    }>(
      `SELECT anomaly_id, dimension_value, toString(start_date) AS start, toString(end_date) AS end, reason, toString(recorded_at) AS recorded_at
       FROM ${this.clickhouse.table('anomaly_feedback')} FINAL
       WHERE organization_id = {organization_id:UUID} AND dimension = {dimension:String}`,
      { organization_id: organizationId, dimension },
      { organizationId },
    );
    return rows.map((row) => ({
      id: row.anomaly_id,
      dimension,
      dimensionValue: row.dimension_value,
      start: row.start,
      end: row.end,
      reason: row.reason,
      recordedAt: row.recorded_at,
    }));
  }
}
