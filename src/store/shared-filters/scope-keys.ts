import { Logger } from '@nestjs/common';
import { UpstreamUnavailableException } from '../../common/errors/api-errors';
import { ClickhouseService } from '../clickhouse/clickhouse.service';
import { SHARED_FILTER_STORAGE_NAME } from './shared-filter.store';

/**
 * The unrevoked keys of one data scope of an organisation, read from the API key table (ClickHouse, where both the
 * admin API and the CLI revoke keys): whose filters count together against a data-scoped key's share. A revoked key
 * is not among them, so its filters stop counting against the share of its scope's remaining keys.
 */
export class ScopeKeys {
  private readonly logger = new Logger(ScopeKeys.name);

  constructor(private readonly clickhouse: ClickhouseService) {}

  async unrevoked(organizationId: string, dataScope: string): Promise<string[]> {
    try {
      const rows = await this.clickhouse.query<{ key_id: string }>(
        `SELECT key_id FROM ${this.clickhouse.table('api_keys')} FINAL
         WHERE organization_id = {organization_id:UUID} AND data_scope = {data_scope:String} AND revoked_at IS NULL`,
        { organization_id: organizationId, data_scope: dataScope },
      );
      return rows.map((row) => row.key_id);
    } catch (error) {
      this.logger.error(`ClickHouse scope keys lookup failed: ${error instanceof Error ? error.message : String(error)}`);
      throw new UpstreamUnavailableException(SHARED_FILTER_STORAGE_NAME);
    }
  }
}
