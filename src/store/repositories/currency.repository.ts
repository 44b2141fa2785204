import { Injectable } from '@nestjs/common';
import { DEFAULT_REPORTING_CURRENCY } from '../../common/money/currency-codes';
import { ConversionPolicy, DEFAULT_CONVERSION_POLICY, LoadedRate, MAX_RATE_AGE_DAYS, RateBook } from '../../common/money/exchange-rates';
import { addDays } from '../../common/dates/calendar-date';
import type { CurrencyPresence } from '../../cost-query/currency-conversion';
import { ClickhouseService } from '../clickhouse/clickhouse.service';
import { clickhouseTimestamp } from '../../common/dates/clickhouse-time';

/** Per billing currency and period, the first and last usage day: read once per organisation and data version. */
export function currencyPresenceSql(costTable: string): string {
  return `SELECT currency, billingPeriod, toString(min(day)) AS firstDay, toString(max(day)) AS lastDay
       FROM (
         SELECT billing_currency AS currency, billing_period AS billingPeriod, usage_date AS day, count() AS line_items
         FROM ${costTable}
         WHERE organization_id = {organization_id:UUID}
         GROUP BY currency, billingPeriod, day
       )
       GROUP BY currency, billingPeriod
       ORDER BY currency, billingPeriod`;
}

/** How an organisation's answers are reported: in which currency, converted at which day's rate. */
export interface CurrencySettings {
  reportingCurrency: string;
  conversionPolicy: ConversionPolicy;
}

export const DEFAULT_CURRENCY_SETTINGS: CurrencySettings = {
  reportingCurrency: DEFAULT_REPORTING_CURRENCY,
  conversionPolicy: DEFAULT_CONVERSION_POLICY,
};

/** The rates loaded for one pair: how many, over which dates, from which sources. */
export interface LoadedPair {
  base: string;
  quote: string;
  rates: number;
  firstDate: string;
  lastDate: string;
  sources: string[];
}

/**
 * The SQL of an organisation's currency settings, exchange rates and where its costs are in which currency. The
 * organisation always comes from the caller's key (or the operator's --org), never from a request body.
 */
@Injectable()
export class CurrencyRepository {
  constructor(private readonly clickhouse: ClickhouseService) {}

  async settings(organizationId: string): Promise<CurrencySettings> {
    const [row] = await this.clickhouse.query<{ reporting_currency: string; conversion_policy: ConversionPolicy }>(
      `SELECT reporting_currency, conversion_policy FROM ${this.clickhouse.table('organization_settings')} FINAL
       WHERE organization_id = {organization_id:UUID}`,
      { organization_id: organizationId },
      { organizationId },
    );
    return row ? { reportingCurrency: row.reporting_currency, conversionPolicy: row.conversion_policy } : DEFAULT_CURRENCY_SETTINGS;
  }

  async saveSettings(organizationId: string, settings: CurrencySettings): Promise<void> {
    await this.clickhouse.insert('organization_settings', [
      {
        organization_id: organizationId,
        reporting_currency: settings.reportingCurrency,
        conversion_policy: settings.conversionPolicy,
        updated_at: clickhouseTimestamp(new Date()),
      },
    ]);
  }

  /**
   * Per billing currency and billing period, the first and last usage day with costs. The days are grouped first —
   * keys of the daily aggregate projections, so ClickHouse reads a projection, not the line items — then spanned.
   */
  async presence(organizationId: string): Promise<CurrencyPresence[]> {
    return this.clickhouse.query<CurrencyPresence>(
      currencyPresenceSql(this.clickhouse.table('cost_line_items')),
      { organization_id: organizationId },
      { organizationId },
    );
  }

  /**
   * The rates converting the organisation's currencies (`presence`) into `target`, over the dates its costs have: from
   * MAX_RATE_AGE_DAYS (and a month, for a billing period's rate) before the first, to two months past the last (a
   * period's rate is its last day's, at most a month past its last usage day).
   */
  async rateBook(organizationId: string, target: string, presence: CurrencyPresence[]): Promise<RateBook> {
    const quotes = [...new Set([target, ...presence.map((entry) => entry.currency)])];
    const first = presence.reduce((min, entry) => (entry.firstDay < min ? entry.firstDay : min), presence[0].firstDay);
    const last = presence.reduce((max, entry) => (entry.lastDay > max ? entry.lastDay : max), presence[0].lastDay);
    return new RateBook(await this.rates(organizationId, quotes, addDays(first, -MAX_RATE_AGE_DAYS - 31), addDays(last, 62)));
  }

  /** The loaded rates quoted in any of `quotes` between two dates: all a conversion among those currencies derives from. */
  async rates(organizationId: string, quotes: string[], from: string, to: string): Promise<LoadedRate[]> {
    return this.clickhouse.query<LoadedRate>(
      `SELECT toString(rate_date) AS date, base_currency AS base, quote_currency AS quote, toString(rate) AS rate, source
       FROM ${this.clickhouse.table('exchange_rates')} FINAL
       WHERE organization_id = {organization_id:UUID} AND quote_currency IN {quotes:Array(String)}
         AND rate_date BETWEEN {from:Date} AND {to:Date}`,
      { organization_id: organizationId, quotes, from, to },
      { organizationId },
    );
  }

  /**
   * Stores rates in one insert (one block, so all of them or none: parseRatesFile caps a file below a block); a rate
   * already loaded for the date and pair is replaced.
   */
  async insertRates(organizationId: string, rates: LoadedRate[]): Promise<void> {
    const loadedAt = clickhouseTimestamp(new Date());
    await this.clickhouse.insert(
      'exchange_rates',
      rates.map((rate) => ({
        organization_id: organizationId,
        rate_date: rate.date,
        base_currency: rate.base,
        quote_currency: rate.quote,
        rate: rate.rate,
        source: rate.source,
        loaded_at: loadedAt,
      })),
    );
  }

  async loadedPairs(organizationId: string): Promise<LoadedPair[]> {
    return this.clickhouse.query<LoadedPair>(
      `SELECT base_currency AS base, quote_currency AS quote, toUInt32(count()) AS rates,
              toString(min(rate_date)) AS firstDate, toString(max(rate_date)) AS lastDate, arraySort(groupUniqArray(source)) AS sources
       FROM ${this.clickhouse.table('exchange_rates')} FINAL
       WHERE organization_id = {organization_id:UUID}
       GROUP BY base, quote
       ORDER BY base, quote`,
      { organization_id: organizationId },
      { organizationId },
    );
  }
}
