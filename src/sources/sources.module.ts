import { Module } from '@nestjs/common';
import { UnitCostsModule } from '../unit-costs/unit-costs.module';
import { MetricFilesImport } from './metric-files-import';
import { IngestWorkerService } from './ingest-worker.service';
import { SourceCheckService } from './source-check.service';
import { SourcesAdminController } from './sources-admin.controller';
import { SourcesRepository } from '../store/repositories/sources.repository';
import { SourcesService } from './sources.service';

/**
 * Data that arrives by itself: where an organisation's FOCUS exports are delivered (sources), the worker that checks
 * them and imports each complete delivery through the importer (a folder of business metrics' values through the
 * metrics' service), and their admin API.
 */
@Module({
  imports: [UnitCostsModule],
  controllers: [SourcesAdminController],
  providers: [SourcesRepository, SourceCheckService, MetricFilesImport, SourcesService, IngestWorkerService],
  exports: [SourcesService],
})
export class SourcesModule {}
