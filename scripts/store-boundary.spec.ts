import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { STORE_TABLES } from '../src/store/schema/store-tables';
import { connectionCall, REPOSITORY_ROOT, srcSourceFiles } from './source-files';

/**
 * The store's boundary (docs/architecture.md): table names and every statement that changes the store live in
 * src/store only. Outside it no source file names a table of STORE_TABLES, writes SQL that creates, alters, fills or
 * drops a table, or sends an insert or a command; features read through the kernel's builders and the store's
 * repositories.
 */
/** Names that are a table's name and also something else, where they are that something else. */
const NOT_TABLES: Record<string, string> = {
  'src/costs/costs.service.ts: exchange_rates': "the /data summary's field (the spec names it), not the table",
  'src/sharing/storage/redis-shared-filter.store.ts: shared_filters': "a Redis error metric's operation label",
};
const TABLES = Object.keys(STORE_TABLES);
const WRITE_SQL =
  /\b(INSERT\s+INTO|ALTER\s+TABLE|CREATE\s+(?:TABLE|VIEW|MATERIALIZED\s+VIEW|DICTIONARY|DATABASE)|RENAME\s+TABLE|EXCHANGE\s+TABLES|DROP\s+(?:TABLE|VIEW|DICTIONARY|DATABASE)|TRUNCATE\s+TABLE)\b/;
/** A call of a connection's writing member. */
const WRITE_CALL = connectionCall(['insert', 'insertSelect', 'insertWithBody', 'command', 'longCommand']);

/** The code without its comments (a comment may name a table or a statement to explain one). */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

/**
 * What code outside the store may take from the publish protocol's files besides PublishProtocol (publish-protocol.ts):
 * types, constants and pure functions, none of which sends a statement.
 */
const PUBLISH_PURE_NAMES = new Set([
  'ImportInput',
  'ImportedInvoice',
  'InvoiceChange',
  'invoiceChanges',
  'RecoveryReport',
  'SwappingImport',
  'SWAP_LEASE_SECONDS',
  'isImportTableName',
]);

const outside = srcSourceFiles()
  .filter((path) => !path.startsWith('src/store/'))
  .map((path) => ({ path, code: code(readFileSync(join(REPOSITORY_ROOT, path), 'utf8')) }));

describe('the store boundary: table names and writes only in src/store', () => {
  it('reads the source files outside the store', () => {
    expect(outside.length).toBeGreaterThan(100);
  });

  it('no file outside src/store names a table of the store', () => {
    const named = outside.flatMap(({ path, code }) =>
      TABLES.filter((table) => new RegExp(`['"\`]${table}['"\`]|\\b(FROM|INTO|JOIN|TABLE)\\s+[\\w.\${}]*\\b${table}\\b`).test(code)).map(
        (table) => `${path}: ${table}`,
      ),
    );
    expect(named.filter((mention) => !(mention in NOT_TABLES))).toEqual([]);
    expect(Object.keys(NOT_TABLES).filter((mention) => !named.includes(mention))).toEqual([]);
  });

  it('no file outside src/store writes SQL that changes the store', () => {
    const writing = outside.filter(({ code }) => WRITE_SQL.test(code)).map(({ path, code }) => `${path}: ${WRITE_SQL.exec(code)![0]}`);
    expect(writing).toEqual([]);
  });

  it('no file outside src/store sends an insert or a command', () => {
    const sending = outside.filter(({ code }) => WRITE_CALL.test(code)).map(({ path, code }) => `${path}: ${WRITE_CALL.exec(code)![0]}`);
    expect(sending).toEqual([]);
  });

  it('outside src/store the publish protocol is reached through PublishProtocol only', () => {
    const reaching = outside.flatMap(({ path, code }) =>
      [...code.matchAll(/import (?:type )?\{([^}]*)\} from '[./]*\/store\/publish\/([\w-]+)';/g)]
        .filter(([, , file]) => file !== 'publish-protocol')
        .flatMap(([, names, file]) =>
          names
            .split(',')
            .map((name) => name.trim())
            .filter((name) => name && !PUBLISH_PURE_NAMES.has(name))
            .map((name) => `${path}: ${name} of store/publish/${file}`),
        ),
    );
    expect(reaching).toEqual([]);
  });
});
