import { readFile } from 'node:fs/promises';
import { InvalidRequestException } from '../common/errors/api-errors';
import { ExchangeRatesService } from '../currency/exchange-rates.service';
import type { CliCommand } from './cli-args';
import { CliOutput, EXIT, formatTable } from './cli-output';

type CurrencyCommand = Extract<CliCommand, { name: 'rates import' | 'rates list' | 'currency show' | 'currency set' }>;

/** `rates import|list`, `currency show|set`: an organisation's exchange rates and reporting currency. */
export async function currencyCommand(rates: ExchangeRatesService, command: CurrencyCommand, io: CliOutput): Promise<number> {
  const org = command.organizationId;
  switch (command.name) {
    case 'rates import':
      return importRates(rates, command, io);
    case 'rates list': {
      const pairs = await rates.loadedPairs(org);
      if (command.json) io.out(JSON.stringify(pairs));
      else if (pairs.length === 0) io.out(`No exchange rates loaded for organisation ${org}.`);
      else
        io.out(
          formatTable(
            ['PAIR', 'RATES', 'FIRST', 'LAST', 'SOURCES'],
            pairs.map((p) => [`${p.base}/${p.quote}`, String(p.rates), p.firstDate, p.lastDate, p.sources.join(', ')]),
          ),
        );
      return EXIT.ok;
    }
    case 'currency show':
    case 'currency set': {
      const settings =
        command.name === 'currency set'
          ? await rates.updateSettings(org, { reportingCurrency: command.reportingCurrency, conversionPolicy: command.conversionPolicy })
          : await rates.settings(org);
      const billed = await rates.billingCurrencies(org);
      if (command.json) io.out(JSON.stringify({ organizationId: org, ...settings, billingCurrencies: billed }));
      else
        io.out(
          [
            `Organisation ${org}`,
            `Reporting currency: ${settings.reportingCurrency}`,
            `Conversion: at the rate of each cost's ${settings.conversionPolicy === 'usage_date' ? 'usage day' : "billing period's last day"} (${settings.conversionPolicy})`,
            `Billed in: ${billed.join(', ') || '(no costs yet)'}`,
          ].join('\n'),
        );
      return EXIT.ok;
    }
  }
}

async function importRates(
  rates: ExchangeRatesService,
  command: Extract<CliCommand, { name: 'rates import' }>,
  io: CliOutput,
): Promise<number> {
  let text: string;
  try {
    text = await readFile(command.path, 'utf8');
  } catch (error) {
    io.err(`Error: cannot read ${command.path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    return EXIT.failure;
  }
  try {
    const summary = await rates.importFile(command.organizationId, text, command.source, command.path);
    if (command.json) io.out(JSON.stringify(summary));
    else {
      io.out(
        `Loaded ${summary.rates} exchange rates (${summary.format === 'ecb' ? 'ECB reference rates' : 'date,from,to,rate'}) for organisation ${command.organizationId}:`,
      );
      io.out(
        formatTable(
          ['PAIR', 'RATES', 'FIRST', 'LAST'],
          summary.pairs.map((p) => [p.pair, String(p.rates), p.first, p.last]),
        ),
      );
    }
    return EXIT.ok;
  } catch (error) {
    if (!(error instanceof InvalidRequestException)) throw error;
    io.err(`Error: the rates file was refused, nothing was loaded:\n  ${error.details.join('\n  ')}`);
    return EXIT.failure;
  }
}
