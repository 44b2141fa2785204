import type { ListedBackup } from './backup-location';
import type { BackupManifest } from './backup-manifest';
import { dueBackup, expiredBackups, FULL_EVERY } from './backup-schedule';

const DB = 'cost_insights';

function backup(name: string, startedAt: string, base: string | null = null, database = DB): ListedBackup {
  const manifest = { name, startedAt, base, database } as BackupManifest;
  return { name, complete: true, manifest, modifiedAt: startedAt };
}

const incomplete = (name: string, modifiedAt: string): ListedBackup => ({ name, complete: false, modifiedAt, problem: 'incomplete' });

describe('dueBackup', () => {
  const at = (iso: string) => Date.parse(iso);

  it('takes a full backup when there is none, and none while the newest is younger than the interval', () => {
    expect(dueBackup([], DB, at('2026-11-26T10:00:00Z'), 60)).toEqual({ incremental: false });
    const done = [backup('a', '2026-11-26T09:30:00.000Z')];
    expect(dueBackup(done, DB, at('2026-11-26T10:00:00Z'), 60)).toBeUndefined();
    expect(dueBackup(done, DB, at('2026-11-26T10:30:00Z'), 60)).toEqual({ incremental: true });
  });

  it('ignores incomplete backups and other databases', () => {
    const others = [incomplete('x', '2026-11-26T09:59:00.000Z'), backup('o', '2026-11-26T09:59:00.000Z', null, 'other')];
    expect(dueBackup(others, DB, at('2026-11-26T10:00:00Z'), 60)).toEqual({ incremental: false });
  });

  it(`makes every ${FULL_EVERY}th backup of a chain a full one`, () => {
    const chain = [backup('b0', '2026-11-20T00:00:00.000Z')];
    for (let i = 1; i < FULL_EVERY; i++) chain.unshift(backup(`b${i}`, `2026-11-2${i}T00:00:00.000Z`, `b${i - 1}`));
    expect(dueBackup(chain.slice(1), DB, at('2026-11-27T00:00:00Z'), 60)).toEqual({ incremental: true });
    expect(dueBackup(chain, DB, at('2026-11-27T00:00:00Z'), 60)).toEqual({ incremental: false });
  });
});

describe('expiredBackups', () => {
  it('keeps the newest complete backups and every base they need; deletes the rest and older incomplete ones', () => {
    const listed = [
      backup('f2', '2026-11-05T00:00:00.000Z'),
      backup('i2', '2026-11-04T00:00:00.000Z', 'i1'),
      incomplete('broken-new', '2026-11-05T01:00:00.000Z'),
      backup('i1', '2026-11-03T00:00:00.000Z', 'f1'),
      incomplete('broken-old', '2026-11-02T12:00:00.000Z'),
      backup('f1', '2026-11-02T00:00:00.000Z'),
      backup('f0', '2026-11-01T00:00:00.000Z'),
      backup('elsewhere', '2026-10-01T00:00:00.000Z', null, 'other'),
    ];
    expect(expiredBackups(listed, DB, 2).sort()).toEqual(['broken-old', 'f0']);
    expect(expiredBackups(listed, DB, 1).sort()).toEqual(['broken-old', 'f0', 'f1', 'i1', 'i2']);
  });
});
