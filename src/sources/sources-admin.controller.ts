import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Param, Post, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import { ApiError, InvalidRequestException } from '../common/errors/api-errors';
import { Authorized } from '../common/http/authorized.decorator';
import { ok, SuccessEnvelope } from '../common/http/envelope';
import type { Principal } from '../common/http/principal';
import { CurrentPrincipal } from '../common/http/request-context';
import { UUID_PATTERN } from '../common/validation/patterns';
import type { AuditOrigin } from '../store/repositories/audit-event';
import { ApiKeyOrigin } from '../infrastructure/audit-trail/audit-origin';
import { AuditTrail } from '../infrastructure/audit-trail/audit-trail.service';
import {
  CreateSourceDto,
  SourceCheckDto,
  SourceDto,
  SourceHistoryResponseDto,
  SourceListResponseDto,
  SourceResponseDto,
  SourceRunDto,
  SourceRunResponseDto,
} from './sources-admin.dto';
import { SourceRefused, SourcesService } from './sources.service';

const ADMIN = 'sources:admin';
const FORBIDDEN = `The API key lacks the \`${ADMIN}\` scope, or has a data scope.`;
const SCOPED_ADMIN = "Managing data sources needs a key without a data scope: a source's imports change the whole organisation's data.";
const NOT_FOUND = 'Data source not found';

/**
 * The organisation's data sources as an API (`sources:admin`): where its FOCUS exports are delivered, checked by the
 * worker every INGEST_POLL_SECONDS. The organisation is the key's; another organisation's source is a 404.
 */
@ApiTags('Data sources (admin)')
@Controller('admin/sources')
export class SourcesAdminController {
  constructor(
    private readonly sources: SourcesService,
    private readonly auditTrail: AuditTrail,
  ) {}

  @Get()
  @Authorized(ADMIN, FORBIDDEN)
  @ApiOperation({
    operationId: 'listSources',
    summary: "The organisation's data sources, each with its last check, last import, lag and last problem",
  })
  @ApiOkResponse({ type: SourceListResponseDto })
  async list(@CurrentPrincipal() principal: Principal): Promise<SuccessEnvelope<SourceDto[]>> {
    refuseScoped(principal);
    return ok(await this.sources.list(principal.organizationId));
  }

  @Post()
  @Authorized(ADMIN, FORBIDDEN)
  @ApiOperation({
    operationId: 'addSource',
    summary: 'Add a data source',
    description:
      "The worker checks it at its next poll (or now: POST /v1/admin/sources/{id}/run). A delivery is imported when complete by its layout's rule, once; a newer delivery of a billing period replaces it atomically; an older one never replaces a newer one. 403 when the directory is not under INGEST_FILE_ROOT or the organisation has 100 sources.",
  })
  @ApiCreatedResponse({ type: SourceResponseDto })
  @ApiBadRequestResponse({
    description: 'A bad integration id, kind or URL, or a directory that does not exist (the message names the field).',
  })
  async add(
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateSourceDto,
    @ApiKeyOrigin() origin: AuditOrigin,
  ): Promise<SuccessEnvelope<SourceDto>> {
    refuseScoped(principal);
    let source: SourceDto;
    try {
      source = await this.sources.add(principal.organizationId, body, 'api');
    } catch (error) {
      if (!(error instanceof SourceRefused)) throw error;
      throw error.status === 400 ? new InvalidRequestException([error.message]) : new ApiError(HttpStatus.FORBIDDEN, error.message);
    }
    // The options name the environment variables of credentials, never their values.
    const { sourceId, integrationId, kind, url, options } = source;
    await this.auditTrail.record(origin, 'source.created', sourceId, { integrationId, kind, url, options });
    return ok(source);
  }

  @Delete(':id')
  @Authorized(ADMIN, FORBIDDEN)
  @ApiOperation({ operationId: 'removeSource', summary: 'Remove a data source (the data it imported stays)' })
  @ApiParam({ name: 'id', description: 'The source id, as listed.' })
  @ApiOkResponse({ type: SourceResponseDto })
  @ApiNotFoundResponse({ description: `\`${NOT_FOUND}\`: no source with this id in the organisation.` })
  async remove(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @ApiKeyOrigin() origin: AuditOrigin,
  ): Promise<SuccessEnvelope<SourceDto>> {
    refuseScoped(principal);
    const removed = found(UUID_PATTERN.test(id) ? await this.sources.remove(principal.organizationId, id) : undefined);
    const { integrationId, kind, url } = removed;
    await this.auditTrail.record(origin, 'source.deleted', removed.sourceId, { integrationId, kind, url });
    return ok(removed);
  }

  @Post(':id/run')
  @HttpCode(HttpStatus.OK)
  @Authorized(ADMIN, FORBIDDEN)
  @ApiOperation({
    operationId: 'runSource',
    summary: 'Check a data source now and import what is new',
    description: 'Runs in this request, on this instance; `busy` when another instance is checking the same source at this moment.',
  })
  @ApiParam({ name: 'id', description: 'The source id, as listed.' })
  @ApiOkResponse({ type: SourceRunResponseDto })
  @ApiNotFoundResponse({ description: `\`${NOT_FOUND}\`` })
  async run(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @ApiKeyOrigin() origin: AuditOrigin,
  ): Promise<SuccessEnvelope<SourceRunDto>> {
    refuseScoped(principal);
    const result = found(UUID_PATTERN.test(id) ? await this.sources.run(principal.organizationId, id) : undefined);
    // What the run did, not the problems' texts (the source's history has those).
    const checks = result.checks.map(({ outcome, billingPeriods, rows }) => ({ outcome, billingPeriods, rows }));
    await this.auditTrail.record(origin, 'source.run', result.source.sourceId, { busy: result.busy, checks });
    return ok(result);
  }

  @Get(':id/history')
  @Authorized(ADMIN, FORBIDDEN)
  @ApiOperation({
    operationId: 'sourceHistory',
    summary: "A data source's imports and problems, newest first, with each import's totals per billing period before → after",
  })
  @ApiParam({ name: 'id', description: 'The source id, as listed.' })
  @ApiQuery({ name: 'limit', required: false, description: 'How many checks (1 to 500, default 50).', example: 50 })
  @ApiOkResponse({ type: SourceHistoryResponseDto })
  @ApiBadRequestResponse({ description: 'A limit that is not an integer from 1 to 500.' })
  @ApiNotFoundResponse({ description: `\`${NOT_FOUND}\`` })
  async history(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Query('limit') limit?: unknown,
  ): Promise<SuccessEnvelope<SourceCheckDto[]>> {
    refuseScoped(principal);
    if (limit !== undefined && (typeof limit !== 'string' || !/^\d{1,3}$/.test(limit) || Number(limit) < 1 || Number(limit) > 500)) {
      throw new InvalidRequestException(['limit: an integer from 1 to 500']);
    }
    const checks = UUID_PATTERN.test(id) ? await this.sources.history(principal.organizationId, id, Number(limit ?? 50)) : undefined;
    return ok(found(checks));
  }
}

function found<T>(value: T | undefined): T {
  if (value === undefined) throw new ApiError(HttpStatus.NOT_FOUND, NOT_FOUND);
  return value;
}

function refuseScoped(principal: Principal): void {
  if (principal.dataScope) throw new ApiError(HttpStatus.FORBIDDEN, SCOPED_ADMIN);
}
