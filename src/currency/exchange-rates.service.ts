import { Injectable } from '@nestjs/common';
import { InvalidRequestException } from '../common/errors/api-errors';
import { CurrencyRepository, CurrencySettings, LoadedPair } from '../store/repositories/currency.repository';
import { parseRatesFile, ParsedRatesFile, RatesFileError, RatesFileFormat } from './rates-file';

/** What one rates load stored. */
export interface RatesImportSummary {
  format: RatesFileFormat;
  rates: number;
  pairs: ParsedRatesFile['pairs'];
}

/**
 * Loading an organisation's exchange rates and setting its currency, for the CLI and the admin API alike. A file
 * is checked whole first (RatesFileError lists its problems by line) and stored in one insert: a bad file changes
 * nothing.
 */
@Injectable()
export class ExchangeRatesService {
  constructor(private readonly repository: CurrencyRepository) {}

  /** Parses and stores a rates file; a bad file is an InvalidRequestException naming `path` and each problem. */
  async importFile(organizationId: string, text: string, source: string | undefined, path = 'body'): Promise<RatesImportSummary> {
    let parsed: ParsedRatesFile;
    try {
      parsed = parseRatesFile(text, source);
    } catch (error) {
      if (error instanceof RatesFileError) throw new InvalidRequestException(error.problems.map((problem) => `${path}: ${problem}`));
      throw error;
    }
    await this.repository.insertRates(organizationId, parsed.rates);
    return { format: parsed.format, rates: parsed.rates.length, pairs: parsed.pairs };
  }

  settings(organizationId: string): Promise<CurrencySettings> {
    return this.repository.settings(organizationId);
  }

  /** Sets what is given, keeps the rest; returns the settings now in force. */
  async updateSettings(organizationId: string, change: Partial<CurrencySettings>): Promise<CurrencySettings> {
    return (await this.changeSettings(organizationId, change)).after;
  }

  /** Sets what is given, keeps the rest; returns the settings before and after (the audit trail records both). */
  async changeSettings(
    organizationId: string,
    change: Partial<CurrencySettings>,
  ): Promise<{ before: CurrencySettings; after: CurrencySettings }> {
    const before = await this.repository.settings(organizationId);
    const after = { ...before, ...definedOnly(change) };
    await this.repository.saveSettings(organizationId, after);
    return { before, after };
  }

  loadedPairs(organizationId: string): Promise<LoadedPair[]> {
    return this.repository.loadedPairs(organizationId);
  }

  /** The currencies the organisation's costs were billed in. */
  async billingCurrencies(organizationId: string): Promise<string[]> {
    return [...new Set((await this.repository.presence(organizationId)).map((entry) => entry.currency))].sort();
  }
}

function definedOnly<T extends object>(value: Partial<T>): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined && field !== null)) as Partial<T>;
}
