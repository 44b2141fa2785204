import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Req } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiConsumes,
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import type { Request } from 'express';
import { InvalidRequestException } from '../common/errors/api-errors';
import { Authorized } from '../common/http/authorized.decorator';
import { ok, SuccessEnvelope } from '../common/http/envelope';
import type { Principal } from '../common/http/principal';
import { CurrentPrincipal } from '../common/http/request-context';
import { ApiValidationPipe } from '../common/validation/api-validation.pipe';
import type { AuditOrigin } from '../store/repositories/audit-event';
import { ApiKeyOrigin } from '../infrastructure/audit-trail/audit-origin';
import { AuditTrail } from '../infrastructure/audit-trail/audit-trail.service';
import { METRIC_LIMITS } from './business-metric';
import { BusinessMetricsService } from './business-metrics.service';
import {
  BusinessMetricDto,
  BusinessMetricListDto,
  BusinessMetricListItemDto,
  MetricValuesDto,
  MetricValuesLoadedDto,
} from './dto/unit-costs.dto';

const ADMIN = 'metrics:admin';
const FORBIDDEN = `The API key lacks the \`${ADMIN}\` scope, or has a data scope; or a cap (${METRIC_LIMITS.maxMetricsPerOrganization} metrics, ${METRIC_LIMITS.maxDimensionValuesPerMetric} dimension values per metric) would be passed.`;
const envelopeOf = (type: new () => unknown) => ({
  schema: { type: 'object', properties: { success: { type: 'boolean', example: true }, data: { $ref: getSchemaPath(type) } } },
});

/**
 * An organisation's business metrics (`metrics:admin`, a key without a data scope: the values are the organisation's):
 * their definitions and daily values, the denominators of /v1/cost-insights/unit-costs. Every change is audited.
 */
@ApiTags('Business metrics (admin)')
@ApiExtraModels(BusinessMetricListDto, BusinessMetricListItemDto, MetricValuesLoadedDto)
@Controller('admin/business-metrics')
export class BusinessMetricsAdminController {
  constructor(
    private readonly metrics: BusinessMetricsService,
    private readonly auditTrail: AuditTrail,
  ) {}

  @Get()
  @Authorized('cost:read', 'The API key lacks the `cost:read` scope.')
  @ApiOperation({ operationId: 'listBusinessMetrics', summary: 'The organisation’s business metrics (readers see them too)' })
  @ApiOkResponse(envelopeOf(BusinessMetricListDto))
  async list(@CurrentPrincipal() principal: Principal): Promise<SuccessEnvelope<BusinessMetricListDto>> {
    return ok({ metrics: await this.metrics.list(principal.organizationId) });
  }

  @Put(':name')
  @Authorized(ADMIN, FORBIDDEN)
  @ApiOperation({
    operationId: 'defineBusinessMetric',
    summary: 'Define a business metric, or change its unit and scale (its dimension stays)',
  })
  @ApiOkResponse(envelopeOf(BusinessMetricListItemDto))
  @ApiBadRequestResponse({
    description: 'A name that is not lower-case words, unknown fields, a unit scale not 1, 1000 or 1000000, a dimension that is not one.',
  })
  async define(
    @CurrentPrincipal() principal: Principal,
    @Param('name') name: string,
    @Body() request: BusinessMetricDto,
    @ApiKeyOrigin() origin: AuditOrigin,
  ): Promise<SuccessEnvelope<BusinessMetricListItemDto>> {
    refuseScoped(principal);
    const defined = await this.metrics.define(principal.organizationId, name, request, actorOf(principal));
    await this.auditTrail.record(origin, 'business-metric.changed', name, {
      unit: defined.unit,
      unitScale: defined.unitScale,
      dimension: defined.dimension,
    });
    return ok(defined);
  }

  @Delete(':name')
  @Authorized(ADMIN, FORBIDDEN)
  @ApiOperation({
    operationId: 'deleteBusinessMetric',
    summary: 'Remove a business metric (its values stay stored; defining it again brings them back)',
  })
  @ApiOkResponse(envelopeOf(BusinessMetricListItemDto))
  async remove(
    @CurrentPrincipal() principal: Principal,
    @Param('name') name: string,
    @ApiKeyOrigin() origin: AuditOrigin,
  ): Promise<SuccessEnvelope<BusinessMetricListItemDto>> {
    refuseScoped(principal);
    const removed = await this.metrics.remove(principal.organizationId, name, actorOf(principal));
    await this.auditTrail.record(origin, 'business-metric.deleted', name, {});
    return ok(removed);
  }

  @Post(':name/values')
  @HttpCode(200)
  @Authorized(ADMIN, FORBIDDEN)
  @ApiOperation({
    operationId: 'loadBusinessMetricValues',
    summary: 'Load daily values: each day given replaces that day whole',
    description:
      'As JSON `{"values": [{"date", "value", "dimensionValue"?}]}` or as `text/csv` lines `date,value[,dimension value]` (a `date,…` header line optional). Values are non-negative decimals of at most 10 places; a metric with a dimension needs a dimension value on every line, one without none. Checked whole: one bad line refuses the load, naming line and column, and nothing is stored. A day re-loaded reads only the new load’s values (a dimension value left out is gone from that day).',
  })
  @ApiConsumes('application/json', 'text/csv')
  @ApiBody({ type: MetricValuesDto })
  @ApiOkResponse(envelopeOf(MetricValuesLoadedDto))
  @ApiBadRequestResponse({ description: 'Every problem named by line and column (CSV) or index and field (JSON); an unknown metric.' })
  async load(
    @CurrentPrincipal() principal: Principal,
    @Param('name') name: string,
    @Req() request: Request,
    @ApiKeyOrigin() origin: AuditOrigin,
  ): Promise<SuccessEnvelope<MetricValuesLoadedDto>> {
    refuseScoped(principal);
    const body: unknown = request.body;
    const values =
      typeof body === 'string'
        ? body
        : ((await new ApiValidationPipe().transform(body ?? {}, { type: 'body', metatype: MetricValuesDto })) as MetricValuesDto).values;
    const loaded = await this.metrics.load(principal.organizationId, name, values);
    await this.auditTrail.record(origin, 'business-metric.values-loaded', name, { ...loaded });
    return ok(loaded);
  }
}

function refuseScoped(principal: Principal): void {
  if (principal.dataScope)
    throw new InvalidRequestException(['Managing business metrics needs a key without a data scope: their values are the organisation’s.']);
}

function actorOf(principal: Principal): string {
  return principal.person?.email ?? principal.keyId;
}
