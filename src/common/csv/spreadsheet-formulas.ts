/**
 * Spreadsheets evaluate a cell whose text begins with one of these as a formula, quoted or not (OWASP
 * "CSV injection"): every CSV text cell that begins with one gets CSV_FORMULA_GUARD in front. The one
 * definition, also for the cells ClickHouse writes (src/cost-query/csv-safe-text.ts).
 */
export const CSV_FORMULA_PREFIXES: readonly string[] = ['=', '+', '-', '@', '\t', '\r'];
export const CSV_FORMULA_GUARD = "'";

/** `text` as a spreadsheet shows it as text: with CSV_FORMULA_GUARD in front when it begins with a formula prefix. */
export function csvSafeText(text: string): string {
  return CSV_FORMULA_PREFIXES.includes(text.charAt(0)) ? CSV_FORMULA_GUARD + text : text;
}
