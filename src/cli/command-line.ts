import { CliCommand, parseCommandLine, UsageError } from './cli-args';
import { CliOutput, EXIT } from './cli-output';
import { usageText } from './cli-usage';

/** A command that opens the store: every one but `help`. */
export type StoreCommand = Exclude<CliCommand, { name: 'help' }>;

/**
 * The command a command line asks for, or, once answered without the store, the exit code: `help`, and a usage error
 * with the usage beside it. Only the light modules of argument parsing are loaded for that (the CLI's `help` answers
 * in a fraction of a second; the application's modules load for the commands that need them).
 */
export function readCommandLine(argv: string[], io: CliOutput): StoreCommand | number {
  let command: CliCommand;
  try {
    command = parseCommandLine(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.err(`Error: ${error.message}\n\n${usageText(error.topic)}`);
    return EXIT.usage;
  }
  if (command.name !== 'help') return command;
  io.out(usageText(command.topic));
  return EXIT.ok;
}
