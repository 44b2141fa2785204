import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Param, Post } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiCreatedResponse,
  ApiInternalServerErrorResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { INVALID_REQUEST_PREFIX, SharedFilterNotFoundException } from '../common/errors/api-errors';
import { ok, SuccessEnvelope } from '../common/http/envelope';
import { Authorized } from '../common/http/authorized.decorator';
import { CurrentPrincipal } from '../common/http/request-context';
import { DEFAULT_CONFIG } from '../config/app-config';
import { SETTING_DEFAULTS } from '../config/settings';
import { CreateSharedFilterDto } from './dto/create-shared-filter.dto';
import { CreateSharedFilterResponseDto, DeleteSharedFilterResponseDto, GetSharedFilterResponseDto } from './dto/shared-filter-response.dto';
import { FILTER_ID_EXAMPLE, FILTER_ID_FORMAT_DESCRIPTION } from './filter-id';
import { SharedFilterConfiguration } from '../store/shared-filters/shared-filter-configuration';
import { configurationTooLargeDetail, lifetimeInWords, quotaExceededMessage } from './shared-filter-limits';
import { DELETE_SCOPE_MESSAGE, NOT_THE_CREATOR_MESSAGE, ORGANIZATION_MISMATCH_MESSAGE, SharingService } from './sharing.service';
import type { Principal } from '../common/http/principal';

const NOT_FOUND_MESSAGE = new SharedFilterNotFoundException().message;
// The documentation's limits and examples quote the settings' defaults.
const QUOTA_DEFAULTS =
  `SHARED_FILTER_QUOTA_COUNT live filters (default ${SETTING_DEFAULTS.SHARED_FILTER_QUOTA_COUNT}) and ` +
  `SHARED_FILTER_QUOTA_MB of stored configurations (default ${SETTING_DEFAULTS.SHARED_FILTER_QUOTA_MB} MiB)`;
const TOO_LARGE_EXAMPLE = `${INVALID_REQUEST_PREFIX} ${configurationTooLargeDetail(DEFAULT_CONFIG.sharedFilterMaxBytes + 1, DEFAULT_CONFIG.sharedFilterMaxBytes)}`;
const QUOTA_EXAMPLE = quotaExceededMessage('count', { count: DEFAULT_CONFIG.sharedFilterQuotaCount, bytes: 0 }, 0, DEFAULT_CONFIG);
const SHARE_DEFAULTS =
  `SHARED_FILTER_KEY_QUOTA_PERCENT (default ${SETTING_DEFAULTS.SHARED_FILTER_KEY_QUOTA_PERCENT} %) of both, per API key; ` +
  'for data-scoped keys, per data scope (all its unrevoked keys together)';

@ApiTags('Shared filters')
@Controller('cost-insights/shared-filters')
export class SharingController {
  constructor(private readonly sharing: SharingService) {}

