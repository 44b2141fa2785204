/** Where a command writes: stdout for results, stderr for diagnostics. Injected so tests can capture it. */
export interface CliOutput {
  out(text: string): void;
  err(text: string): void;
}

export const processOutput: CliOutput = {
  out: (text) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
  err: (text) => process.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
};

/** A writer of one self-overwriting status line on a terminal (for IngestCommandOutput.progress). */
export function ttyProgressLine(stream: NodeJS.WriteStream): ((line: string) => void) | undefined {
  if (!stream.isTTY) return undefined;
  return (line) => stream.write(`\r\x1b[K${line.slice(0, Math.max((stream.columns ?? 120) - 1, 20))}`);
}

/** Exit codes of the CLI. */
export const EXIT = { ok: 0, failure: 1, usage: 2 } as const;

/** A plain-text table with left-aligned columns. */
export function formatTable(header: string[], rows: string[][]): string {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column].length)));
  const line = (cells: string[]) =>
    cells.map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column]))).join('  ');
  return [line(header), ...rows.map(line)].join('\n');
}
