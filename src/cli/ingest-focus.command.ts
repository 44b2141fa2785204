import { EXIT } from './cli-output';
import { messageOf } from '../common/errors/message-of';
import { ClickhouseService } from '../store/clickhouse/clickhouse.service';
import { describeImportedContracts } from '../ingest/contract-commitment-load';
import { FocusIngestError } from '../ingest/focus-files';
import { FilesToWrite, ingestFocus, IngestFocusOptions, IngestFocusSummary, IngestProgress } from '../ingest/ingest-focus';
import { describeKey, type TagKeyActivationService } from '../tag-keys/tag-key-activation.service';
import type { KeyActivation } from '../store/repositories/tag-keys.repository';

/** Where the command writes; structurally a CliOutput, plus an optional live progress line. */
export interface IngestCommandOutput {
  out(text: string): void;
  err(text: string): void;
  /** Called with a status line at most every PROGRESS_INTERVAL_MS; give it only on a terminal (see ttyProgressLine). */
  progress?(line: string): void;
}

const PROGRESS_INTERVAL_MS = 250;

/** What `ingest focus` is given: its command line, parsed and checked by the CLI (src/cli/cli-args.ts). */
export interface IngestFocusCommandOptions extends Omit<IngestFocusOptions, 'onProgress' | 'beforeWriting'> {
  json: boolean;
}

/**
 * `ingest focus …`: runs the import, shows progress, prints a summary to reconcile against the invoice; for an
 * organisation that never chose its tag keys, activates the suggested ones (`tagKeys`, TAG_KEYS_DEFAULT) and waits:
 * before a first import writes a row, else after the import.
 */
export async function runIngestFocusCommand(
  options: IngestFocusCommandOptions,
  clickhouse: ClickhouseService,
  io: IngestCommandOutput,
  tagKeys?: TagKeyActivationService,
): Promise<number> {
  let lastProgress = 0;
  const onProgress = io.progress
    ? (p: IngestProgress) => {
        const now = Date.now();
        if (p.phase === 'loading' && now - lastProgress < PROGRESS_INTERVAL_MS) return;
        lastProgress = now;
        io.progress!(progressLine(p));
      }
    : undefined;
  try {
    const { paths, organizationId, integrationId } = options;
    let activatedBeforeWriting: KeyActivation[] = [];
    const beforeWriting = tagKeys
      ? async (files: FilesToWrite) => {
          activatedBeforeWriting = await activateSuggestedKeys(
            io,
            (started) => tagKeys.activateSuggestedBeforeFirstImport(organizationId, () => files.keyPresence(), started),
            [],
          );
          return activatedBeforeWriting;
        }
      : undefined;
    const summary = await ingestFocus(clickhouse, { paths, organizationId, integrationId, onProgress, beforeWriting });
    io.progress?.('');
    const activatedTagKeys =
      activatedBeforeWriting.length > 0 || !tagKeys
        ? activatedBeforeWriting.map(describeKey)
        : await activateSuggestedKeys(io, (started) => tagKeys.activateSuggestedKeys(organizationId, started), []);
    io.out(options.json ? JSON.stringify({ ...summary, activatedTagKeys }, null, 2) : formatSummary(summary, activatedTagKeys));
    return EXIT.ok;
  } catch (error) {
    io.progress?.('');
    if (error instanceof FocusIngestError) {
      io.err(`ingest failed: ${error.message}\nNothing was changed.`);
      return EXIT.failure;
    }
    throw error;
  }
}

/**
 * The default for an organisation that never chose its keys: the suggested ones activated (`kind:key` each), before a
 * first import writes a row (from its files), else after the import (and back-filled). A failure fails nothing
 * imported: the keys stay back-filling, read from the full maps, until `tag-keys set` is run again.
 */
async function activateSuggestedKeys<T>(
  io: IngestCommandOutput,
  activate: (started: (keys: string[]) => void) => Promise<T>,
  none: T,
): Promise<T> {
  try {
    return await activate((keys) => io.progress?.(`activating the suggested tag keys ${keys.join(', ')} (TAG_KEYS_DEFAULT)…`));
  } catch (error) {
    io.err(`Warning: activating the suggested tag keys failed (the import stands; run \`tag-keys set\` again): ${messageOf(error)}`);
    return none;
  } finally {
    io.progress?.('');
  }
}

