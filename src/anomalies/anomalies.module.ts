import { Module } from '@nestjs/common';
import { InstallationSecretsModule } from '../infrastructure/installation-secrets/installation-secrets.module';
import { AnomaliesController } from './anomalies.controller';
import { AnomaliesRepository } from '../store/repositories/anomalies.repository';
import { AnomaliesService } from './anomalies.service';

/** POST /v1/cost-insights/anomalies and its feedback: cost anomalies with root causes. */
@Module({
  imports: [InstallationSecretsModule],
  controllers: [AnomaliesController],
  providers: [AnomaliesService, AnomaliesRepository],
  exports: [AnomaliesService],
})
export class AnomaliesModule {}
