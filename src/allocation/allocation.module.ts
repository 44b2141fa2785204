import { Module } from '@nestjs/common';
import { AllocationController } from './allocation.controller';
import { AllocationService } from './allocation.service';

/** The allocation KPI (`POST /v1/cost-insights/allocation`): the share of cost with an owner in a cost category. */
@Module({
  controllers: [AllocationController],
  providers: [AllocationService],
  exports: [AllocationService],
})
export class AllocationModule {}
