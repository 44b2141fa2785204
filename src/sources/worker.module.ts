import { Module } from '@nestjs/common';
import { ClickhouseModule } from '../store/clickhouse/clickhouse.module';
import { RedisModule } from '../infrastructure/redis/redis.module';
import { IngestWorkerService } from './ingest-worker.service';
import { SourceCheckService } from './source-check.service';
import { SourcesRepository } from '../store/repositories/sources.repository';
import { TagKeyActivationService } from '../tag-keys/tag-key-activation.service';
import { TagKeysRepository } from '../store/repositories/tag-keys.repository';
import { BusinessMetricsRepository } from '../store/repositories/business-metrics.repository';
import { BusinessMetricsService } from '../unit-costs/business-metrics.service';
import { MetricFilesImport } from './metric-files-import';

/**
 * The data-source worker alone (`npm run worker`): the store, Redis for its lease, the sources and their checks, and
 * the tag keys a check may activate (TAG_KEYS_DEFAULT), the business metrics a folder of their values loads.
 */
@Module({
  imports: [ClickhouseModule, RedisModule],
  providers: [
    SourcesRepository,
    SourceCheckService,
    IngestWorkerService,
    TagKeysRepository,
    TagKeyActivationService,
    BusinessMetricsRepository,
    BusinessMetricsService,
    MetricFilesImport,
  ],
})
export class WorkerModule {}