export function progressLine(p: IngestProgress): string {
  const seconds = Math.max(p.elapsedMs / 1000, 0.001);
  const file = `file ${p.fileIndex + 1}/${p.files}`;
  const bytes = `${formatBytes(p.bytesRead)}/${formatBytes(p.bytesTotal)}`;
  const rate = `${formatBytes(p.bytesRead / seconds)}/s`;
  const rows = `${p.rows.toLocaleString('en-US')} rows (${Math.round(p.rows / seconds).toLocaleString('en-US')} rows/s)`;
  if (p.phase === 'completing') return `published (answered from now on), building its summaries…  ${rows}  ${seconds.toFixed(1)} s`;
  return `${p.phase} ${file}  ${bytes}  ${rate}  ${rows}  ${seconds.toFixed(1)} s`;
}

export function formatSummary(s: IngestFocusSummary, activatedTagKeys: string[] = []): string {
  const oneCurrency = s.currencies.length <= 1;
  return [
    `Imported ${s.rows.toLocaleString('en-US')} rows from ${s.files} file(s) (${formatBytes(s.bytes)}) for organisation ${s.organizationId} ` +
      `in ${(s.elapsedMs / 1000).toFixed(1)} s, answered after ${(s.publishedAfterMs / 1000).toFixed(1)} s ` +
      `(${s.publishedRowsPerSecond.toLocaleString('en-US')} rows/s; its summaries were built after).`,
    `Billing periods: ${s.billingPeriods.join(', ') || '(none)'}    Currency: ${s.currencies.join(', ') || '(not given)'}`,
    // Sums over several currencies would add them: then only per invoice, each in its own.
    ...(oneCurrency
      ? [`Σ BilledCost    ${s.sumBilledCost}`, `Σ EffectiveCost ${s.sumEffectiveCost}`, `Σ ListCost      ${s.sumListCost}`]
      : []),
    '',
    ...alignedTable(
      ['integration', 'billing period', 'rows', 'Σ BilledCost', 'Σ EffectiveCost'],
      s.partitions.map((p) => [p.integrationId, p.billingPeriod, String(p.rows), p.billedCost, p.effectiveCost]),
      2,
    ),
    '',
    'Each (integration, billing period) listed replaced the rows of any earlier import of it.',
    '',
    "Invoices (Σ BilledCost per invoice, in its currency: compare with the provider's):",
    ...alignedTable(
      ['billing account', 'period', 'invoice', 'currency', 'rows', 'Σ BilledCost', 'Σ EffectiveCost'],
      s.invoices.map((i) => [
        i.billingAccountId || '-',
        i.billingPeriod,
        i.invoiceId || '-',
        i.currency,
        String(i.lineItems),
        i.billedCost,
        i.effectiveCost,
      ]),
      4,
    ),
    ...(s.restatedInvoices.length > 0
      ? [
          '',
          `Restated: ${s.restatedInvoices.length} invoice(s) of the replaced periods changed (Σ BilledCost before → after):`,
          ...s.restatedInvoices.map(
            (c) =>
              `  ${c.billingPeriod}  ${c.billingAccountId || '-'}  ${c.invoiceId || '-'}  ${c.currency}  ${c.before ?? '(none)'} → ${c.after ?? '(none)'}`,
          ),
        ]
      : []),
    ...(s.rolledBackImports.length > 0
      ? [
          `First rolled back ${s.rolledBackImports.length} earlier import(s) interrupted while publishing: ${s.rolledBackImports.join(', ')}`,
        ]
      : []),
    ...(s.contracts ? ['', describeImportedContracts(s.contracts)] : []),
    ...(s.skippedFiles.length > 0 ? [`Skipped (not export parts): ${s.skippedFiles.join(', ')}`] : []),
    ...s.warnings.map((warning) => `Warning: ${warning}`),
    ...(activatedTagKeys.length > 0
      ? [
          `Activated the suggested tag keys ${activatedTagKeys.join(', ')}: on most of the cost, answered at column speed ` +
            '(the first import of an organisation that never chose its keys; change them with `tag-keys set`).',
        ]
      : []),
  ].join('\n');
}

/** Rows under a header, columns from `firstNumeric` on right-aligned. */
function alignedTable(header: string[], rows: string[][], firstNumeric: number): string[] {
  const table = [header, ...rows];
  const widths = header.map((_, c) => Math.max(...table.map((row) => row[c].length)));
  return table.map((row) =>
    row
      .map((cell, c) => (c >= firstNumeric ? cell.padStart(widths[c]) : cell.padEnd(widths[c])))
      .join('  ')
      .trimEnd(),
  );
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${Math.round(bytes)} B`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}
