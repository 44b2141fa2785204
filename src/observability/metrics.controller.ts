import { Controller, Get, Header } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '../common/http/request-context';
import { metricsRegistry } from './prometheus-metrics';

/**
 * Prometheus scrape endpoint, outside /v1 and without a key: scrape it on each instance directly
 * (the load balancer does not expose it; see docs/operations.md).
 */
@ApiExcludeController()
@Public()
@Controller('metrics')
export class MetricsController {
  @Get()
  @Header('Content-Type', metricsRegistry.contentType)
  @Header('Cache-Control', 'no-store')
  async scrape(): Promise<string> {
    return metricsRegistry.metrics();
  }
}
