#!/usr/bin/env node
'use strict';
/** The operator CLI as the package's command (`npx cost-insights <command>`): dist/ built if a source changed, then run. */
const { BUILT, ensureBuilt } = require('../scripts/built-dist.js');

try {
  ensureBuilt((message) => process.stderr.write(`${message}\n`));
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
require(BUILT.cli);
