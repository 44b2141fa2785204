import { Module } from '@nestjs/common';
import { CommitmentsController } from './commitments.controller';
import { CommitmentsService } from './commitments.service';

/** Rate optimisation (`POST /v1/cost-insights/commitments`): commitment discounts' utilisation, coverage and savings. */
@Module({
  controllers: [CommitmentsController],
  providers: [CommitmentsService],
  exports: [CommitmentsService],
})
export class CommitmentsModule {}
