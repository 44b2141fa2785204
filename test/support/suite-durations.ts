import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { E2eMode } from './e2e-mode';

/** Each suite's wall time in seconds per mode, measured in a full run on this 2-core machine. */
export type SuiteDurations = Partial<Record<E2eMode, Record<string, number>>>;

export const SUITE_DURATIONS_FILE = join(__dirname, '../suite-durations.json');

export function readSuiteDurations(): SuiteDurations {
  return JSON.parse(readFileSync(SUITE_DURATIONS_FILE, 'utf8')) as SuiteDurations;
}

let committed: SuiteDurations | undefined;

export function measuredSeconds(mode: E2eMode, file: string): number | undefined {
  committed ??= readSuiteDurations();
  return committed[mode]?.[file];
}

interface JestJsonResult {
  testResults: Array<{ name: string; startTime: number; endTime: number }>;
}

/** The durations of one mode replaced by those of a run (jest's `--json` output), rounded to a tenth of a second. */
export function withRun(durations: SuiteDurations, mode: E2eMode, run: JestJsonResult, root: string): SuiteDurations {
  const measured = run.testResults
    .map((result) => [relative(root, result.name), Math.round((result.endTime - result.startTime) / 100) / 10] as const)
    .sort(([a], [b]) => a.localeCompare(b));
  return { ...durations, [mode]: Object.fromEntries(measured) };
}

// npx ts-node -T test/support/suite-durations.ts <mode> <jest --json output>: records that run's times.
if (require.main === module) {
  const [mode, runFile] = process.argv.slice(2) as [E2eMode, string];
  const run = JSON.parse(readFileSync(runFile, 'utf8')) as JestJsonResult;
  const next = withRun(readSuiteDurations(), mode, run, join(__dirname, '../..'));
  writeFileSync(SUITE_DURATIONS_FILE, `${JSON.stringify(next, null, 2)}\n`);
}
