import { Module } from '@nestjs/common';
import { ComparisonController } from './comparison.controller';
import { ComparisonService } from './comparison.service';

/** POST /v1/cost-insights/compare: one metric between two periods, per dimension value. */
@Module({
  controllers: [ComparisonController],
  providers: [ComparisonService],
  // The MCP endpoint (src/mcp) calls the same service.
  exports: [ComparisonService],
})
export class ComparisonModule {}
