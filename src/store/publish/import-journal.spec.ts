import { injectedFaultCount } from './fault-injection';
import { journalSteps, leaseAction, rollbackSteps, SWAP_LEASE_SECONDS } from './import-journal';
import {
  backupTableName,
  distributedStagingTableName,
  inputTableName,
  isImportTableName,
  newImportId,
  parseImportTableName,
  reportTableName,
  toReportViewName,
  toStagingViewName,
} from './import-tables';
import { formatRecoveryReport, recoveryReportJson } from '../../cli/ingest-recover.command';

const IMPORT_ID = 'focus_import_m1abcdef_0123abcd';
const entry = {
  importId: IMPORT_ID,
  steps: [
    { host: '', partitionId: 'aa11', backedUp: false },
    { host: '', partitionId: 'bb22', backedUp: true },
    { host: '', partitionId: 'cc33', backedUp: true },
  ],
  backupTable: `${IMPORT_ID}_backup`,
  stagingTable: IMPORT_ID,
};

describe('import tables', () => {
  it('names an import and its tables so that each maps back to the import and its start', () => {
    const startedAt = Date.UTC(2026, 0, 2, 3, 4, 5);
    const importId = newImportId(startedAt);
    expect(importId).toMatch(/^focus_import_[0-9a-z]+_[0-9a-f]{8}$/);
    const tables = [inputTableName, toStagingViewName, toReportViewName, reportTableName, backupTableName, distributedStagingTableName].map(
      (name) => name(importId),
    );
    for (const table of [importId, ...tables]) {
      expect(parseImportTableName(table)).toEqual({ importId, startedAt });
      expect(isImportTableName(table)).toBe(true);
    }
    expect(newImportId(startedAt)).not.toBe(importId);
  });

  it('recognises nothing else', () => {
    for (const name of ['cost_line_items', 'focus_import_', `${IMPORT_ID}_copy`, `${IMPORT_ID}; DROP TABLE x`, `x${IMPORT_ID}`]) {
      expect(parseImportTableName(name)).toBeUndefined();
      expect(isImportTableName(name)).toBe(false);
    }
  });
});

describe('rollback plan', () => {
  it('restores the partitions that existed before the import and drops the ones it created, in journal order', () => {
    expect(rollbackSteps(entry)).toEqual([
      { host: '', partitionId: 'aa11', action: 'drop' },
      { host: '', partitionId: 'bb22', action: 'restore' },
      { host: '', partitionId: 'cc33', action: 'restore' },
    ]);
  });

  it('undoes each step on its own node on a cluster', () => {
    const steps = [
      { host: 's1r1', partitionId: 'aa11', backedUp: true },
      { host: 's1r2', partitionId: 'aa11', backedUp: true },
      { host: 's2r1', partitionId: 'bb22', backedUp: false },
    ];
    expect(rollbackSteps({ ...entry, steps })).toEqual([
      { host: 's1r1', partitionId: 'aa11', action: 'restore' },
      { host: 's1r2', partitionId: 'aa11', action: 'restore' },
      { host: 's2r1', partitionId: 'bb22', action: 'drop' },
    ]);
  });

  it('reads a journal row written before steps were journaled (migration 0014) as swaps on the one server', () => {
    expect(
      journalSteps({
        partition_ids: ['aa11', 'bb22'],
        backed_up_partition_ids: ['bb22'],
        step_hosts: [],
        step_partitions: [],
        step_backed_up: [],
      }),
    ).toEqual([
      { host: '', partitionId: 'aa11', backedUp: false },
      { host: '', partitionId: 'bb22', backedUp: true },
    ]);
    expect(
      journalSteps({
        partition_ids: ['aa11'],
        backed_up_partition_ids: [],
        step_hosts: ['s2r1'],
        step_partitions: ['aa11'],
        step_backed_up: ['1'],
      }),
    ).toEqual([{ host: 's2r1', partitionId: 'aa11', backedUp: true }]);
  });

  it('refuses a journal row whose names could not have been written by the importer', () => {
    expect(() => rollbackSteps({ ...entry, steps: [{ host: '', partitionId: "aa11' OR 1", backedUp: true }] })).toThrow(
      /unexpected partition id/,
    );
    expect(() => rollbackSteps({ ...entry, steps: [{ host: "s1r1'; --", partitionId: 'aa11', backedUp: true }] })).toThrow(
      /unexpected host/,
    );
    expect(() => rollbackSteps({ ...entry, backupTable: 'cost_line_items' })).toThrow(/unexpected table name/);
    expect(() => rollbackSteps({ ...entry, stagingTable: 'api_keys' })).toThrow(/unexpected table name/);
  });
});

describe('swap lease', () => {
  const lease = SWAP_LEASE_SECONDS * 1000;
  it('is valid for a third of its length, then renewed, and treated as expired from 80 % on', () => {
    expect(leaseAction(0)).toBe('valid');
    expect(leaseAction(lease / 3 - 1)).toBe('valid');
    expect(leaseAction(lease / 3)).toBe('renew');
    expect(leaseAction(lease * 0.8 - 1)).toBe('renew');
    expect(leaseAction(lease * 0.8)).toBe('expired');
    expect(leaseAction(lease * 5)).toBe('expired');
    expect(leaseAction(400, 1000)).toBe('renew');
  });
});

describe('fault injection (test-only)', () => {
  it('takes a positive whole number of passes, anything else means no fault', () => {
    expect(injectedFaultCount('2')).toBe(2);
    expect(injectedFaultCount(' 1 ')).toBe(1);
    for (const value of [undefined, '', '0', '-1', '1.5', 'yes']) expect(injectedFaultCount(value)).toBeUndefined();
  });
});

describe('ingest recover output', () => {
  const interrupted = {
    ...entry,
    organizationId: '6f1c1f5e-8a4b-4c1e-9a53-2d7f0c8b1a11',
    integrationIds: ['aws-1', 'gcp-2'],
    leaseExpiresAt: '2026-01-02 03:14:05.000',
    leaseExpired: true,
  };
  it('says when there is nothing to do', () => {
    expect(formatRecoveryReport({ rolledBack: [], leftRunning: [] })).toBe('No interrupted imports: nothing to recover.');
  });

  it('names each import rolled back and each left alone under a valid lease', () => {
    const text = formatRecoveryReport({
      rolledBack: [interrupted],
      leftRunning: [{ ...interrupted, importId: 'focus_import_x_00000000' }],
    });
    expect(text.split('\n')).toEqual([
      `Rolled back ${IMPORT_ID} (organisation ${interrupted.organizationId}, aws-1, gcp-2, 3 partition(s)): ` +
        'interrupted while publishing; its partitions are as before it started.',
      `Left alone focus_import_x_00000000 (organisation ${interrupted.organizationId}, aws-1, gcp-2, 3 partition(s)): ` +
        'publishing, lease valid until 2026-01-02 03:14:05.000 UTC (its process may be alive). If it is not, run this again after that time.',
    ]);
    expect(recoveryReportJson({ rolledBack: [interrupted], leftRunning: [] })).toEqual({
      rolledBack: [
        {
          importId: IMPORT_ID,
          organizationId: interrupted.organizationId,
          integrationIds: ['aws-1', 'gcp-2'],
          partitions: 3,
          leaseExpiresAt: '2026-01-02 03:14:05.000',
        },
      ],
      leftRunning: [],
    });
  });
});
