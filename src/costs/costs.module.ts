import { Module } from '@nestjs/common';
import { CostsController } from './costs.controller';
import { CostsService } from './costs.service';

/** POST /v1/cost-insights/data: the cost time series and its totals. */
@Module({
  controllers: [CostsController],
  providers: [CostsService],
  // The MCP endpoint (src/mcp) calls the same service.
  exports: [CostsService],
})
export class CostsModule {}
