import { Module } from '@nestjs/common';
import { BusinessMetricsAdminController } from './business-metrics-admin.controller';
import { BusinessMetricsRepository } from '../store/repositories/business-metrics.repository';
import { BusinessMetricsService } from './business-metrics.service';
import { UnitCostsController } from './unit-costs.controller';
import { UnitCostsService } from './unit-costs.service';

/** Unit costs (`POST /v1/cost-insights/unit-costs`) over the business metrics an organisation loads (`/v1/admin/business-metrics`). */
@Module({
  controllers: [BusinessMetricsAdminController, UnitCostsController],
  providers: [BusinessMetricsRepository, BusinessMetricsService, UnitCostsService],
  exports: [BusinessMetricsService, UnitCostsService],
})
export class UnitCostsModule {}
