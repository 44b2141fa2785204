/**
 * A test's estate as FOCUS line items written by hand (AWS, USD, billing account 100000000000, one charge a day), and
 * the export that holds them: the cost-category, allocation and Settings suites import the same shape.
 */
export interface FocusLine {
  day: string;
  /** BillingPeriodStart's month (yyyy-MM); default the day's. */
  period?: string;
  account: string;
  service: string;
  tags?: Record<string, string>;
  categories?: Record<string, string>;
  cost: string;
}

export const periodOf = (line: FocusLine) => line.period ?? line.day.slice(0, 7);

const HEADER = [
  'BilledCost',
  'EffectiveCost',
  'ListCost',
  'ChargeCategory',
  'ChargePeriodStart',
  'BillingPeriodStart',
  'BillingAccountId',
  'SubAccountId',
  'ServiceName',
  'ProviderName',
  'BillingCurrency',
  'Tags',
  'x_CostCategories',
];

/** The lines as a FOCUS CSV export: each cost billed, effective and listed alike. */
export function focusLinesCsv(lines: readonly FocusLine[]): string {
  const quoted = (value: string) => `"${value.replace(/"/g, '""')}"`;
  const records = lines.map((line) =>
    [
      line.cost,
      line.cost,
      line.cost,
      'Usage',
      `${line.day}T00:00:00Z`,
      `${periodOf(line)}-01T00:00:00Z`,
      '100000000000',
      line.account,
      line.service,
      'AWS',
      'USD',
      JSON.stringify(line.tags ?? {}),
      JSON.stringify(line.categories ?? {}),
    ]
      .map(quoted)
      .join(','),
  );
  return `${[HEADER.join(','), ...records].join('\n')}\n`;
}

/** The first day of the month `offset` months from `date`'s. */
export function monthStart(date: string, offset = 0): string {
  const months = Number(date.slice(0, 4)) * 12 + Number(date.slice(5, 7)) - 1 + offset;
  return `${Math.floor(months / 12)}-${String((months % 12) + 1).padStart(2, '0')}-01`;
}
