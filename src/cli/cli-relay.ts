import { INestApplicationContext, Logger } from '@nestjs/common';
import { chmodSync, lstatSync, mkdirSync, rmSync } from 'node:fs';
import { createConnection, createServer, Server, Socket } from 'node:net';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { APP_CONFIG, AppConfig, loadConfig } from '../config/app-config';
import { Environment } from '../config/settings';
import { CliOutput, EXIT } from './cli-output';
import { readCommandLine, StoreCommand } from './command-line';

/**
 * The CLI beside a running API. One process at a time can open an embedded store, so an API serving it relays the
 * CLI's commands: it listens on `<DATA_DIR>/cli/relay.sock`, in a folder only the store's owner may enter (0700; whoever
 * can enter it could open the store's files anyway). The CLI sends its command line and folder; the API runs the
 * command in its own process, with its own settings, and sends back the output and exit code. A ClickHouse server
 * needs no relay: any number of processes share it.
 */
const RELAY_FOLDER = 'cli';
const RELAY_SOCKET = 'relay.sock';
/** Linux refuses a socket path over 107 bytes: a deeper DATA_DIR gets no relay (the CLI then says the store is held). */
const MAX_SOCKET_PATH_BYTES = 107;
const MAX_REQUEST_BYTES = 256 * 1024;

/** Commands that would pull the store from under the API: refused through the relay, with what to do instead. */
const NOT_RELAYED: Partial<Record<StoreCommand['name'], string>> = {
  'backup restore': 'a restore replaces the whole store: stop the API first, then run `backup restore`',
  'ingest recover': 'the running API recovers interrupted imports itself (docs/operations.md, "Interrupted imports")',
};

/** One frame of the relay's answer, a JSON line each. */
type RelayFrame = { out: string } | { err: string } | { progress: string } | { exit: number };

/** Runs one command in the API's process: the CLI runner, given the API's application context. */
export type RelayedRunner = (
  app: INestApplicationContext,
  command: StoreCommand,
  io: CliOutput & { progress?: (line: string) => void },
) => Promise<number>;

export function relaySocketPath(dataDir: string): string {
  return join(resolve(dataDir), RELAY_FOLDER, RELAY_SOCKET);
}

/** Serves the relay for an embedded store; returns how to stop it (undefined: not served, with the reason logged). */
export async function serveCliRelay(app: INestApplicationContext, run: RelayedRunner): Promise<(() => void) | undefined> {
  const config = app.get<AppConfig>(APP_CONFIG);
  if (config.clickhouse.url) return undefined;
  const path = relaySocketPath(config.dataDir);
  const logger = new Logger('CliRelay');
  if (Buffer.byteLength(path) > MAX_SOCKET_PATH_BYTES) {
    logger.warn(`No CLI relay: its socket path ${path} is longer than ${MAX_SOCKET_PATH_BYTES} bytes; stop the API to run the CLI`);
    return undefined;
  }
  try {
    const server = await listenPrivately(path, (socket) => void relayOne(app, run, socket, logger));
    logger.log(`The CLI relays its commands through ${path} while the API runs`);
    return () => closeRelay(server, path);
  } catch (error) {
    // The API serves without it: the CLI then says the store is held, as before the relay.
    logger.warn(`No CLI relay (${error instanceof Error ? error.message : String(error)}): stop the API to run the CLI`);
    return undefined;
  }
}

/** A socket at `path` in a folder only this user may enter; a socket left there by a stopped API is replaced. */
async function listenPrivately(path: string, serve: (socket: Socket) => void): Promise<Server> {
  const folder = dirname(path);
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  if (lstatSync(folder).isSymbolicLink()) throw new Error(`${folder} is a symbolic link, not a folder`);
  chmodSync(folder, 0o700);
  // This process holds the store now, so no other relay on it can be live.
  rmSync(path, { force: true });
  const server = createServer(serve);
  await new Promise<void>((listening, fail) => server.once('error', fail).listen(path, listening));
  return server;
}

function closeRelay(server: Server, path: string): void {
  server.close();
  rmSync(path, { force: true });
}

/** Answers one connection: one request line in, frames out, then the exit code. */
async function relayOne(app: INestApplicationContext, run: RelayedRunner, socket: Socket, logger: Logger): Promise<void> {
  const send = (frame: RelayFrame) => socket.writable && socket.write(`${JSON.stringify(frame)}\n`);
  const io = {
    out: (out: string) => send({ out }),
    err: (err: string) => send({ err }),
    progress: (progress: string) => send({ progress }),
  };
  socket.on('error', () => undefined); // a CLI stopped mid-command: its command still ends, unseen
  try {
    const request = parseRequest(await firstLine(socket));
    const command = request ? readCommandLine(request.argv, io) : EXIT.usage;
    if (!request) io.err('Error: the CLI relay understood no command (a CLI of another version?)');
    if (typeof command !== 'number') logger.log(`Relayed from the CLI: ${command.name}`); // the name only: never the arguments
    send({ exit: typeof command === 'number' ? command : await runRelayed(app, run, withAbsolutePaths(command, request!.cwd), io) });
  } catch (error) {
    io.err(`Error: ${error instanceof Error ? error.message : String(error)}`);
    send({ exit: EXIT.failure });
  }
  socket.end();
}

