import { CsvText, csvRecord } from '../answers/csv-text';
import type { AuditEvent } from '../store/repositories/audit-event';

/** The columns of GET /v1/admin/audit-events as CSV: one record per event, newest first. */
export const AUDIT_EVENTS_CSV_COLUMNS = [
  'at',
  'action',
  'actor_kind',
  'actor_id',
  'actor_email',
  'target',
  'details',
  'client_ip',
  'request_id',
  'event_id',
] as const;

/** One event's record: the JSON answer's values, `details` as its JSON text (every text cell formula-safe: csvRecord). */
export function auditEventRecord(event: AuditEvent): string {
  return csvRecord([
    event.at,
    event.action,
    event.actorKind,
    event.actorId,
    event.actorEmail,
    event.target,
    JSON.stringify(event.details),
    event.clientIp,
    event.requestId,
    event.eventId,
  ]);
}

export function auditEventsCsv(events: readonly AuditEvent[]): CsvText {
  return new CsvText(csvRecord(AUDIT_EVENTS_CSV_COLUMNS) + events.map(auditEventRecord).join(''));
}
