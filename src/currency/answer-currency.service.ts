import { Injectable } from '@nestjs/common';
import { LeastRecentlyUsed } from '../common/cache/least-recently-used';
import { InvalidRequestException } from '../common/errors/api-errors';
import { compareExact, parseExactDecimal } from '../common/money/exact-decimal';
import { EffectiveRate, MAX_RATE_AGE_DAYS, RATE_RANGE, RATE_SCALE, RateBook } from '../common/money/exchange-rates';
import {
  AnswerWindow,
  CurrencyConversion,
  CurrencyPresence,
  MAX_CONVERTED_CURRENCIES,
  MISSING_RATE_SIGNAL,
  planConversion,
} from '../cost-query/currency-conversion';
import type { OrganizationScope } from '../cost-query/filters.types';
import { CostDataVersion } from '../store/data-version/cost-data-version.service';
import { CurrencyRepository, CurrencySettings } from '../store/repositories/currency.repository';

/** An answer's money: its currency, and how rows in other currencies are converted into it (absent: none are). */
export interface AnswerMoney {
  currency: string;
  conversion?: CurrencyConversion;
}

/** Per converted currency, the rates an answer applied: their range, dates, derivations and sources. */
export interface AppliedRates {
  from: string;
  to: string;
  policy: string;
  firstDate: string;
  lastDate: string;
  minRate: string;
  maxRate: string;
  derivations: string[];
  sources: string[];
}

/** What an organisation's conversions are planned from, read once per data version (rates and settings included). */
interface OrganizationMoney {
  version: string;
  settings: Promise<CurrencySettings>;
  presence: Promise<CurrencyPresence[]>;
  /** Rate books by the currency converted into. */
  books: Map<string, Promise<RateBook>>;
}

/** Organisations whose money context is remembered at once (the least recently used is forgotten first). */
const REMEMBERED_ORGANIZATIONS = 1_000;

/**
 * The currency of every money answer and its conversion: the request's `currency`, else the organisation's
 * reporting currency; rows billed in another currency converted at the rate of their usage day or of their billing
 * period's last day (the organisation's policy). No answer ever adds two currencies: a row without a rate refuses
 * the answer with a 400 naming the pair and the dates, never a silent 1:1.
 */
@Injectable()
export class AnswerCurrencyService {
  private readonly organizations = new LeastRecentlyUsed<OrganizationMoney>(REMEMBERED_ORGANIZATIONS);

  constructor(
    private readonly repository: CurrencyRepository,
    private readonly versions: CostDataVersion,
  ) {}

  /** The organisation's settings at its current data version. */
  async settings(organizationId: string): Promise<CurrencySettings> {
    return (await this.context(organizationId)).settings;
  }

  /** The currency an answer is in: the requested one, else the organisation's reporting currency. */
  async currencyOf(organizationId: string, requested: string | undefined): Promise<string> {
    return requested ?? (await this.settings(organizationId)).reportingCurrency;
  }

  /**
   * Computes an answer in one currency: plans the conversion of the window the answer reads, runs `compute` with it,
   * and turns a statement that met a row without a rate into the 400 that names the pair and the dates. A plan from
   * an outdated picture of the organisation's costs (another process imported meanwhile) is made again once.
   */
  async answer<T>(
    scope: OrganizationScope,
    requested: string | undefined,
    window: AnswerWindow,
    compute: (money: AnswerMoney) => Promise<T>,
  ): Promise<T> {
    let money = await this.plan(scope.organizationId, requested, window);
    try {
      return await compute(money);
    } catch (error) {
      if (!isMissingRateSignal(error) || !money.conversion) throw error;
      if (money.conversion.missing.size === 0) {
        this.organizations.delete(scope.organizationId.toLowerCase());
        money = await this.plan(scope.organizationId, requested, window, true);
        try {
          return await compute(money);
        } catch (again) {
          if (!isMissingRateSignal(again) || !money.conversion) throw again;
        }
      }
      throw new InvalidRequestException(missingRateDetails(money.conversion!));
    }
  }

  /** The rates an answer that converted `currencies` applied, per currency (for /data's summary). */
  appliedRates(money: AnswerMoney, currencies: string[]): AppliedRates[] {
    if (!money.conversion) return [];
    return currencies.flatMap((currency) => {
      const byKey = money.conversion!.rates.get(currency);
      return byKey?.size ? [summarise(money.conversion!, currency, byKey)] : [];
    });
  }

  private async plan(organizationId: string, requested: string | undefined, window: AnswerWindow, fresh = false): Promise<AnswerMoney> {
    const context = await this.context(organizationId, fresh);
    const settings = await context.settings;
    const currency = requested ?? settings.reportingCurrency;
    const presence = await context.presence;
    if (presence.every((entry) => entry.currency === currency)) return { currency };
    const book = await this.book(organizationId, context, currency, presence);
    const conversion = planConversion(currency, settings.conversionPolicy, presence, window, book);
    if (conversion && conversion.rates.size > MAX_CONVERTED_CURRENCIES) {
      throw new InvalidRequestException([
        `currency: the answer would convert ${conversion.rates.size} currencies, more than ${MAX_CONVERTED_CURRENCIES}; filter it with billingCurrencies`,
      ]);
    }
    return { currency, conversion };
  }

