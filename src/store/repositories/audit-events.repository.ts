import { Injectable } from '@nestjs/common';
import { clickhouseTimestamp, isoFromClickhouse } from '../../common/dates/clickhouse-time';
import { ClickhouseService } from '../clickhouse/clickhouse.service';
import type { AuditAction, AuditActorKind, AuditEvent } from './audit-event';

/** Where a page of events starts: after this event, in the trail's order (newest first: time, then id). */
export interface AuditPosition {
  atMs: number;
  eventId: string;
}

/** Which events of an organisation to read, newest first. */
export interface AuditEventQuery {
  organizationId: string;
  /** At or after this instant (ms). */
  fromMs?: number;
  /** Strictly before this instant (ms). */
  beforeMs?: number;
  /** The actor's id (key id or SSO subject) or email. */
  actor?: string;
  action?: AuditAction;
  after?: AuditPosition;
  limit: number;
}

interface StoredEvent {
  event_id: string;
  at: string;
  organization_id: string;
  actor_kind: AuditActorKind;
  actor_id: string;
  actor_email: string;
  action: AuditAction;
  target: string;
  details: string;
  client_ip: string;
  request_id: string;
}

/** The SQL of the audit trail (table audit_events, migration 0024): events inserted together (one row each), pages read by sort key. */
@Injectable()
export class AuditEventsRepository {
  constructor(private readonly clickhouse: ClickhouseService) {}

  /** Several events in one insert (all of them or none). */
  async insertAll(events: readonly AuditEvent[]): Promise<void> {
    if (events.length === 0) return;
    await this.clickhouse.insert('audit_events', events.map(storedEvent) as unknown as Record<string, unknown>[]);
  }

  /**
   * One page: events matching the query, newest first (then by id, descending), after `after`. A page is a range of
   * the table's sort key, so events written while a client pages (always newer than its first page) never shift it.
   */
  async page(query: AuditEventQuery): Promise<AuditEvent[]> {
    const conditions = ['organization_id = {organization_id:UUID}'];
    if (query.fromMs !== undefined) conditions.push("at >= fromUnixTimestamp64Milli({from_ms:Int64}, 'UTC')");
    if (query.beforeMs !== undefined) conditions.push("at < fromUnixTimestamp64Milli({before_ms:Int64}, 'UTC')");
    if (query.actor !== undefined) conditions.push('(actor_id = {actor:String} OR lower(actor_email) = lower({actor:String}))');
    if (query.action !== undefined) conditions.push('action = {action:String}');
    if (query.after !== undefined) {
      conditions.push("(at, event_id) < (fromUnixTimestamp64Milli({after_ms:Int64}, 'UTC'), {after_id:UUID})");
    }
    const rows = await this.clickhouse.query<StoredEvent>(
      `SELECT event_id, at, organization_id, actor_kind, actor_id, actor_email, action, target, details, client_ip, request_id
       FROM ${this.clickhouse.table('audit_events')}
       WHERE ${conditions.join(' AND ')}
       ORDER BY at DESC, event_id DESC
       LIMIT {limit:UInt32}`,
      definedOnly({
        organization_id: query.organizationId,
        from_ms: query.fromMs,
        before_ms: query.beforeMs,
        actor: query.actor,
        action: query.action,
        after_ms: query.after?.atMs,
        after_id: query.after?.eventId,
        limit: query.limit,
      }),
      { organizationId: query.organizationId },
    );
    return rows.map(toEvent);
  }
}

/** The parameters a statement uses: those of the conditions it has. */
function definedOnly(params: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(params).filter(([, value]) => value !== undefined));
}

function toEvent(row: StoredEvent): AuditEvent {
  return {
    eventId: row.event_id,
    at: isoFromClickhouse(row.at),
    organizationId: row.organization_id,
    actorKind: row.actor_kind,
    actorId: row.actor_id,
    actorEmail: row.actor_email,
    action: row.action,
    target: row.target,
    details: parseDetails(row.details),
    clientIp: row.client_ip,
    requestId: row.request_id,
  };
}

/** Details are written as a JSON object; anything else (never expected) reads as an empty one rather than failing a page. */
function parseDetails(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** An event as audit_events stores it. */
function storedEvent(event: AuditEvent): StoredEvent {
  return {
    event_id: event.eventId,
    at: clickhouseTimestamp(Date.parse(event.at)),
    organization_id: event.organizationId,
    actor_kind: event.actorKind,
    actor_id: event.actorId,
    actor_email: event.actorEmail,
    action: event.action,
    target: event.target,
    details: JSON.stringify(event.details),
    client_ip: event.clientIp,
    request_id: event.requestId,
  };
}
