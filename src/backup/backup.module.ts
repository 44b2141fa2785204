import { Module } from '@nestjs/common';
import { BackupSchedulerService } from './backup-scheduler.service';
import { BackupService } from './backup.service';

/** Backups of the whole store: the service the CLI calls, and the worker's schedule. */
@Module({
  providers: [BackupService, BackupSchedulerService],
  exports: [BackupService],
})
export class BackupModule {}
