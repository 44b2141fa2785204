import { HttpException, Injectable } from '@nestjs/common';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { InvalidRequestException } from '../common/errors/api-errors';
import type { ExportPart } from '../ingest/focus-files';
import { metricNameProblem } from '../unit-costs/business-metric';
import { BusinessMetricsService } from '../unit-costs/business-metrics.service';
import type { Delivery } from './delivery-layouts';

const gunzipped = promisify(gunzip);

/** What loading one metric's files came to: the values loaded, or why they were not (each in its admin's words). */
export type MetricFilesOutcome =
  | { loaded: { values: number; months: string[]; first: string; last: string } }
  /** The files are wrong: not tried again until they change. */
  | { refused: string }
  /** The files may be right but cannot be loaded yet (the metric is not defined): tried again at every check. */
  | { notYet: string };

/**
 * A `metrics-files` delivery — one metric's CSV files — loaded as one load of the metric's values, as
 * `POST /v1/admin/business-metrics/{name}/values` loads a body: checked whole, each day given replacing that day.
 */
@Injectable()
export class MetricFilesImport {
  constructor(private readonly metrics: BusinessMetricsService) {}

  async load(organizationId: string, delivery: Delivery, parts: ExportPart[]): Promise<MetricFilesOutcome> {
    const name = delivery.scope;
    if (metricNameProblem(name))
      return {
        refused: `${JSON.stringify(name)} is not a metric's name (a file's metric is its path's first segment up to the first dot, e.g. orders.csv or orders/2026-11.csv; names are lower-case letters, digits and _)`,
      };
    const metric = await this.metrics.defined(organizationId, name);
    if (!metric)
      return {
        notYet: `no business metric named ${JSON.stringify(name)}: define it (PUT /v1/admin/business-metrics/${name}); its files are loaded at the next check after`,
      };
    try {
      const files = await Promise.all(
        parts.map(async (part, i) => ({ name: delivery.parts[i].key, text: await textOf(part, delivery.parts[i].key) })),
      );
      const loaded = await this.metrics.loadFiles(organizationId, metric, files);
      return { loaded: { values: loaded.values, months: monthsFrom(loaded.first, loaded.last), first: loaded.first, last: loaded.last } };
    } catch (error) {
      if (error instanceof TooLarge) return { refused: error.message };
      if (error instanceof InvalidRequestException) return { refused: error.details.join('; ') };
      if (error instanceof HttpException) return { refused: error.message }; // a cap (403), named by the service
      throw error;
    }
  }
}

/** A metric file unzipped: far more than a million values' lines (the most one load takes), and never all memory. */
const MAX_UNZIPPED_BYTES = 256 * 1024 * 1024;

class TooLarge extends Error {}

/** A part's text, unzipped when its key says gzip. */
async function textOf(part: ExportPart, key: string): Promise<string> {
  const opened = await part.open();
  try {
    const bytes = await readFile(opened.path);
    if (!/\.gz$/i.test(key)) return bytes.toString('utf8');
    return (await gunzipped(bytes, { maxOutputLength: MAX_UNZIPPED_BYTES })).toString('utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE')
      throw new TooLarge(`${key}: unzips to more than ${MAX_UNZIPPED_BYTES / 1024 / 1024} MiB`);
    throw error;
  } finally {
    await opened.close();
  }
}

/** The months from one day's to another's (YYYY-MM), both included. */
function monthsFrom(first: string, last: string): string[] {
  const months: string[] = [];
  for (let month = new Date(`${first.slice(0, 7)}-01T00:00:00Z`); month.toISOString().slice(0, 7) <= last.slice(0, 7);) {
    months.push(month.toISOString().slice(0, 7));
    month = new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth() + 1, 1));
  }
  return months;
}
