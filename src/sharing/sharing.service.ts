import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import { ApiError, InvalidRequestException, SharedFilterNotFoundException } from '../common/errors/api-errors';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { CreateSharedFilterDto } from './dto/create-shared-filter.dto';
import { FILTER_ID_FORMAT_DESCRIPTION, generateFilterId, isFilterId } from './filter-id';
import {
  normalizeSharedFilterConfiguration,
  serializeSharedFilterConfiguration,
  SharedFilterConfiguration,
} from './shared-filter-configuration';
import { configurationTooLargeDetail, quotaExceededMessage, SharedFilterQuotaExceededException } from './shared-filter-limits';
import { SHARED_FILTER_STORE, SharedFilterStore } from './storage/shared-filter.store';
import type { Principal } from '../common/http/principal';

export const ORGANIZATION_MISMATCH_MESSAGE = 'The organizationId does not match the organization of the API key.';

@Injectable()
export class SharingService {
  constructor(
    @Inject(SHARED_FILTER_STORE) private readonly store: SharedFilterStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Stores the normalised configuration (defaults filled) under a new ID, for the key's organisation:
   * 400 when it is larger than SHARED_FILTER_MAX_BYTES, 403 when the organisation's quota is used up.
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
    const outcome = await this.store.save(
      {
        filterId,
        organizationId: principal.organizationId,
        configuration,
        configurationBytes,
        createdAt: new Date().toISOString(),
        creatorDataScope: principal.dataScope ?? '',
      },
      {
        ttlSeconds: config.sharedFilterTtlSeconds,
        quotaCount: config.sharedFilterQuotaCount,
        quotaBytes: config.sharedFilterQuotaBytes,
      },
    );
    if (!outcome.saved) {
      throw new SharedFilterQuotaExceededException(quotaExceededMessage(outcome.exceeded, outcome.usage, configurationBytes, config));
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
    if (!isFilterId(filterId)) {
      throw new InvalidRequestException([`filterId: Expected a shared filter ID: ${FILTER_ID_FORMAT_DESCRIPTION}`]);
    }
    const record = await this.store.find(filterId);
    if (!record || record.organizationId.toLowerCase() !== principal.organizationId.toLowerCase()) {
      throw new SharedFilterNotFoundException();
    }
    if (principal.dataScope && record.creatorDataScope !== principal.dataScope) throw new SharedFilterNotFoundException();
    return { filterConfiguration: normalizeSharedFilterConfiguration(record.configuration) };
  }
}
