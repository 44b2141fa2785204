import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import { ApiError, InvalidRequestException, SharedFilterNotFoundException } from '../common/errors/api-errors';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { CreateSharedFilterDto } from './dto/create-shared-filter.dto';
import { FILTER_ID_FORMAT_DESCRIPTION, generateFilterId, isFilterId } from './filter-id';
import {
  normalizeSharedFilterConfiguration,
  serializeSharedFilterConfiguration,
  SharedFilterConfiguration,
} from '../store/shared-filters/shared-filter-configuration';
import {
  configurationTooLargeDetail,
  keyQuotaShare,
  quotaExceededMessage,
  SharedFilterQuotaExceededException,
} from './shared-filter-limits';
import { ScopeKeys } from '../store/shared-filters/scope-keys';
import { SHARED_FILTER_STORE, SharedFilterRecord, SharedFilterStore } from '../store/shared-filters/shared-filter.store';
import type { Principal } from '../common/http/principal';

export const ORGANIZATION_MISMATCH_MESSAGE = 'The organizationId does not match the organization of the API key.';
export const DELETE_SCOPE_MESSAGE =
  'This API key lacks the scope required for this operation: shared-filters:write (to delete the filters it created) or api-keys:admin.';
export const NOT_THE_CREATOR_MESSAGE =
  'Only the API key that created this shared filter, or an admin key of its organization (api-keys:admin, without a data scope), may delete it.';

/** An admin key of the organisation: `api-keys:admin` and no data scope (the admin API refuses a scoped one). */
export function isAdminKey(principal: Principal): boolean {
  return principal.scopes.includes('api-keys:admin') && !principal.dataScope;
}

@Injectable()
export class SharingService {
  constructor(
    @Inject(SHARED_FILTER_STORE) private readonly store: SharedFilterStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly scopeKeys: ScopeKeys,
  ) {}

  /**
   * Stores the normalised configuration (defaults filled) under a new ID, for the key's organisation:
   * 400 when it is larger than SHARED_FILTER_MAX_BYTES, 403 when the organisation's quota is used up or the key's
   * share of it (for a data-scoped key: the share of all unrevoked keys of its scope together).
   */
  async create(principal: Principal, body: CreateSharedFilterDto): Promise<{ filterId: string }> {
    if (body.organizationId.toLowerCase() !== principal.organizationId.toLowerCase()) {
      throw new ApiError(HttpStatus.FORBIDDEN, ORGANIZATION_MISMATCH_MESSAGE);
    }
    // Settings are read per request, not at construction, so an operator's setting applies to every write.
    const config = this.config;
    const configuration = normalizeSharedFilterConfiguration(body.filterConfiguration);
    const configurationBytes = Buffer.byteLength(serializeSharedFilterConfiguration(configuration));
    if (configurationBytes > config.sharedFilterMaxBytes) {
      throw new InvalidRequestException([configurationTooLargeDetail(configurationBytes, config.sharedFilterMaxBytes)]);
    }
    const filterId = generateFilterId();
    const share = keyQuotaShare(config);
    const holderKeyIds = principal.dataScope
      ? [...new Set([principal.keyId, ...(await this.scopeKeys.unrevoked(principal.organizationId, principal.dataScope))])]
      : [principal.keyId];
    const outcome = await this.store.save(
      {
        filterId,
        organizationId: principal.organizationId,
        configuration,
        configurationBytes,
        createdAt: new Date().toISOString(),
        creatorDataScope: principal.dataScope ?? '',
        creatorKeyId: principal.keyId,
      },
      {
        ttlSeconds: config.sharedFilterTtlSeconds,
        quotaCount: config.sharedFilterQuotaCount,
        quotaBytes: config.sharedFilterQuotaBytes,
        shareCount: share.count,
        shareBytes: share.bytes,
        holderKeyIds,
      },
    );
    if (!outcome.saved) {
      throw new SharedFilterQuotaExceededException(
        quotaExceededMessage(outcome.exceeded, outcome.usage, configurationBytes, config, outcome.share, Boolean(principal.dataScope)),
      );
    }
    return { filterId };
  }

  /**
   * Missing, expired and another organisation's filter all answer the same 500 (spec), so a caller
   * cannot learn that another organisation's ID exists. A malformed ID is bad input: 400. A key with a data
   * scope reads only filters created under exactly its scope (a filter's values could name rows outside
   * it); any other filter is, for that key, missing too. A key without a scope reads all of its organisation's.
   */
  async get(principal: Principal, filterId: string): Promise<{ filterConfiguration: SharedFilterConfiguration }> {
    const record = await this.readable(principal, filterId);
    return { filterConfiguration: normalizeSharedFilterConfiguration(record.configuration) };
  }

  /**
   * Deletes a filter and frees its quota at once. Allowed to the key that created it and to an admin key (api-keys:admin,
   * without a data scope) of its organisation; any other key with `shared-filters:write` is a 403 once the filter is
   * found (it could read it anyway), a key with neither scope a 403 before anything is looked up. A missing, expired,
   * already deleted or other organisation's filter (or one outside a scoped key's scope) is the read's 500, so
   * deleting reveals no more than reading.
   */
  async delete(principal: Principal, filterId: string): Promise<{ filterId: string }> {
    const admin = isAdminKey(principal);
    if (!admin && !principal.scopes.includes('shared-filters:write')) throw new ApiError(HttpStatus.FORBIDDEN, DELETE_SCOPE_MESSAGE);
    const record = await this.readable(principal, filterId);
    if (!admin && record.creatorKeyId !== principal.keyId) throw new ApiError(HttpStatus.FORBIDDEN, NOT_THE_CREATOR_MESSAGE);
    if (!(await this.store.delete(record))) throw new SharedFilterNotFoundException();
    return { filterId };
  }

  /** The filter as the key may see it, or the 400 (malformed id) and the spec's 500 (not found for this key). */
  private async readable(principal: Principal, filterId: string): Promise<SharedFilterRecord> {
    if (!isFilterId(filterId)) {
      throw new InvalidRequestException([`filterId: Expected a shared filter ID: ${FILTER_ID_FORMAT_DESCRIPTION}`]);
    }
    const record = await this.store.find(filterId);
    if (!record || record.organizationId.toLowerCase() !== principal.organizationId.toLowerCase()) {
      throw new SharedFilterNotFoundException();
    }
    if (principal.dataScope && record.creatorDataScope !== principal.dataScope) throw new SharedFilterNotFoundException();
    return record;
  }
}
