import { Module } from '@nestjs/common';
import { InvoicesController } from './invoices.controller';
import { InvoicesService } from './invoices.service';

/** POST /v1/cost-insights/invoices: the providers' invoices reproduced from the cost rows. */
@Module({
  controllers: [InvoicesController],
  providers: [InvoicesService],
  // The MCP endpoint (src/mcp) may call the same service.
  exports: [InvoicesService],
})
export class InvoicesModule {}