async function runRelayed(
  app: INestApplicationContext,
  run: RelayedRunner,
  command: StoreCommand,
  io: CliOutput & { progress: (line: string) => void },
): Promise<number> {
  const refusal = NOT_RELAYED[command.name];
  if (refusal === undefined) return run(app, command, io);
  io.err(`Error: \`${command.name}\` does not run while the API serves this store: ${refusal}.`);
  return EXIT.failure;
}

function firstLine(socket: Socket): Promise<string> {
  return new Promise((answer, fail) => {
    let text = '';
    socket.setEncoding('utf8');
    const onData = (chunk: string) => {
      text += chunk;
      const end = text.indexOf('\n');
      if (end >= 0 || text.length > MAX_REQUEST_BYTES) {
        socket.off('data', onData);
        if (end < 0) fail(new Error(`the command line is longer than ${MAX_REQUEST_BYTES} bytes`));
        else answer(text.slice(0, end));
      }
    };
    socket.on('data', onData);
    socket.once('end', () => fail(new Error('the CLI closed the relay before sending its command')));
  });
}

function parseRequest(line: string): { argv: string[]; cwd: string } | undefined {
  try {
    const value = JSON.parse(line) as { argv?: unknown; cwd?: unknown };
    const { argv, cwd } = value;
    if (!Array.isArray(argv) || !argv.every((arg) => typeof arg === 'string') || typeof cwd !== 'string' || !isAbsolute(cwd)) {
      return undefined;
    }
    return { argv: argv as string[], cwd };
  } catch {
    return undefined;
  }
}

/** The command with the files it reads resolved against the CLI's folder (the API runs elsewhere). */
export function withAbsolutePaths(command: StoreCommand, cwd: string): StoreCommand {
  switch (command.name) {
    case 'ingest': // a command line names files by their paths (an ExportPart comes from a data source, not from here)
      return { ...command, paths: (command.paths as string[]).map((path) => resolve(cwd, path)) };
    case 'rates import':
      return { ...command, path: resolve(cwd, command.path) };
    case 'cost-categories set':
    case 'cost-categories preview':
    case 'budgets set':
    case 'metrics import':
      return { ...command, file: resolve(cwd, command.file) };
    default:
      return command;
  }
}

/**
 * The CLI's side: when an API serves the embedded store named by `environment`, runs `argv` through it and returns the
 * exit code; undefined when no API answers (the CLI then opens the store itself).
 */
export async function relayToRunningApi(
  argv: string[],
  io: CliOutput,
  environment: Environment,
  progress?: (line: string) => void,
): Promise<number | undefined> {
  const socket = await connectToRelay(environment);
  if (!socket) return undefined;
  socket.write(`${JSON.stringify({ argv, cwd: process.cwd() })}\n`);
  const lines = createInterface({ input: socket, crlfDelay: Infinity });
  socket.on('error', () => undefined).on('close', () => lines.close()); // an API stopped mid-command: reported below
  let exit: number | undefined;
  for await (const line of lines) {
    const frame = JSON.parse(line) as Partial<Record<string, unknown>>;
    if (typeof frame.out === 'string') io.out(frame.out);
    else if (typeof frame.err === 'string') io.err(frame.err);
    else if (typeof frame.progress === 'string') progress?.(frame.progress);
    else if (typeof frame.exit === 'number') exit = frame.exit;
  }
  if (exit !== undefined) return exit;
  io.err('Error: the running API closed the CLI relay before the command ended (see its log); the command may have run in part.');
  return EXIT.failure;
}

/** A connection to the relay of the API serving this store, if one is. */
async function connectToRelay(environment: Environment): Promise<Socket | undefined> {
  let path: string;
  try {
    const config = loadConfig(environment);
    if (config.clickhouse.url) return undefined;
    path = relaySocketPath(config.dataDir);
  } catch {
    return undefined; // a configuration error: the CLI's own run reports it
  }
  return new Promise((connected) => {
    const socket = createConnection(path);
    socket.once('connect', () => connected(socket));
    socket.once('error', () => connected(undefined)); // no file, or nobody listening: no API serves the store
  });
}
