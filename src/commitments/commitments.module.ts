import { Module } from '@nestjs/common';
import { CommitmentsController } from './commitments.controller';
import { CommitmentsService } from './commitments.service';
import { ContractsService } from './contracts.service';

/**
 * Rate optimisation: commitment discounts' utilisation, coverage and savings (`POST /v1/cost-insights/commitments`) and
 * contract commitments' burn-down (`POST /v1/cost-insights/contracts`).
 */
@Module({
  controllers: [CommitmentsController],
  providers: [CommitmentsService, ContractsService],
  exports: [CommitmentsService, ContractsService],
})
export class CommitmentsModule {}
