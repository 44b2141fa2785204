import { readFileSync } from 'node:fs';
import { configTable, CONFIGURATION_DOC_PATH, END_MARKER, START_MARKER, withConfigTable } from './config-table.generator';

describe('docs/configuration.md table', () => {
  it('is what `npm run docs:config` writes from src/config/settings.ts (run it after changing a setting)', () => {
    const page = readFileSync(CONFIGURATION_DOC_PATH, 'utf8');
    const documented = page.slice(page.indexOf(START_MARKER) + START_MARKER.length, page.indexOf(END_MARKER)).trim();
    expect(documented).toBe(configTable()); // row by row, for a readable difference
    expect(withConfigTable(page)).toBe(page); // and the layout around it
  });

  it('shows unset, empty and large defaults readably', () => {
    const rows = configTable().split('\n');
    const row = (variable: string) => rows.find((line) => line.startsWith(`| \`${variable}\` |`))?.split(' | ')[1];
    expect(row('CLICKHOUSE_URL')).toBe('–');
    expect(row('CLICKHOUSE_PASSWORD')).toBe('empty');
    expect(row('CLICKHOUSE_MAX_MEMORY_BYTES')).toBe('`2147483648` (2 GiB)');
    expect(row('SHARED_FILTER_TTL_SECONDS')).toBe('`2592000` (30 days)');
    expect(row('BODY_LIMIT_BYTES')).toBe('`1048576`');
    expect(row('MIGRATE_ON_START')).toBe('`true`');
  });

  it('refuses a page without the markers', () => {
    expect(() => withConfigTable('# README\n')).toThrow(/config:start/);
  });
});