  @Post()
  @HttpCode(HttpStatus.CREATED)
  @Authorized(
    'shared-filters:write',
    "The key lacks `shared-filters:write`; organizationId is not the key's organization; the organization's " +
      `shared-filter quota is used up (${QUOTA_DEFAULTS}), e.g. "${QUOTA_EXAMPLE}"; or the key's share of it (${SHARE_DEFAULTS})`,
  )
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
      `- The filter expires SHARED_FILTER_TTL_SECONDS (default ${lifetimeInWords(SETTING_DEFAULTS.SHARED_FILTER_TTL_SECONDS)}) after creation.`,
      `- **Size**: the stored configuration (its JSON with the defaults filled, in UTF-8 bytes) may be at most ` +
        `SHARED_FILTER_MAX_BYTES (default ${SETTING_DEFAULTS.SHARED_FILTER_MAX_BYTES}); larger is a 400 naming \`filterConfiguration\`, its size and the limit.`,
      `- **Quota** per organization, over its live (unexpired) filters: ${QUOTA_DEFAULTS}; and a share of it per key: ` +
        `${SHARE_DEFAULTS}, so one key cannot lock the others out. A creation that would exceed ` +
        'any is a **403** that names the quota, the current use and the limit (not a 429: retrying soon does not help; ' +
        'filters free up as they expire or are deleted). A refused filter is not stored.',
      '- Filters of a revoked key stay readable until they expire and keep counting against the organization quota; ' +
        "they no longer count against any key's share. An admin key can delete them.",
    ].join('\n'),
  })
  @ApiCreatedResponse({ type: CreateSharedFilterResponseDto, description: 'Stored.' })
  @ApiBadRequestResponse({
    description:
      'Invalid body; the message names each offending field path. Also when `filterConfiguration`, as stored, is larger ' +
      `than SHARED_FILTER_MAX_BYTES (default ${SETTING_DEFAULTS.SHARED_FILTER_MAX_BYTES}), e.g. "${TOO_LARGE_EXAMPLE}"`,
  })
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
        "(one answer for all three, so no organization can learn whether another one's ID exists).",
      `- A \`filterId\` that is not of the generated form (${FILTER_ID_FORMAT_DESCRIPTION}) cannot exist: 400.`,
    ].join('\n'),
  })
  @ApiParam({ name: 'filterId', description: `The ID returned on creation: ${FILTER_ID_FORMAT_DESCRIPTION}.`, example: FILTER_ID_EXAMPLE })
  @ApiOkResponse({ type: GetSharedFilterResponseDto })
  @ApiBadRequestResponse({ description: 'The filterId is not of the generated form.' })
  @ApiInternalServerErrorResponse({
    description: `"${NOT_FOUND_MESSAGE}": missing, expired or another organization's filter; or the store is unavailable.`,
  })
  async get(
    @CurrentPrincipal() principal: Principal,
    @Param('filterId') filterId: string,
  ): Promise<SuccessEnvelope<{ filterConfiguration: SharedFilterConfiguration }>> {
    return ok(await this.sharing.get(principal, filterId));
  }

  @Delete(':filterId')
  // Any valid key passes the guard: the service checks the creator-or-admin rule (a key with neither scope is refused first).
  @Authorized(
    undefined,
    `The key holds neither \`shared-filters:write\` nor \`api-keys:admin\` ("${DELETE_SCOPE_MESSAGE}"); or it is neither the key that ` +
      `created the filter nor an admin key of its organization ("${NOT_THE_CREATOR_MESSAGE}").`,
  )
  @ApiOperation({
    operationId: 'deleteSharedFilter',
    summary: 'Delete a shared filter and free its quota',
    description: [
      "Deletes the filter at once: it can no longer be read, and the organization's quota and its creator's share are freed immediately.",
      '',
      '**Who may delete**: the API key that created the filter (it holds `shared-filters:write`), or an **admin key** of the same ' +
        'organization (`api-keys:admin`, which has no data scope). Another key of the organization, even with ' +
        '`shared-filters:write`, gets 403; a key holding neither scope gets 403 before anything is looked up.',
      `- A filter that does not exist, has expired, was already deleted, belongs to another organization, or (for a data-scoped ` +
        `key) was created under another data scope: 500 "${NOT_FOUND_MESSAGE}", exactly as reading it answers, so deleting reveals nothing ` +
        'reading would not.',
      `- A \`filterId\` that is not of the generated form (${FILTER_ID_FORMAT_DESCRIPTION}): 400.`,
      '- Revoking a key does not delete its filters (links keep working until they expire); an admin key deletes them.',
    ].join('\n'),
  })
  @ApiParam({ name: 'filterId', description: `The ID returned on creation: ${FILTER_ID_FORMAT_DESCRIPTION}.`, example: FILTER_ID_EXAMPLE })
  @ApiOkResponse({ type: DeleteSharedFilterResponseDto, description: 'Deleted; its quota is free.' })
  @ApiBadRequestResponse({ description: 'The filterId is not of the generated form.' })
  @ApiInternalServerErrorResponse({
    description: `"${NOT_FOUND_MESSAGE}": missing, expired, deleted or another organization's filter; or the store is unavailable.`,
  })
  async delete(
    @CurrentPrincipal() principal: Principal,
    @Param('filterId') filterId: string,
  ): Promise<SuccessEnvelope<{ filterId: string }>> {
    return ok(await this.sharing.delete(principal, filterId));
  }
}
