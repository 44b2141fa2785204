import { ClickhouseService } from '../infrastructure/clickhouse/clickhouse.service';

export interface DemoDataOptions {
  organizationId: string;
  /** Days of history ending yesterday (UTC); default 396 (13 months). */
  days?: number;
  seed?: number;
  /** Today's date, YYYY-MM-DD (UTC); injectable for tests. */
  today?: string;
}

export interface DemoDataResult {
  rows: number;
  from: string;
  to: string;
}

// Placeholder until the generator lands (being written now).
export async function loadDemoData(_clickhouse: ClickhouseService, _options: DemoDataOptions): Promise<DemoDataResult> {
  throw new Error('not implemented yet');
}
