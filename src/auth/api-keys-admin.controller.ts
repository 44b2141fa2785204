import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Inject, Param, Post, Query } from '@nestjs/common';
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
import { ApiError } from '../common/errors/api-errors';
import { Authorized } from '../common/http/authorized.decorator';
import { ok, SuccessEnvelope } from '../common/http/envelope';
import type { Principal } from '../common/http/principal';
import { CurrentPrincipal } from '../common/http/request-context';
import { canonicalDataScope, describeDataScope, organizationScopeOf } from '../cost-query/data-scope';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { SETTING_DEFAULTS } from '../config/settings';
import type { AuditOrigin } from '../store/repositories/audit-event';
import { ApiKeyOrigin } from '../infrastructure/audit-trail/audit-origin';
import { AuditTrail } from '../infrastructure/audit-trail/audit-trail.service';
import { encodeKeyListCursor, readKeyListPage } from './api-key-list-page';
import { ApiKeyRecord, ApiKeysService } from './api-keys.service';
import { ADMIN_SCOPE, checkDataScopeRestricts, checkDataScopeSize, checkGrant } from './key-grants';
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
  constructor(
    private readonly apiKeys: ApiKeysService,
    private readonly auditTrail: AuditTrail,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get()
  @Authorized(ADMIN, `The API key lacks the \`${ADMIN}\` scope, or has a data scope.`)
  @ApiOperation({ operationId: 'listApiKeys', summary: "List the organisation's API keys (never the keys themselves)" })
  @ApiOkResponse({ type: ApiKeyListResponseDto })
  @ApiQuery({
    name: 'limit',
    required: false,
    type: 'integer',
    description: `Keys per page, 1 to API_KEY_LIST_PAGE_SIZE (default ${SETTING_DEFAULTS.API_KEY_LIST_PAGE_SIZE}, also the default page).`,
  })
  @ApiQuery({ name: 'cursor', required: false, type: String, description: 'The `nextCursor` of the previous page.' })
  async list(@CurrentPrincipal() principal: Principal, @Query() query: Record<string, unknown>): Promise<SuccessEnvelope<ApiKeyListDto>> {
    refuseScopedAdmin(principal);
    const page = readKeyListPage(query, this.config.apiKeys.listPageSize);
    const records = await this.apiKeys.list(principal.organizationId, { ...page, limit: page.limit + 1 });
    const keys = records.slice(0, page.limit);
    const last = keys.at(-1);
    const more = records.length > page.limit && last !== undefined;
    const nextCursor = more ? encodeKeyListCursor({ createdAtMs: Date.parse(last.createdAt), keyId: last.keyId }) : null;
    return ok({ keys: keys.map(toDto), nextCursor });
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
  async create(
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateApiKeyDto,
    @ApiKeyOrigin() origin: AuditOrigin,
  ): Promise<SuccessEnvelope<CreatedApiKeyDto>> {
    refuseScopedAdmin(principal);
    const scopes = [...new Set(body.scopes)];
    const dataScope = canonicalDataScope(body.dataScope ?? {});
    checkDataScopeRestricts(body.dataScope, dataScope);
    const limits = this.config.apiKeys;
    checkDataScopeSize(dataScope, { maxValues: limits.dataScopeMaxValues, maxBytes: limits.dataScopeMaxBytes });
    checkGrant(principal, scopes, dataScope);
    const created = await this.apiKeys.createWithinCap(
      principal.organizationId,
      body.name.trim(),
      scopes,
      dataScope,
      limits.maxActivePerOrganization,
    );
    if ('active' in created) throw keyLimitReached(created.active, limits.maxActivePerOrganization);
    const dto = toDto(created.record);
    await this.auditTrail.record(origin, 'api-key.created', dto.id, { name: dto.name, scopes: dto.scopes, dataScope: dto.dataScope });
    return ok({ ...dto, key: created.key });
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
  async revoke(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @ApiKeyOrigin() origin: AuditOrigin,
  ): Promise<SuccessEnvelope<ApiKeyDto>> {
    refuseScopedAdmin(principal);
    const revoked = /^[A-Za-z0-9]{1,64}$/.test(id) ? await this.apiKeys.revokeInOrganization(principal.organizationId, id) : undefined;
    if (!revoked) throw new ApiError(HttpStatus.NOT_FOUND, KEY_NOT_FOUND);
    // Revoking a revoked key again changes nothing: no event.
    if (revoked.revokedNow) await this.auditTrail.record(origin, 'api-key.revoked', revoked.record.keyId, { name: revoked.record.name });
    return ok(toDto(revoked.record));
  }
}

/** 403, not 429: waiting does not free a place, revoking a key does. */
function keyLimitReached(active: number, limit: number): ApiError {
  return new ApiError(
    HttpStatus.FORBIDDEN,
    `API key limit reached: this organization has ${active} active keys and the limit is ${limit} (MAX_ACTIVE_API_KEYS_PER_ORGANIZATION). Revoke a key it no longer needs first.`,
  );
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
