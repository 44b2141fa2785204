import type { Test } from '@jest/test-result';
import TestSequencer from '@jest/test-sequencer';
import { relative } from 'node:path';
import { E2E_MODE } from './e2e-mode';
import { measuredSeconds } from './suite-durations';

/**
 * Longest suites first, so that no worker starts a two-minute suite while the other is finishing. Jest's own order
 * needs its cache of the last run's times, which a fresh clone (CI) lacks, and then falls back to file size, which
 * put the upgrade and fuzz suites at a phase's end. So a suite's time is the cached one, else the one measured on this
 * machine and committed (test/suite-durations.json), else a guess from its size.
 */
export default class SuiteSequencer extends TestSequencer {
  async sort(tests: Test[]): Promise<Test[]> {
    // jest's own sort sets each test's `duration` from its cache (undefined when it has none).
    const seconds = (test: Test) =>
      test.duration !== undefined
        ? test.duration / 1000
        : (measuredSeconds(E2E_MODE, relative(test.context.config.rootDir, test.path)) ??
          // A suite not measured yet: a kilobyte of suite for about a second.
          (test.context.hasteFS.getSize(test.path) ?? 0) / 1000);
    return (await super.sort(tests))
      .map((test) => ({ test, seconds: seconds(test) }))
      .sort((a, b) => b.seconds - a.seconds)
      .map(({ test }) => test);
  }
}
