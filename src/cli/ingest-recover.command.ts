import { ClickhouseService } from '../store/clickhouse/clickhouse.service';
import type { RecoveryReport, SwappingImport } from '../store/publish/import-journal';
import { PublishProtocol } from '../store/publish/publish-protocol';

interface RecoverCommandOutput {
  out(text: string): void;
}

/**
 * `ingest recover`: rolls back imports whose process died while publishing (every import also does
 * this first, and so does the API at start-up), and names those still within their lease.
 */
export async function runIngestRecoverCommand(
  clickhouse: ClickhouseService,
  options: { json: boolean },
  io: RecoverCommandOutput,
): Promise<number> {
  const report = await new PublishProtocol(clickhouse).recover();
  io.out(options.json ? JSON.stringify(recoveryReportJson(report)) : formatRecoveryReport(report));
  return 0;
}

export function recoveryReportJson(report: RecoveryReport) {
  const describe = (i: SwappingImport) => ({
    importId: i.importId,
    organizationId: i.organizationId,
    integrationIds: i.integrationIds,
    partitions: partitionCount(i),
    leaseExpiresAt: i.leaseExpiresAt,
  });
  return { rolledBack: report.rolledBack.map(describe), leftRunning: report.leftRunning.map(describe) };
}

export function formatRecoveryReport(report: RecoveryReport): string {
  if (report.rolledBack.length === 0 && report.leftRunning.length === 0) return 'No interrupted imports: nothing to recover.';
  const which = (i: SwappingImport) =>
    `${i.importId} (organisation ${i.organizationId}, ${i.integrationIds.join(', ')}, ${partitionCount(i)} partition(s))`;
  return [
    ...report.rolledBack.map((i) => `Rolled back ${which(i)}: interrupted while publishing; its partitions are as before it started.`),
    ...report.leftRunning.map(
      (i) =>
        `Left alone ${which(i)}: publishing, lease valid until ${i.leaseExpiresAt} UTC (its process may be alive). ` +
        'If it is not, run this again after that time.',
    ),
  ].join('\n');
}

/** Partitions, not steps: on a cluster each replica of a partition's shard swaps it. */
function partitionCount(i: SwappingImport): number {
  return new Set(i.steps.map((step) => step.partitionId)).size;
}
