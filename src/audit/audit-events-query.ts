import { addDays, isCalendarDate, isSupportedDate } from '../common/dates/calendar-date';
import { InvalidRequestException } from '../common/errors/api-errors';
import { UUID_PATTERN } from '../common/validation/patterns';
import { SUPPORTED_DATES_TEXT } from '../common/validation/validators';
import type { AnswerFormat } from '../answers/answer-format';
import { AUDIT_ACTIONS, isAuditAction } from '../store/repositories/audit-event';
import type { AuditEventQuery, AuditPosition } from '../store/repositories/audit-events.repository';

/**
 * Events per page of GET /v1/admin/audit-events: the default and the largest `limit`. A JSON page is for reading; a
 * CSV page is an export (a spreadsheet's worth; `X-Next-Cursor` continues it).
 */
export const AUDIT_EVENTS_PAGE_SIZES: Readonly<Record<AnswerFormat, { default: number; max: number }>> = {
  json: { default: 100, max: 1000 },
  csv: { default: 10_000, max: 10_000 },
};

/** The query parameters of the route, each named once (Swagger, the parser, the unknown-parameter check). */
export const AUDIT_EVENTS_PARAMETERS = ['from', 'to', 'actor', 'action', 'limit', 'cursor'] as const;

/** What a request asks for: the repository's query but the organisation (which comes from the key, never the request). */
export type AuditEventsRequest = Omit<AuditEventQuery, 'organizationId'>;

/** An actor as stored: a key id, an identity provider's subject or an email; printable, at most 256 characters. */
// eslint-disable-next-line no-control-regex -- control characters are what this refuses
const ACTOR = /^[^\u0000-\u001f\u007f]{1,256}$/;

/** `2026-11-25T09:30`, seconds and milliseconds optional, then `Z` or an offset: an instant, never a local time. */
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})T([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d)(?:\.(\d{1,3}))?)?(Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/;

export const INSTANT_TEXT = `a date (YYYY-MM-DD, UTC) or a date and time with its zone (2026-11-25T09:30:00Z, 2026-11-25T10:30+01:00), ${SUPPORTED_DATES_TEXT}`;

/**
 * The page a GET /v1/admin/audit-events query asks for. `from` is inclusive (a date: from its first instant, UTC);
 * `to` is inclusive too (a date: to its last instant; a time: to that millisecond), held as the exclusive `beforeMs`.
 * Anything else — a bad value, `from` after `to`, a cursor this list did not issue, a repeated or unknown parameter —
 * is a 400 naming each parameter.
 */
export function readAuditEventsQuery(query: Record<string, unknown>, format: AnswerFormat): AuditEventsRequest {
  const problems: string[] = [];
  const text = (name: string): string | undefined => {
    const value = query[name];
    if (value === undefined) return undefined;
    if (typeof value === 'string') return value;
    problems.push(`${name}: give it once, as text`);
    return undefined;
  };
  for (const name of Object.keys(query)) {
    if (!(AUDIT_EVENTS_PARAMETERS as readonly string[]).includes(name)) problems.push(`${name}: unknown query parameter`);
  }
  const request: AuditEventsRequest = { limit: AUDIT_EVENTS_PAGE_SIZES[format].default };

  const from = text('from');
  if (from !== undefined) {
    request.fromMs = instantOf(from, 'from');
    if (request.fromMs === undefined) problems.push(`from: expected ${INSTANT_TEXT}, received ${quoted(from)}`);
  }
  const to = text('to');
  if (to !== undefined) {
    request.beforeMs = instantOf(to, 'to');
    if (request.beforeMs === undefined) problems.push(`to: expected ${INSTANT_TEXT}, received ${quoted(to)}`);
  }
  if (request.fromMs !== undefined && request.beforeMs !== undefined && request.fromMs >= request.beforeMs) {
    problems.push('from: must be before to');
  }

  const actor = text('actor');
  if (actor !== undefined) {
    if (ACTOR.test(actor)) request.actor = actor;
    else problems.push('actor: expected an API key id, a subject or an email, 1 to 256 printable characters');
  }
  const action = text('action');
  if (action !== undefined) {
    if (isAuditAction(action)) request.action = action;
    else problems.push(`action: expected one of ${AUDIT_ACTIONS.join(', ')}, received ${quoted(action)}`);
  }
  const limit = text('limit');
  if (limit !== undefined) {
    const { max } = AUDIT_EVENTS_PAGE_SIZES[format];
    const value = /^\d{1,9}$/.test(limit) ? Number(limit) : NaN;
    if (value >= 1 && value <= max) request.limit = value;
    else problems.push(`limit: expected an integer from 1 to ${max}${format === 'csv' ? ' (CSV)' : ''}, received ${quoted(limit)}`);
  }
  const cursor = text('cursor');
  if (cursor !== undefined) {
    request.after = decodeAuditCursor(cursor);
    if (!request.after) problems.push('cursor: is not a cursor of this list; pass the nextCursor of the previous page as it is');
  }
  if (problems.length) throw new InvalidRequestException(problems);
  return request;
}

/** `from`: the instant itself (a date: its first instant, UTC). `to`: the first instant after it (a date: the next day's first). */
export function instantOf(text: string, end: 'from' | 'to'): number | undefined {
  if (isCalendarDate(text)) {
    if (!isSupportedDate(text)) return undefined;
    return Date.parse(`${end === 'from' ? text : addDays(text, 1)}T00:00:00Z`);
  }
  const match = DATE_TIME.exec(text);
  if (!match || !isCalendarDate(match[1]) || !isSupportedDate(match[1])) return undefined;
  const [, date, hours, minutes, seconds = '00', fraction = '', zone] = match;
  const instant = Date.parse(`${date}T${hours}:${minutes}:${seconds}.${fraction.padEnd(3, '0')}${zone}`);
  if (Number.isNaN(instant)) return undefined;
  return end === 'from' ? instant : instant + 1;
}

/** The opaque nextCursor of a page that ends with this event: base64url of a small JSON. */
export function encodeAuditCursor(position: AuditPosition): string {
  return Buffer.from(JSON.stringify({ t: position.atMs, e: position.eventId }), 'utf8').toString('base64url');
}

function decodeAuditCursor(cursor: string): AuditPosition | undefined {
  if (cursor.length > 200 || !/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
  const bytes = Buffer.from(cursor, 'base64url');
  if (bytes.toString('base64url') !== cursor) return undefined;
  try {
    const json = JSON.parse(bytes.toString('utf8')) as { t?: unknown; e?: unknown };
    if (!Number.isSafeInteger(json.t) || (json.t as number) < 0 || typeof json.e !== 'string' || !UUID_PATTERN.test(json.e))
      return undefined;
    return { atMs: json.t as number, eventId: json.e };
  } catch {
    return undefined;
  }
}

function quoted(value: string): string {
  return JSON.stringify(value.slice(0, 40));
}
