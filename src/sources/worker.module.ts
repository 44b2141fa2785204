import { Module } from '@nestjs/common';
import { ClickhouseModule } from '../infrastructure/clickhouse/clickhouse.module';
import { RedisModule } from '../infrastructure/redis/redis.module';
import { IngestWorkerService } from './ingest-worker.service';
import { SourceCheckService } from './source-check.service';
import { SourcesRepository } from './sources.repository';

/** The data-source worker alone (`npm run worker`): the store, Redis for its lease, the sources and their checks. */
@Module({
  imports: [ClickhouseModule, RedisModule],
  providers: [SourcesRepository, SourceCheckService, IngestWorkerService],
})
export class WorkerModule {}
