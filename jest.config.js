/**
 * Projects: `unit` (pure code, colocated *.spec.ts, no servers) and `e2e` (HTTP against real
 * ClickHouse and Redis). E2E_MODE=embedded runs e2e on chDB in-process; E2E_MODE=server starts a
 * ClickHouse HTTP server from libchdb and a redis-server on free ports (test/support/global-setup.ts).
 * Every e2e and timing suite declares on its first line the modes it runs in (`// modes: …`, suite-modes.ts).
 * `timing` holds the e2e suites that measure time or memory: the same setup, run alone and in band after
 * the rest (scripts/test.sh), so no other suite's load reads as theirs. `multi`: several processes.
 */
const transform = { '^.+\\.ts$': 'ts-jest' };

// Each e2e and timing suite runs only in the modes its first line declares (test/support/suite-modes.ts).
require('ts-node').register({ transpileOnly: true });
const { suitesNotIn } = require('./test/support/suite-modes');
const escaped = (file) => file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const notInThisMode = suitesNotIn(__dirname, process.env.E2E_MODE || 'embedded').map((file) => `<rootDir>/${escaped(file)}$`);

module.exports = {
  testTimeout: 60000,
  // Longest suites first, from the last run's times or the committed ones (a fresh clone has no jest cache).
  testSequencer: '<rootDir>/test/support/suite-sequencer.ts',
  projects: [
    {
      displayName: 'unit',
      rootDir: '.',
      testMatch: [
        '<rootDir>/src/**/*.spec.ts',
        '<rootDir>/scripts/**/*.spec.ts',
        '<rootDir>/clients/*/src/**/*.spec.ts',
        '<rootDir>/test/support/**/*.spec.ts',
      ],
      testEnvironment: 'node',
      transform,
    },
    {
      displayName: 'e2e',
      rootDir: '.',
      testMatch: ['<rootDir>/test/e2e/**/*.e2e-spec.ts'],
      testPathIgnorePatterns: ['/node_modules/', ...notInThisMode],
      testEnvironment: 'node',
      transform,
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
    },
    {
      displayName: 'timing',
      rootDir: '.',
      testMatch: ['<rootDir>/test/timing/**/*.timing-spec.ts'],
      testPathIgnorePatterns: ['/node_modules/', ...notInThisMode],
      testEnvironment: 'node',
      transform,
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
    },
    {
      // Real processes on loopback: ClickHouse server, Redis, three `node dist/main.js`, nginx.
      displayName: 'multi',
      rootDir: '.',
      testMatch: ['<rootDir>/test/multi-instance/**/*.multi-spec.ts'],
      testEnvironment: 'node',
      transform,
    },
  ],
};
