import { parseArgs, ParseArgsConfig } from 'node:util';
import { API_KEY_PREFIX, isScope, Scope, SCOPES } from '../auth/api-key-format';
import { DEMO_DEFAULT_DAYS, DEMO_DEFAULT_SEED } from '../demo/demo-data.generator';
import { parseIngestFocusArgs } from '../ingest/ingest-focus.command';

/** A command line the CLI understood, with every value validated. */
export type CliCommand =
  | { name: 'help'; topic?: string }
  | { name: 'migrate' }
  | { name: 'keys create'; organizationId: string; keyName: string; scopes: Scope[]; json: boolean }
  | { name: 'keys list'; organizationId: string; json: boolean }
  | { name: 'keys revoke'; keyId: string }
  | { name: 'demo-data'; organizationId: string; days: number; seed: number; replace: boolean; json: boolean }
  /** Arguments after `ingest`, already checked by parseIngestFocusArgs. */
  | { name: 'ingest'; argv: string[] }
  | { name: 'ingest recover'; json: boolean };

/** A mistake in the command line: reported with the usage text, exit code 2. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly topic?: string,
  ) {
    super(message);
  }
}

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_KEY_NAME_LENGTH = 200;
const MAX_DEMO_DAYS = 3660;

type Options = NonNullable<ParseArgsConfig['options']>;
const HELP_OPTION: Options = { help: { type: 'boolean', short: 'h' } };

export function parseCommandLine(argv: string[]): CliCommand {
  const [first, ...rest] = argv;
  if (first === undefined || first === 'help' || first === '--help' || first === '-h') {
    return { name: 'help', topic: first === 'help' ? rest.join(' ') || undefined : undefined };
  }
  switch (first) {
    case 'migrate':
      return parseMigrate(rest);
    case 'keys':
      return parseKeys(rest);
    case 'demo-data':
      return parseDemoData(rest);
    case 'ingest':
      return parseIngest(rest);
    default:
      throw new UsageError(`Unknown command "${first}".`);
  }
}

function parseIngest(argv: string[]): CliCommand {
  if (argv[0] === 'recover') {
    const topic = 'ingest recover';
    const { values } = parse(topic, argv.slice(1), { json: { type: 'boolean' } }, 0);
    return values.help ? { name: 'help', topic } : { name: topic, json: values.json === true };
  }
  if (argv.includes('--help') || argv.includes('-h')) return { name: 'help', topic: 'ingest' };
  const problem = parseIngestFocusArgs(argv);
  if (typeof problem === 'string') throw new UsageError(problem, 'ingest');
  return { name: 'ingest', argv };
}

function parseMigrate(argv: string[]): CliCommand {
  const { values } = parse('migrate', argv, {}, 0);
  return values.help ? { name: 'help', topic: 'migrate' } : { name: 'migrate' };
}

function parseKeys(argv: string[]): CliCommand {
  const [sub, ...rest] = argv;
  switch (sub) {
    case 'create': {
      const topic = 'keys create';
      const { values } = parse(
        topic,
        rest,
        { org: { type: 'string' }, name: { type: 'string' }, scopes: { type: 'string' }, json: { type: 'boolean' } },
        0,
      );
      if (values.help) return { name: 'help', topic };
      return {
        name: topic,
        organizationId: organizationIdOption(values.org, topic),
        keyName: keyNameOption(values.name, topic),
        scopes: scopesOption(values.scopes, topic),
        json: values.json === true,
      };
    }
    case 'list': {
      const topic = 'keys list';
      const { values } = parse(topic, rest, { org: { type: 'string' }, json: { type: 'boolean' } }, 0);
      if (values.help) return { name: 'help', topic };
      return { name: topic, organizationId: organizationIdOption(values.org, topic), json: values.json === true };
    }
    case 'revoke': {
      const topic = 'keys revoke';
      const { values, positionals } = parse(topic, rest, {}, 1);
      if (values.help) return { name: 'help', topic };
      const keyId = positionals[0];
      if (!keyId) throw new UsageError('keys revoke needs the id of the key to revoke (see `keys list`).', topic);
      if (keyId.startsWith(API_KEY_PREFIX)) {
        // Never echo it: it may be a real key pasted by mistake.
        throw new UsageError('Pass the key id shown by `keys list`, not the API key itself.', topic);
      }
      return { name: topic, keyId };
    }
    case undefined:
      throw new UsageError('keys needs a subcommand: create, list or revoke.', 'keys');
    default:
      throw new UsageError(`Unknown keys subcommand "${sub}": use create, list or revoke.`, 'keys');
  }
}

function parseDemoData(argv: string[]): CliCommand {
  const topic = 'demo-data';
  const { values } = parse(
    topic,
    argv,
    {
      org: { type: 'string' },
      days: { type: 'string' },
      seed: { type: 'string' },
      replace: { type: 'boolean' },
      json: { type: 'boolean' },
    },
    0,
  );
  if (values.help) return { name: 'help', topic };
  return {
    name: topic,
    organizationId: organizationIdOption(values.org, topic),
    days: integerOption('--days', values.days, DEMO_DEFAULT_DAYS, 1, MAX_DEMO_DAYS, topic),
    seed: integerOption('--seed', values.seed, DEMO_DEFAULT_SEED, 0, 0xffffffff, topic),
    replace: values.replace === true,
    json: values.json === true,
  };
}

type ParsedValues = Record<string, string | boolean | (string | boolean)[] | undefined>;

/** node:util parseArgs, strict, with its errors turned into usage errors for the command. */
function parse(topic: string, argv: string[], options: Options, maxPositionals: number) {
  let parsed: { values: ParsedValues; positionals: string[] };
  try {
    parsed = parseArgs({ args: argv, options: { ...options, ...HELP_OPTION }, strict: true, allowPositionals: true });
  } catch (error) {
    throw new UsageError(parseErrorMessage(error), topic);
  }
  if (parsed.positionals.length > maxPositionals) {
    throw new UsageError(`Unexpected argument "${parsed.positionals[maxPositionals]}".`, topic);
  }
  return parsed;
}

