import { INVALID_REQUEST_PREFIX } from '../common/errors/api-errors';
import { AUDIT_EVENTS_PAGE_SIZES, encodeAuditCursor, instantOf, readAuditEventsQuery } from './audit-events-query';
import { auditEventsCsv } from './audit-events-csv';

const EVENT_ID = '0b6f2c4e-8d1a-4f3b-9e2d-7c5a1b3d9e4f';

function problemsOf(query: Record<string, unknown>, format: 'json' | 'csv' = 'json'): string {
  try {
    readAuditEventsQuery(query, format);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected a 400');
}

describe('GET /v1/admin/audit-events query', () => {
  it('reads dates as whole UTC days and times with their zone, `to` inclusive', () => {
    expect(instantOf('2026-11-25', 'from')).toBe(Date.parse('2026-11-25T00:00:00Z'));
    expect(instantOf('2026-11-25', 'to')).toBe(Date.parse('2026-11-26T00:00:00Z'));
    expect(instantOf('2026-11-25T09:30Z', 'from')).toBe(Date.parse('2026-11-25T09:30:00Z'));
    expect(instantOf('2026-11-25T10:30:15.5+01:00', 'from')).toBe(Date.parse('2026-11-25T09:30:15.500Z'));
    expect(instantOf('2026-11-25T09:30:15.123Z', 'to')).toBe(Date.parse('2026-11-25T09:30:15.124Z'));
    for (const bad of ['2026-02-30', '2026-11-25T09:30', '2026-11-25 09:30Z', '2026-11-25T24:00Z', '1999-12-31', 'yesterday', '']) {
      expect([bad, instantOf(bad, 'from')]).toEqual([bad, undefined]);
    }
  });

  it('takes the defined page sizes, filters and a cursor of its own', () => {
    expect(readAuditEventsQuery({}, 'json')).toEqual({ limit: AUDIT_EVENTS_PAGE_SIZES.json.default });
    expect(readAuditEventsQuery({}, 'csv')).toEqual({ limit: AUDIT_EVENTS_PAGE_SIZES.csv.default });
    const cursor = encodeAuditCursor({ atMs: 1_764_063_012_345, eventId: EVENT_ID });
    expect(
      readAuditEventsQuery(
        { from: '2026-11-01', to: '2026-11-30', actor: 'Xy12Ab34Cd56', action: 'api-key.revoked', limit: '5', cursor },
        'json',
      ),
    ).toEqual({
      fromMs: Date.parse('2026-11-01T00:00:00Z'),
      beforeMs: Date.parse('2026-12-01T00:00:00Z'),
      actor: 'Xy12Ab34Cd56',
      action: 'api-key.revoked',
      limit: 5,
      after: { atMs: 1_764_063_012_345, eventId: EVENT_ID },
    });
  });

  it('refuses every bad parameter at once, each named, with the 400 prefix', () => {
    const message = problemsOf({ from: 'soon', action: 'api-key.deleted', limit: '0', cursor: 'abc', colour: 'red' });
    expect(message.startsWith(INVALID_REQUEST_PREFIX)).toBe(true);
    expect(message).toContain('colour: unknown query parameter');
    expect(message).toContain('from: expected a date (YYYY-MM-DD, UTC) or a date and time with its zone');
    expect(message).toContain('action: expected one of api-key.created, api-key.revoked');
    expect(message).toContain(`limit: expected an integer from 1 to ${AUDIT_EVENTS_PAGE_SIZES.json.max}, received "0"`);
    expect(message).toContain('cursor: is not a cursor of this list');
    expect(problemsOf({ from: '2026-11-02', to: '2026-11-01' })).toContain('from: must be before to');
    expect(problemsOf({ action: ['api-key.created', 'api-key.revoked'] })).toContain('action: give it once, as text');
    expect(problemsOf({ actor: 'a\nb' })).toContain('actor: expected an API key id');
    expect(problemsOf({ limit: String(AUDIT_EVENTS_PAGE_SIZES.json.max + 1) })).toContain('limit');
    expect(readAuditEventsQuery({ limit: String(AUDIT_EVENTS_PAGE_SIZES.csv.max) }, 'csv').limit).toBe(AUDIT_EVENTS_PAGE_SIZES.csv.max);
    // A cursor that decodes but holds no event id is not one of this list's.
    expect(problemsOf({ cursor: Buffer.from('{"t":1,"e":"x"}').toString('base64url') })).toContain('cursor:');
  });

  it('writes CSV with a header, details as JSON text, formula-safe cells', () => {
    const csv = auditEventsCsv([
      {
        eventId: EVENT_ID,
        at: '2026-11-25T09:30:12.345Z',
        organizationId: '',
        actorKind: 'api-key',
        actorId: 'Xy12Ab34Cd56',
        actorEmail: '',
        action: 'api-key.created',
        target: 'Pq78Rs90Tu12',
        details: { name: '=HYPERLINK("http://evil")' },
        clientIp: '10.0.0.1',
        requestId: 'r-1',
      },
    ]);
    expect(Buffer.concat(csv.chunks).toString()).toBe(
      '"at","action","actor_kind","actor_id","actor_email","target","details","client_ip","request_id","event_id"\r\n' +
        `"2026-11-25T09:30:12.345Z","api-key.created","api-key","Xy12Ab34Cd56","","Pq78Rs90Tu12","{""name"":""=HYPERLINK(\\""http://evil\\"")""}","10.0.0.1","r-1","${EVENT_ID}"\r\n`,
    );
    const [formula] = auditEventsCsv([
      {
        eventId: EVENT_ID,
        at: '2026-11-25T09:30:12.345Z',
        organizationId: '',
        actorKind: 'sso',
        actorId: '=1+1',
        actorEmail: '@evil',
        action: 'sign-in.failed',
        target: '-2',
        details: {},
        clientIp: '',
        requestId: '',
      },
    ]).chunks;
    expect(formula.toString()).toContain(`"'=1+1","'@evil","'-2"`);
  });
});
