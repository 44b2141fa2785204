import { runCli } from './cli-runner';
import { processOutput } from './cli-output';

/** Operator CLI: `npm run -s cli -- <command>`; see `help`. */
runCli(process.argv.slice(2), processOutput, process.env).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`Unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
