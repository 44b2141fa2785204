import { BackupLocationError } from '../backup/backup-location';
import { BackupService } from '../backup/backup.service';
import type { CliCommand } from './cli-args';
import { CliOutput, EXIT, formatTable } from './cli-output';

type BackupCommand = Extract<CliCommand, { name: 'backup create' | 'backup list' | 'backup restore' }>;

/** `backup create|list|restore`: backups of the whole store in BACKUP_DIR. A refusal is exit code 1 with its reason. */
export async function backupCommand(backups: BackupService, command: BackupCommand, io: CliOutput): Promise<number> {
  const progress = command.json ? () => undefined : (message: string) => io.err(message);
  try {
    switch (command.name) {
      case 'backup create': {
        const started = Date.now();
        const manifest = await backups.create({ name: command.backupName, incremental: command.incremental }, progress);
        const rows = manifest.parts.reduce((sum, part) => sum + (part.rows.cost_line_items ?? 0), 0);
        if (command.json) io.out(JSON.stringify({ ...manifest, redisKeys: manifest.redisKeys.length, elapsedMs: Date.now() - started }));
        else
          io.out(
            `Backup ${manifest.name} complete${manifest.base ? ` (incremental on ${manifest.base})` : ''}: ${manifest.parts.length} part(s), ` +
              `${rows} cost rows, ${manifest.redisKeys.length} Redis key(s), in ${((Date.now() - started) / 1000).toFixed(1)} s; in ${backups.location.describe(manifest.name)}`,
          );
        return EXIT.ok;
      }
      case 'backup list': {
        const listed = await backups.list();
        if (command.json) {
          io.out(
            JSON.stringify(
              listed.map(({ name, complete, problem, manifest }) => ({
                name,
                complete,
                problem,
                base: manifest?.base ?? null,
                startedAt: manifest?.startedAt ?? null,
                finishedAt: manifest?.finishedAt ?? null,
                database: manifest?.database ?? null,
                mode: manifest?.mode ?? null,
              })),
            ),
          );
        } else if (listed.length === 0) io.out(`No backups in ${backups.location.description}.`);
        else
          io.out(
            formatTable(
              ['NAME', 'STATE', 'STARTED', 'BASE', 'DATABASE'],
              listed.map((b) => [
                b.name,
                b.complete ? 'complete' : `incomplete: ${b.problem}`,
                b.manifest?.startedAt ?? b.modifiedAt,
                b.manifest?.base ?? '-',
                b.manifest?.database ?? '-',
              ]),
            ),
          );
        return EXIT.ok;
      }
      case 'backup restore': {
        const report = await backups.restore(command.backupName, { force: command.force }, progress);
        if (command.json) io.out(JSON.stringify(report));
        else
          io.out(
            `Restored backup ${report.name} into ${report.database} in ${(report.elapsedMs / 1000).toFixed(1)} s: ` +
              `${report.rows.cost_line_items ?? 0} cost rows, ${report.rows.api_keys ?? 0} API keys, ${report.redisKeys} Redis key(s)` +
              (report.importsStoodDown.length
                ? `; imports caught before publishing, not restored: ${report.importsStoodDown.join(', ')}`
                : '') +
              '.',
          );
        return EXIT.ok;
      }
    }
  } catch (error) {
    if (!(error instanceof BackupLocationError)) throw error;
    io.err(`Error: ${error.message}`);
    return EXIT.failure;
  }
}
