import type { Readable } from 'node:stream';
import { ClickhouseService } from '../clickhouse/clickhouse.service';
import { settingsClause } from '../statement-text';
import { inputTableName, reportTableName, toReportViewName, toStagingViewName } from './import-tables';

/**
 * Where an import's files go: its input table (Null engine) and the report its second view fills; each file is read
 * into the input by a statement ClickHouse runs over it (`fileSelect`: the importer's mapping over the file).
 */
export class ImportInput {
  constructor(
    private readonly clickhouse: ClickhouseService,
    readonly input: string,
    readonly report: string,
  ) {}

  /** Empties the report before the next file is read into the input. */
  async clearReport(): Promise<void> {
    await this.clickhouse.command(`TRUNCATE TABLE ${this.report}`);
  }

  /** Reads a file ClickHouse itself opens (file(), url()) into the input. */
  async insertFile(fileSelect: string, settings: StatementSettings, parameters: Record<string, unknown>): Promise<void> {
    await this.clickhouse.command(fileInsertSql(this.input, fileSelect, settings), { ...parameters });
  }

  /** Sends a file as the statement's body (input()), in `format`, into the input. */
  async insertBody(
    fileSelect: string,
    settings: StatementSettings,
    format: string,
    body: Readable,
    parameters: Record<string, unknown>,
  ): Promise<void> {
    await this.clickhouse.insertWithBody(`${fileInsertSql(this.input, fileSelect, settings)}\nFORMAT ${format}`, body, { ...parameters });
  }
}

type StatementSettings = Readonly<Record<string, string | number | undefined>>;

/**
 * What the importer's mapping gives the input's tables: the mapping over no rows (the input table's columns), the
 * report of a block read from the input, and the cost columns the staging view keeps.
 */
export interface InputMapping {
  schemaOnlySelect: string;
  reportSelect: (input: string) => string;
  costColumns: readonly string[];
}

/**
 * The import's input table and its two materialized views: a block inserted into the (Null-engine) input table is
 * mapped once; one view writes its cost columns into `target` (the staging table, or on a cluster the Distributed
 * table over the staging tables), the other its report into a small Memory table. Created from the mapping itself,
 * so their columns are its columns.
 */
export async function createImportInput(
  clickhouse: ClickhouseService,
  importId: string,
  target: string,
  mapping: InputMapping,
  parameters: Record<string, unknown>,
): Promise<ImportInput> {
  const input = clickhouse.table(inputTableName(importId));
  const report = clickhouse.table(reportTableName(importId));
  await clickhouse.command(`CREATE TABLE ${input} ENGINE = Null EMPTY AS ${mapping.schemaOnlySelect}`, { ...parameters });
  await clickhouse.command(`CREATE TABLE ${report} ENGINE = Memory EMPTY AS ${mapping.reportSelect(input)}`);
  await clickhouse.command(
    `CREATE MATERIALIZED VIEW ${clickhouse.table(toStagingViewName(importId))} TO ${target} AS SELECT ${mapping.costColumns.join(', ')} FROM ${input}`,
  );
  await clickhouse.command(
    `CREATE MATERIALIZED VIEW ${clickhouse.table(toReportViewName(importId))} TO ${report} AS ${mapping.reportSelect(input)}`,
  );
  return new ImportInput(clickhouse, input, report);
}

/** Drops the input table, its views and the report once every file is read (the views first: they point at the others). */
export async function dropImportInput(clickhouse: ClickhouseService, importId: string): Promise<void> {
  for (const name of [toStagingViewName, toReportViewName, reportTableName, inputTableName]) {
    await clickhouse.command(`DROP TABLE IF EXISTS ${clickhouse.table(name(importId))}`);
  }
}

/** The INSERT of one export file into an import's input table, with its settings (golden: src/queries/ingest-*.sql). */
export function fileInsertSql(input: string, fileSelect: string, settings: StatementSettings): string {
  return `INSERT INTO ${input}\n${fileSelect}\n${settingsClause(settings)}`;
}
