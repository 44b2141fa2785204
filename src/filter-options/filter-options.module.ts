import { Module } from '@nestjs/common';
import { FilterOptionsController } from './filter-options.controller';
import { FilterOptionsService } from './filter-options.service';

/** Filter discovery: POST /filters (cross-filtered options), /tag-values and /cost-category-values. */
@Module({
  controllers: [FilterOptionsController],
  providers: [FilterOptionsService],
  // The MCP endpoint (src/mcp) calls the same service.
  exports: [FilterOptionsService],
})
export class FilterOptionsModule {}
