import { Module } from '@nestjs/common';
import { AnomaliesModule } from '../anomalies/anomalies.module';
import { AllocationModule } from '../allocation/allocation.module';
import { CommitmentsModule } from '../commitments/commitments.module';
import { BudgetsModule } from '../budgets/budgets.module';
import { UnitCostsModule } from '../unit-costs/unit-costs.module';
import { ComparisonModule } from '../comparison/comparison.module';
import { CostsModule } from '../costs/costs.module';
import { FilterOptionsModule } from '../filter-options/filter-options.module';
import { ForecastsModule } from '../forecasts/forecasts.module';
import { SharingModule } from '../sharing/sharing.module';
import { McpEndpoint } from './mcp-endpoint';
import { McpTools } from './mcp-tools';
import { McpController } from './mcp.controller';

/** POST /v1/mcp: the API's read operations as MCP tools for AI assistants (an edge over the features' services). */
@Module({
  imports: [
    CostsModule,
    ComparisonModule,
    FilterOptionsModule,
    SharingModule,
    ForecastsModule,
    AnomaliesModule,
    AllocationModule,
    CommitmentsModule,
    BudgetsModule,
    UnitCostsModule,
  ],
  controllers: [McpController],
  providers: [McpTools, McpEndpoint],
})
export class McpModule {}
