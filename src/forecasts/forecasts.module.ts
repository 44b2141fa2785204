import { Module } from '@nestjs/common';
import { ForecastsController } from './forecasts.controller';
import { ForecastsService } from './forecasts.service';

/** POST /v1/cost-insights/forecast: where a metric will land, with prediction intervals and the model's accuracy. */
@Module({
  controllers: [ForecastsController],
  providers: [ForecastsService],
  exports: [ForecastsService],
})
export class ForecastsModule {}