function parseErrorMessage(error: unknown): string {
  // Not `instanceof Error`: errors of node internals come from another realm under test runners.
  const message = typeof (error as Error)?.message === 'string' ? (error as Error).message : String(error);
  // parseArgs messages end with hints about `--` that do not apply here.
  return message.split('. To specify')[0].split('\n')[0].replace(/\.?$/, '.');
}

function organizationIdOption(value: unknown, topic: string): string {
  if (typeof value !== 'string' || value === '') throw new UsageError('--org <uuid> is required.', topic);
  if (!UUID_PATTERN.test(value)) throw new UsageError(`--org must be a UUID (xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx), got "${value}".`, topic);
  return value.toLowerCase();
}

function keyNameOption(value: unknown, topic: string): string {
  const name = typeof value === 'string' ? value.trim() : '';
  if (!name) throw new UsageError('--name <text> is required: a description of who or what uses the key.', topic);
  if (name.length > MAX_KEY_NAME_LENGTH) throw new UsageError(`--name must be at most ${MAX_KEY_NAME_LENGTH} characters.`, topic);
  if (/[\u0000-\u001f\u007f]/.test(name)) throw new UsageError('--name must not contain control characters.', topic);
  return name;
}

function scopesOption(value: unknown, topic: string): Scope[] {
  const valid = `Valid scopes: ${SCOPES.join(', ')}.`;
  if (typeof value !== 'string' || value.trim() === '') {
    throw new UsageError(`--scopes <comma list> is required. ${valid}`, topic);
  }
  const requested = value.split(',').map((scope) => scope.trim()).filter((scope) => scope !== '');
  const unknown = requested.filter((scope) => !isScope(scope));
  if (unknown.length) throw new UsageError(`Unknown scope${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}. ${valid}`, topic);
  if (requested.length === 0) throw new UsageError(`--scopes lists no scope. ${valid}`, topic);
  return [...new Set(requested as Scope[])];
}

function integerOption(flag: string, value: unknown, fallback: number, min: number, max: number, topic: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || !/^\d+$/.test(value)) throw new UsageError(`${flag} must be a whole number, got "${String(value)}".`, topic);
  const number = Number(value);
  if (number < min || number > max) throw new UsageError(`${flag} must be between ${min} and ${max}, got ${number}.`, topic);
  return number;
}
