import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { CLI_COMMAND_NAMES } from '../src/cli/cli-usage';

/**
 * docs/operations.md's Operator CLI section lists every command of the CLI (the usage text's, one definition) in its
 * table: a row each, its synopsis first, what it does and a link to where it is described — and no command the CLI
 * does not have.
 */
const OPERATIONS = readFileSync(resolve(__dirname, '../docs/operations.md'), 'utf8');

/** The rows of the first table after `heading` whose header starts with `| Command |`. */
function commandTable(markdown: string, heading: string): string[] {
  const lines = markdown.split('\n');
  const header = lines.findIndex((line, index) => line.startsWith('| Command |') && lines.lastIndexOf(heading, index) !== -1);
  if (header === -1) throw new Error(`docs/operations.md has no command table under "${heading}"`);
  const end = lines.findIndex((line, index) => index > header && !line.startsWith('|'));
  return lines.slice(header + 2, end === -1 ? undefined : end);
}

/** Each row's command (the words of its synopsis before any argument or option), and the row. */
function commandRows(rows: string[]): Array<{ command: string; row: string }> {
  return rows
    .filter((line) => line.startsWith('| `'))
    .map((row) => {
      const synopsis = /^\| `([^`]*)`/.exec(row)![1];
      const words = synopsis.split(' ');
      const argumentAt = words.findIndex((word) => /^[-<[]/.test(word));
      return { command: words.slice(0, argumentAt === -1 ? undefined : argumentAt).join(' '), row };
    });
}

describe('docs/operations.md: the operator CLI', () => {
  const rows = commandRows(commandTable(OPERATIONS, '## Operator CLI'));

  it('lists every command of the CLI', () => {
    const listed = new Set(rows.map((row) => row.command));
    expect(CLI_COMMAND_NAMES.filter((name) => !listed.has(name))).toEqual([]);
  });

  it('lists no command the CLI does not have, and each once', () => {
    const commands = rows.map((row) => row.command);
    expect(commands.filter((command) => !CLI_COMMAND_NAMES.includes(command))).toEqual([]);
    expect(commands.filter((command, index) => commands.indexOf(command) !== index)).toEqual([]);
  });

  it('links each command but help to where it is described', () => {
    const unlinked = rows.filter(({ command, row }) => command !== 'help' && !/\]\([^)\s]+\)/.test(row)).map((row) => row.command);
    expect(unlinked).toEqual([]);
  });
});
