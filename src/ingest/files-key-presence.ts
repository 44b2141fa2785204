import { keyPresenceSql, KeyPresenceRow } from '../cost-query/key-presence.query';
import { ClickhouseService } from '../store/clickhouse/clickhouse.service';
import { serveFile } from './file-server';
import { FocusFile, readingPart, withGlobFreePath } from './focus-files';
import { ImportParameters, reaches } from './focus-load';
import { FOCUS_INPUT_SETTINGS, FOCUS_SOURCE_STRUCTURE, focusSelectSql, IMPORT_MEMORY_SETTINGS } from './focus-mapping';
import { settingsClause, sqlString } from '../store/statement-text';

/** The most files a pre-pass reads in one statement (a delivery of more is described after its import instead). */
export const MAX_PRE_PASS_FILES = 200;

/**
 * The tag and cost-category keys of an import's cost files, as keyPresenceSql describes an organisation's rows: read
 * by the engine through the importer's own mapping (focusSelectSql), only the columns the keys need, before any row is
 * written. The embedded engine reads the files itself; a server fetches them from this process (file-server.ts).
 * Undefined when it cannot tell: too many files, or a server that cannot reach this process.
 */
export async function filesKeyPresence(
  clickhouse: ClickhouseService,
  files: readonly FocusFile[],
  parameters: ImportParameters,
): Promise<KeyPresenceRow[] | undefined> {
  if (files.length === 0 || files.length > MAX_PRE_PASS_FILES) return undefined;
  return withSources(clickhouse, files, async (sources) => {
    if (!sources) return undefined;
    const settings = await clickhouse.knownSettings({ ...FOCUS_INPUT_SETTINGS, ...IMPORT_MEMORY_SETTINGS });
    return clickhouse.query<KeyPresenceRow>(filesKeyPresenceSql(sources, settings), { ...parameters });
  });
}

/** The presence statement over the files (table functions), each row mapped as the import maps it (golden: src/queries). */
export function filesKeyPresenceSql(sources: readonly string[], settings: Readonly<Record<string, string | number | undefined>>): string {
  const rows = sources.map((from) => focusSelectSql({ from, rowNumber: 'toUInt64(0)' })).join('\nUNION ALL\n');
  return `${keyPresenceSql(`(${rows})`, '1')}\n${settingsClause(settings)}`;
}

/** Each file as a table function the engine reads, all open for one statement (none: a server that cannot reach us). */
async function withSources<T>(
  clickhouse: ClickhouseService,
  files: readonly FocusFile[],
  read: (sources: string[] | undefined) => Promise<T>,
  sources: string[] = [],
): Promise<T> {
  if (sources.length === files.length) return read(sources);
  const file = files[sources.length];
  const compression = file.gzip ? 'gzip' : 'none';
  return readingPart(file, async (path) => {
    if (clickhouse.embedded)
      return withGlobFreePath(path, (globFree) =>
        withSources(clickhouse, files, read, [
          ...sources,
          `file('${sqlString(globFree)}', ${file.format}, '${FOCUS_SOURCE_STRUCTURE}', '${compression}')`,
        ]),
      );
    const served = await serveFile(path, file.bytes, clickhouse.url!);
    try {
      if (sources.length === 0 && !(await reaches(clickhouse, served.probeUrl))) return read(undefined);
      return await withSources(clickhouse, files, read, [
        ...sources,
        `url('${sqlString(served.url)}', ${file.format}, '${FOCUS_SOURCE_STRUCTURE}', '${compression}')`,
      ]);
    } finally {
      await served.close();
    }
  });
}