  private async context(organizationId: string, fresh = false): Promise<OrganizationMoney> {
    const id = organizationId.toLowerCase();
    const version = fresh ? await this.versions.readNow(organizationId) : await this.versions.current(organizationId);
    const known = this.organizations.get(id);
    if (known?.version === version) return known;
    const context: OrganizationMoney = {
      version,
      settings: this.repository.settings(organizationId),
      presence: this.repository.presence(organizationId),
      books: new Map(),
    };
    // A failed read is not remembered: the next request reads again.
    const forget = () => this.organizations.forget(id, context);
    context.settings.catch(forget);
    context.presence.catch(forget);
    this.organizations.set(id, context);
    return context;
  }

  /** The rates converting the organisation's currencies into `target`, read once per data version. */
  private book(organizationId: string, context: OrganizationMoney, target: string, presence: CurrencyPresence[]): Promise<RateBook> {
    let book = context.books.get(target);
    if (!book) {
      book = this.repository.rateBook(organizationId, target, presence);
      book.catch(() => context.books.delete(target));
      context.books.set(target, book);
    }
    return book;
  }
}

function isMissingRateSignal(error: unknown): boolean {
  return error instanceof Error && error.message.includes(MISSING_RATE_SIGNAL);
}

/**
 * The refusal: per currency pair, the first and last day (or period) lacking a rate, and how to load rates; then those
 * whose rate lies outside RATE_RANGE, with the first one's rate (how it was derived, of which day, its value).
 */
export function missingRateDetails(conversion: CurrencyConversion): string[] {
  const load =
    'load rates with `npm run -s cli -- rates import <file> --org <organisation>` or POST /v1/admin/exchange-rates (ECB reference rates or date,from,to,rate)';
  const byPeriod = conversion.policy === 'period_end';
  const pairs = [...conversion.missing].filter(([, keys]) => keys.length > 0);
  if (pairs.length === 0) return [`currency: a cost has no exchange rate into ${conversion.target}; ${load}`];
  return pairs.flatMap(([currency, keys]) => {
    const unusable = conversion.unusable.get(currency) ?? new Map<string, EffectiveRate>();
    const absent = keys.filter((key) => !unusable.has(key));
    const details: string[] = [];
    if (absent.length > 0) {
      const what = byPeriod
        ? `billing period ${span(absent)} (the rate of the period's last day, or of up to ${MAX_RATE_AGE_DAYS} days before it)`
        : `${span(absent)} (a rate of that day or of up to ${MAX_RATE_AGE_DAYS} days before it)`;
      details.push(`currency: no exchange rate from ${currency} to ${conversion.target} for ${what}; ${load}`);
    }
    if (unusable.size > 0) {
      const refused = keys.filter((key) => unusable.has(key));
      details.push(
        `currency: no usable exchange rate from ${currency} to ${conversion.target} for ${byPeriod ? 'billing period ' : ''}${span(refused)} ` +
          `(${describeRate(unusable.get(refused[0])!)}, outside ${RATE_RANGE.text}); ${load}`,
      );
    }
    return details;
  });
}

/** `2026-10-05`, or `2026-10-05 to 2026-10-09`, of sorted keys. */
function span(keys: string[]): string {
  return keys.length === 1 ? keys[0] : `${keys[0]} to ${keys[keys.length - 1]}`;
}

/** `the cross rate via EUR of 2026-10-05 is 0 at 18 places`. */
function describeRate(rate: EffectiveRate): string {
  const value = rate.rate === '0' ? `0 at ${RATE_SCALE} places` : rate.rate;
  return `the ${rate.derivation} rate${rate.via ? ` via ${rate.via}` : ''} of ${rate.rateDate} is ${value}`;
}

/** The rates of one currency, by day (or billing period): their range, the first and last key, how and whence. */
function summarise(conversion: CurrencyConversion, currency: string, byKey: Map<string, EffectiveRate>): AppliedRates {
  const rates = [...byKey.values()];
  const byValue = [...rates].sort((a, b) => compareExact(parseExactDecimal(a.rate)!, parseExactDecimal(b.rate)!));
  const dates = [...byKey.keys()].sort();
  return {
    from: currency,
    to: conversion.target,
    policy: conversion.policy,
    firstDate: dates[0],
    lastDate: dates[dates.length - 1],
    minRate: byValue[0].rate,
    maxRate: byValue[byValue.length - 1].rate,
    derivations: [...new Set(rates.map((rate) => (rate.via ? `${rate.derivation} via ${rate.via}` : rate.derivation)))].sort(),
    sources: [...new Set(rates.map((rate) => rate.source))].sort(),
  };
}
