import { Module } from '@nestjs/common';
import { ApiKeysService } from '../auth/api-keys.service';
import { ConfigModule } from '../config/config.module';
import { ClickhouseModule } from '../infrastructure/clickhouse/clickhouse.module';

/**
 * What the operator CLI needs and nothing more: configuration, the ClickHouse store and API
 * keys. No HTTP, Redis or feature modules, so a command opens the store and nothing else.
 */
@Module({
  imports: [ConfigModule, ClickhouseModule],
  providers: [ApiKeysService],
})
export class CliModule {}
