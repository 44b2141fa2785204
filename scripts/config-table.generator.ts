/**
 * `npm run docs:config`: writes docs/configuration.md's table, between its config markers, from the
 * settings table (src/config/settings.ts). config-table.generator.spec.ts fails when the page holds
 * anything else, so the documented defaults are always the ones the code applies.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Setting, SETTINGS } from '../src/config/settings';

export const CONFIGURATION_DOC_PATH = resolve(__dirname, '../docs/configuration.md');
export const START_MARKER = '<!-- config:start -->';
export const END_MARKER = '<!-- config:end -->';

const GIB = 1024 ** 3;
const DAY_SECONDS = 86_400;

/** The Markdown table of every setting, in the settings table's order. */
export function configTable(): string {
  const rows = Object.entries(SETTINGS).map(
    ([variable, setting]: [string, Setting<unknown>]) => `| \`${variable}\` | ${defaultCell(setting)} | ${cell(setting.doc)} |`,
  );
  return ['| Variable | Default | Meaning |', '|---|---|---|', ...rows].join('\n');
}

/** `page` with the text between its config markers replaced by the table. */
export function withConfigTable(page: string): string {
  const start = page.indexOf(START_MARKER);
  const end = page.indexOf(END_MARKER);
  if (start < 0 || end < start)
    throw new Error(`docs/configuration.md needs ${START_MARKER} and, after it, ${END_MARKER} around the configuration table`);
  return `${page.slice(0, start)}${START_MARKER}\n\n${configTable()}\n\n${page.slice(end)}`;
}

function defaultCell(setting: Setting<unknown>): string {
  const value = setting.default;
  if (value === undefined || (Array.isArray(value) && value.length === 0)) return '–';
  if (value === '') return 'empty';
  const readable = inLargerUnit(value, setting);
  return `\`${String(value)}\`${readable ? ` (${readable})` : ''}`;
}

/** A large default also in the unit a reader thinks in: 2 GiB, 30 days. */
function inLargerUnit(value: unknown, { unit }: Setting<unknown>): string | undefined {
  if (typeof value !== 'number') return undefined;
  if (unit === 'bytes' && value >= GIB && value % GIB === 0) return `${value / GIB} GiB`;
  if (unit === 'seconds' && value >= DAY_SECONDS && value % DAY_SECONDS === 0) {
    const days = value / DAY_SECONDS;
    return `${days} day${days === 1 ? '' : 's'}`;
  }
  return undefined;
}

/** A pipe would end the cell. */
function cell(markdown: string): string {
  return markdown.replace(/\|/g, '\\|');
}

if (require.main === module) {
  writeFileSync(CONFIGURATION_DOC_PATH, withConfigTable(readFileSync(CONFIGURATION_DOC_PATH, 'utf8')));
}
