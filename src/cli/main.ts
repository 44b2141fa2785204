import { processOutput, ttyProgressLine } from './cli-output';
import { readCommandLine } from './command-line';

/** Operator CLI: `npm run -s cli -- <command>`; see `help`. The application's modules load only for a command that needs the store. */
async function main(argv: string[]): Promise<number> {
  const command = readCommandLine(argv, processOutput);
  if (typeof command === 'number') return command;
  // An API serving the embedded store holds it: the command runs in that process instead.
  const { relayToRunningApi } = await import('./cli-relay');
  const relayed = await relayToRunningApi(argv, processOutput, process.env, ttyProgressLine(process.stderr));
  if (relayed !== undefined) return relayed;
  const { runCommand } = await import('./cli-runner');
  return runCommand(command, processOutput, process.env);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`Unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
