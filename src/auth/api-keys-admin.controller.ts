import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Param, Post } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { ApiError } from '../common/errors/api-errors';
import { Authorized } from '../common/http/authorized.decorator';
import { ok, SuccessEnvelope } from '../common/http/envelope';
import type { Principal } from '../common/http/principal';
import { CurrentPrincipal } from '../common/http/request-context';
import { canonicalDataScope, describeDataScope, organizationScopeOf } from '../cost-query/data-scope';
import { ApiKeyRecord, ApiKeysService } from './api-keys.service';
import { ADMIN_SCOPE, checkDataScopeRestricts, checkGrant } from './key-grants';
import {
  ApiKeyDto,
  ApiKeyListDto,
  ApiKeyListResponseDto,
  CreateApiKeyDto,
  CreatedApiKeyDto,
  CreatedApiKeyResponseDto,
  RevokedApiKeyResponseDto,
} from './dto/api-key-admin.dto';

const ADMIN = ADMIN_SCOPE;
/** The same answer for a key that does not exist and one of another organisation. */
const KEY_NOT_FOUND = 'API key not found.';
const SCOPED_ADMIN = 'Managing API keys needs a key without a data scope: a scoped key must not create keys that see more than it does.';

/**
 * Settings > API keys as an API: an organisation's admin key lists, creates and revokes the
 * organisation's keys (never another's). The full key is in the create answer only.
 */
@ApiTags('API keys (admin)')
@Controller('admin/api-keys')
export class ApiKeysAdminController {
  constructor(private readonly apiKeys: ApiKeysService) {}

  @Get()
  @Authorized(ADMIN, `The API key lacks the \`${ADMIN}\` scope, or has a data scope.`)
  @ApiOperation({ operationId: 'listApiKeys', summary: "List the organisation's API keys (never the keys themselves)" })
  @ApiOkResponse({ type: ApiKeyListResponseDto })
  async list(@CurrentPrincipal() principal: Principal): Promise<SuccessEnvelope<ApiKeyListDto>> {
    refuseScopedAdmin(principal);
    const records = await this.apiKeys.list(principal.organizationId);
    return ok({ keys: records.map(toDto) });
  }

  @Post()
  @HttpCode(HttpStatus.CREATED)
  @Authorized(ADMIN, `The API key lacks the \`${ADMIN}\` scope, or has a data scope.`)
  @ApiOperation({
    operationId: 'createApiKey',
    summary: 'Create an API key for the organisation; the full key is shown once',
    description:
      'The answer carries the full key (`key`): store it now, it is never shown again (only its SHA-256 is kept). A `dataScope` confines the key to a slice of the organisation on every endpoint, for its whole life; given, it must restrict something (400 otherwise), and never with `api-keys:admin` (400). The creating key grants only permissions it holds itself (403 naming the others).',
  })
  @ApiCreatedResponse({ type: CreatedApiKeyResponseDto })
  @ApiBadRequestResponse({ description: 'Invalid body: name, scopes or dataScope (the message names each offending path).' })
  async create(@CurrentPrincipal() principal: Principal, @Body() body: CreateApiKeyDto): Promise<SuccessEnvelope<CreatedApiKeyDto>> {
    refuseScopedAdmin(principal);
    const scopes = [...new Set(body.scopes)];
    const dataScope = canonicalDataScope(body.dataScope ?? {});
    checkDataScopeRestricts(body.dataScope, dataScope);
    checkGrant(principal, scopes, dataScope);
    const { key, record } = await this.apiKeys.create(principal.organizationId, body.name.trim(), scopes, dataScope);
    return ok({ ...toDto(record), key });
  }

  @Delete(':id')
  @Authorized(ADMIN, `The API key lacks the \`${ADMIN}\` scope, or has a data scope.`)
  @ApiOperation({
    operationId: 'revokeApiKey',
    summary: 'Revoke an API key of the organisation (idempotent)',
    description:
      'Every instance refuses the key within API_KEY_CACHE_TTL_SECONDS. A key of another organisation is answered exactly like one that does not exist (404).',
  })
  @ApiParam({ name: 'id', description: 'The key id, as listed.', example: 'Xy12Ab34Cd56' })
  @ApiOkResponse({ type: RevokedApiKeyResponseDto })
  @ApiNotFoundResponse({ description: `\`${KEY_NOT_FOUND}\`: no key with this id in the organisation.` })
  async revoke(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<SuccessEnvelope<ApiKeyDto>> {
    refuseScopedAdmin(principal);
    const revoked = /^[A-Za-z0-9]{1,64}$/.test(id) ? await this.apiKeys.revokeInOrganization(principal.organizationId, id) : undefined;
    if (!revoked) throw new ApiError(HttpStatus.NOT_FOUND, KEY_NOT_FOUND);
    return ok(toDto(revoked));
  }
}

function refuseScopedAdmin(principal: Principal): void {
  if (principal.dataScope) throw new ApiError(HttpStatus.FORBIDDEN, SCOPED_ADMIN);
}

function toDto(record: ApiKeyRecord): ApiKeyDto {
  const dataScope = organizationScopeOf({ organizationId: record.organizationId, dataScope: record.dataScope }).dataScope;
  return {
    id: record.keyId,
    name: record.name,
    scopes: record.scopes,
    dataScope: dataScope ?? null,
    dataScopeDescription: describeDataScope(dataScope),
    createdAt: record.createdAt,
    revokedAt: record.revokedAt,
    lastUsedAt: record.lastUsedAt ?? null,
  };
}
