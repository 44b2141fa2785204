import { Body, Controller, Get, HttpCode, HttpStatus, Param, Post } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiCreatedResponse,
  ApiInternalServerErrorResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import type { Principal } from '../auth/api-keys.service';
import { SharedFilterNotFoundException } from '../common/errors/api-errors';
import { ok, SuccessEnvelope } from '../common/http/envelope';
import { Authorized } from '../common/http/authorized.decorator';
import { CurrentPrincipal } from '../common/http/request-context';
import { CreateSharedFilterDto } from './dto/create-shared-filter.dto';
import { CreateSharedFilterResponseDto, GetSharedFilterResponseDto } from './dto/shared-filter-response.dto';
import { FILTER_ID_EXAMPLE, FILTER_ID_FORMAT_DESCRIPTION } from './filter-id';
import { SharedFilterConfiguration } from './shared-filter-configuration';
import { ORGANIZATION_MISMATCH_MESSAGE, SharingService } from './sharing.service';

const NOT_FOUND_MESSAGE = new SharedFilterNotFoundException().message;

@ApiTags('Shared filters')
@Controller('cost-insights/shared-filters')
export class SharingController {
  constructor(private readonly sharing: SharingService) {}

  @Post()
  @HttpCode(HttpStatus.CREATED)
  @Authorized('shared-filters:write', 'The key lacks `shared-filters:write`, or organizationId is not the key\'s organization.')
  @ApiOperation({
    operationId: 'createSharedFilter',
    summary: 'Store a filter configuration and get an ID to share it',
    description: [
      'Requires the scope `shared-filters:write`. Answers **201 Created** with the new `filterId`.',
      '',
      `- \`organizationId\` is required, UUID-shaped, and must be the organization of the API key; otherwise 403 "${ORGANIZATION_MISMATCH_MESSAGE}"`,
      '- `filterConfiguration` is required; every part of it is optional and validated like the other endpoints ' +
        '(unknown fields, bad dates, a start after the end, an unknown dimension are 400 with the field path).',
      '- Defaults stored when omitted or null: `groupBy.dateGrouping` `daily`, `groupBy.dimension` null (no dimension), ' +
        '`metric` `amortized_cost`, `comparisonEnabled` false, `metadata.name` and `metadata.description` "".',
      `- \`filterId\`: ${FILTER_ID_FORMAT_DESCRIPTION}; unguessable, readable only with a key of the same organization.`,
      '- The filter expires SHARED_FILTER_TTL_SECONDS (default 30 days) after creation.',
    ].join('\n'),
  })
  @ApiCreatedResponse({ type: CreateSharedFilterResponseDto, description: 'Stored.' })
  @ApiBadRequestResponse({ description: 'Invalid body; the message names each offending field path.' })
  @ApiInternalServerErrorResponse({ description: 'The shared filter store is unavailable (retry shortly).' })
  async create(
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateSharedFilterDto,
  ): Promise<SuccessEnvelope<{ filterId: string }>> {
    return ok(await this.sharing.create(principal, body));
  }

  @Get(':filterId')
  @Authorized('shared-filters:read')
  @ApiOperation({
    operationId: 'getSharedFilter',
    summary: 'Read a shared filter configuration by its ID',
    description: [
      'Requires the scope `shared-filters:read`.',
      '',
      '- The configuration comes back normalised: defaults filled, and both `inclusions` and `exclusions` list ' +
        'every FilterFields field (lists `[]` when unset; `dateRange`, `resourceTag` and `costCategory` null when unset).',
      `- A filter that does not exist, has expired, or belongs to another organization: 500 "${NOT_FOUND_MESSAGE}" ` +
        '(one answer for all three, so no organization can learn whether another one\'s ID exists).',
      `- A \`filterId\` that is not of the generated form (${FILTER_ID_FORMAT_DESCRIPTION}) cannot exist: 400.`,
    ].join('\n'),
  })
  @ApiParam({ name: 'filterId', description: `The ID returned on creation: ${FILTER_ID_FORMAT_DESCRIPTION}.`, example: FILTER_ID_EXAMPLE })
  @ApiOkResponse({ type: GetSharedFilterResponseDto })
  @ApiBadRequestResponse({ description: 'The filterId is not of the generated form.' })
  @ApiInternalServerErrorResponse({ description: `"${NOT_FOUND_MESSAGE}": missing, expired or another organization's filter; or the store is unavailable.` })
  async get(
    @CurrentPrincipal() principal: Principal,
    @Param('filterId') filterId: string,
  ): Promise<SuccessEnvelope<{ filterConfiguration: SharedFilterConfiguration }>> {
    return ok(await this.sharing.get(principal, filterId));
  }
}
