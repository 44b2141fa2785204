import { Global, Module } from '@nestjs/common';
import { CostDataVersion } from './cost-data-version.service';

/** The per-organisation data version answer caches, freshness, currency plans and paging cursors are keyed by. */
@Global()
@Module({ providers: [CostDataVersion], exports: [CostDataVersion] })
export class DataVersionModule {}
