import { Module } from '@nestjs/common';
import { IngestWorkerService } from './ingest-worker.service';
import { SourceCheckService } from './source-check.service';
import { SourcesAdminController } from './sources-admin.controller';
import { SourcesRepository } from './sources.repository';
import { SourcesService } from './sources.service';

/**
 * Data that arrives by itself: where an organisation's FOCUS exports are delivered (sources), the worker that checks
 * them and imports each complete delivery through the importer, and their admin API.
 */
@Module({
  controllers: [SourcesAdminController],
  providers: [SourcesRepository, SourceCheckService, SourcesService, IngestWorkerService],
  exports: [SourcesService],
})
export class SourcesModule {}
