import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ClickhouseService } from '../clickhouse/clickhouse.service';
import { DISTRIBUTED_SUFFIX } from './cluster-ddl';
import { fillPlaceholders } from './migration-text';

/**
 * The schema an empty store reaches through every migration, one CREATE per table (src/store/schema/schema.sql, written by
 * `npm run schema:baseline`, never by hand). A new store is made from it in a few statements instead of replaying
 * every migration: the ALTERs of a table with eight projections cost most of a new store's migration time.
 * It names the migrations it stands for by their checksums: one that no longer matches them is not used (and
 * schema-baseline.spec.ts fails, naming the command). The upgrades e2e suite compares a store made from it with
 * stores migrated statement by statement, in every mode. Read from the repository's src/ by the compiled code too (tsc
 * copies no SQL into dist/).
 */
export const BASELINE_FILE = resolve(__dirname, '../../../src/store/schema/schema.sql');

/** The generator's database: a name no statement contains otherwise, replaced by `{{database}}` in the file. */
export const BASELINE_GENERATOR_DATABASE = 'schema_baseline_generator';

export interface Baseline {
  /** The highest migration version it stands for (all of 1..version). */
  version: number;
  /** Hash of the checksums of migrations 1..version (`coverHash`). */
  hash: string;
  /** `{{database}}` and `{{serving:<table>}}` placeholders unsubstituted. */
  statements: string[];
  /** The MergeTree settings its tables set: a server that lacks one migrates step by step (as migrations would skip). */
  mergeTreeSettings: string[];
}

/** One hash for migrations 1..n: a changed, added or removed migration among them changes it. */
export function coverHash(checksums: string[]): string {
  return createHash('sha256').update(checksums.join('\n')).digest('hex');
}

const HEADER = /^-- covers migrations 1\.\.(\d+), checksums hash ([0-9a-f]{64})$/m;

/** The file's baseline; undefined when there is none. */
export function readBaseline(file = BASELINE_FILE): Baseline | undefined {
  if (!existsSync(file)) return undefined;
  const text = readFileSync(file, 'utf8');
  const header = HEADER.exec(text);
  if (!header) throw new Error(`${file}: no "-- covers migrations 1..N" line; write it with npm run schema:baseline`);
  const statements = splitBaseline(text);
  return { version: Number(header[1]), hash: header[2], statements, mergeTreeSettings: settingNames(statements) };
}

/**
 * A table of the baseline (what the migrations leave, as ClickHouse writes it): its columns in order, and each
 * projection's GROUP BY keys; undefined for a name it does not create.
 */
export function baselineTable(
  table: string,
  baseline = readBaseline(),
): { columns: string[]; projections: Map<string, string[]> } | undefined {
  const create = baseline?.statements.find((sql) => sql.startsWith(`CREATE TABLE IF NOT EXISTS {{database}}.${table}\n`));
  const body = create && /\(\n([\s\S]*)\n\)\nENGINE/.exec(create)?.[1];
  if (!body) return undefined;
  const columns = [...body.matchAll(/^ {4}`(\w+)` /gm)].map((match) => match[1]);
  const projections = new Map<string, string[]>();
  for (const match of body.matchAll(/^ {4}PROJECTION (\w+)\n[\s\S]*?GROUP BY\n([\s\S]*?)\n {4}\)/gm))
    projections.set(
      match[1],
      match[2].split(',').map((key) => key.trim()),
    );
  return { columns, projections };
}

/** The names in the tables' `SETTINGS a = …, b = …` lines (formatQuery writes each table's settings on one line). */
function settingNames(statements: string[]): string[] {
  const lines = statements.filter((sql) => sql.startsWith('CREATE TABLE')).flatMap((sql) => sql.match(/^SETTINGS .*$/gm) ?? []);
  return [...new Set(lines.flatMap((line) => [...line.matchAll(/(?:SETTINGS |, )(\w+) = /g)].map((match) => match[1])))];
}

/** Statements end with `;` alone on a line (a CREATE's text may hold `;` inside its strings). */
function splitBaseline(text: string): string[] {
  return text
    .split(/\n;\n/)
    .map((chunk) => chunk.replace(/^--.*$/gm, '').trim())
    .filter((statement) => statement.length > 0);
}

/** The baseline's statements for a database (placeholders filled as in the migrations). */
export function baselineStatements(baseline: Baseline, database: string, clusterMode: boolean): string[] {
  return baseline.statements.map((statement) => fillPlaceholders(statement, database, clusterMode));
}

/**
 * The file's text for a store that every migration (1..version) was applied to one by one, with `{{serving:…}}`
 * spelt as a cluster spells it (the generator migrates with cluster naming, so a reference to a serving table reads
 * `<table>_distributed` and can be told from a local one). Dictionaries first (a table's DEFAULT may read one, and a
 * dictionary's source is read only when it loads), then tables in the order the migrations first create them.
 */
export async function baselineText(store: ClickhouseService, version: number, hash: string, creationOrder: string[]): Promise<string> {
  if (store.database !== BASELINE_GENERATOR_DATABASE)
    throw new Error(`the baseline is generated in database ${BASELINE_GENERATOR_DATABASE}`);
  const tables = await store.query<{ name: string; dictionary: number; create: string }>(
    `SELECT name, engine = 'Dictionary' AS dictionary, formatQuery(create_table_query) AS create FROM system.tables
     WHERE database = {database:String} AND name != 'schema_migrations'`,
    { database: store.database },
  );
  const rank = (name: string) => (creationOrder.includes(name) ? creationOrder.indexOf(name) : creationOrder.length);
  const statements = tables
    .sort((a, b) => Number(b.dictionary) - Number(a.dictionary) || rank(a.name) - rank(b.name) || a.name.localeCompare(b.name))
    .map(({ create }) =>
      create
        .replace(/^CREATE (TABLE|DICTIONARY) /, 'CREATE $1 IF NOT EXISTS ')
        .replace(new RegExp(`\\b${BASELINE_GENERATOR_DATABASE}\\.(\\w+)${DISTRIBUTED_SUFFIX}\\b`, 'g'), '{{serving:$1}}')
        .replaceAll(BASELINE_GENERATOR_DATABASE, '{{database}}'),
    );
  return [
    '-- The schema of an empty store after every migration: written by `npm run schema:baseline`, never by hand.',
    '-- A new store is created from it (src/store/schema/schema-baseline.ts); older stores migrate step by step.',
    `-- covers migrations 1..${version}, checksums hash ${hash}`,
    '',
    ...statements.map((statement) => `${statement}\n;\n`),
  ].join('\n');
}
