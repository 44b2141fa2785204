import { SETTING_DEFAULTS } from '../../config/settings';
import { actorColumns, AUDIT_ACTION_MEANINGS, AUDIT_ACTIONS } from '../../store/repositories/audit-event';
import { withoutSecrets } from './audit-trail.service';

describe('audit trail', () => {
  it('redacts key material and bearer credentials from every string of an event, however deep', () => {
    const key = 'cik_AbCdEf123456_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHQwErTy';
    const event = withoutSecrets({
      target: key,
      details: { name: `pasted ${key} here`, list: [`Bearer ${key}`, 3], nested: { header: `Authorization: Bearer abc.def` } },
      count: 2,
      none: null,
    });
    expect(JSON.stringify(event)).not.toContain(key.slice(4));
    expect(JSON.stringify(event)).not.toContain('abc.def');
    expect(event).toEqual({
      target: 'cik_[redacted]',
      details: {
        name: 'pasted cik_[redacted] here',
        list: ['Bearer [redacted]', 3],
        nested: { header: 'Authorization: Bearer [redacted]' },
      },
      count: 2,
      none: null,
    });
  });

  it('stores a key by its id with no email, a person by subject and email', () => {
    expect(actorColumns({ kind: 'api-key', keyId: 'Xy12Ab34Cd56' })).toEqual({
      actorKind: 'api-key',
      actorId: 'Xy12Ab34Cd56',
      actorEmail: '',
    });
    expect(actorColumns({ kind: 'sso', subject: '00u1abc', email: 'ana@example.com' })).toEqual({
      actorKind: 'sso',
      actorId: '00u1abc',
      actorEmail: 'ana@example.com',
    });
  });

  it('describes every action, and keeps events 400 days unless configured', () => {
    expect(Object.keys(AUDIT_ACTION_MEANINGS)).toEqual([...AUDIT_ACTIONS]);
    expect(SETTING_DEFAULTS.AUDIT_RETENTION_DAYS).toBe(400);
  });
});
