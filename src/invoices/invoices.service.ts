import { Inject, Injectable } from '@nestjs/common';
import { InvalidRequestException } from '../common/errors/api-errors';
import { todayUtc } from '../common/dates/calendar-date';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { OrganizationScope } from '../cost-query/filters.types';
import { dateRangeSpanProblem } from '../cost-query/guardrails';
import { buildInvoicesQuery, InvoiceTotalsRow, invoicePeriods, readInvoice } from '../cost-query/invoices.query';
import { ClickhouseService } from '../store/clickhouse/clickhouse.service';
import { costRowsTable } from '../store/cost-rows';
import { InvoicesDto, InvoicesRequestDto } from './dto/invoices.dto';

@Injectable()
export class InvoicesService {
  constructor(
    private readonly clickhouse: ClickhouseService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The invoices of the selected billing periods, each summed exactly in its own currency. */
  async invoices(scope: OrganizationScope, request: InvoicesRequestDto): Promise<InvoicesDto> {
    const filters = request.filters ?? {};
    const spanProblem = dateRangeSpanProblem('filters.inclusions.dateRange', filters.inclusions?.dateRange, this.config.maxDateRangeDays);
    if (spanProblem) throw new InvalidRequestException([spanProblem]);
    const query = { scope, filters, today: todayUtc(), defaultWindowDays: this.config.defaultWindowDays };
    const maxRows = this.config.maxResultRows;
    const { sql, params } = buildInvoicesQuery(costRowsTable(this.clickhouse), query, maxRows + 1);
    const invoices = (await this.clickhouse.query<InvoiceTotalsRow>(sql, params, scope)).map(readInvoice);
    if (invoices.length > maxRows) {
      throw new InvalidRequestException([
        `filters: more than ${maxRows} invoices (MAX_RESULT_ROWS); select fewer filters.inclusions.billingPeriods or narrow by accountIds or integrationIds`,
      ]);
    }
    return { invoices, billing_periods: invoicePeriods(filters.inclusions ?? {}, query) };
  }
}
