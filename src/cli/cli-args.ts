import { Command, OptionValues } from 'commander';
import { API_KEY_PREFIX } from '../auth/api-key-format';
import { BACKUP_NAME } from '../backup/backup-manifest';
import { isScope, MAX_KEY_NAME_LENGTH, Scope, SCOPES } from '../common/http/principal';
import { UUID_PATTERN } from '../common/validation/patterns';
import { DEMO_DEFAULT_DAYS, DEMO_DEFAULT_SEED } from '../demo/demo-data.generator';
import type { IngestFocusCommandOptions } from './ingest-focus.command';
import { isCurrencyCode } from '../common/money/currency-codes';
import { MAX_MAP_KEY_LENGTH } from '../cost-query/dimension-registry';
import { MAX_ACTIVATED_KEYS } from '../tag-keys/activated-keys-limit';
import { METRIC_LIMITS } from '../unit-costs/business-metric';
import { CONVERSION_POLICIES, ConversionPolicy, isRateSource, RATE_SOURCE_RULE } from '../common/money/exchange-rates';
import { INTEGRATION_ID_PATTERN, INTEGRATION_ID_RULE, isSourceKind, SourceOptions } from '../sources/source-location';
import { SOURCE_KINDS, SourceKind } from '../store/repositories/sources.repository';

/** A command line the CLI understood, with every value validated. */
export type CliCommand =
  | { name: 'help'; topic?: string }
  | { name: 'migrate' }
  | { name: 'keys create'; organizationId: string; keyName: string; scopes: Scope[]; dataScope?: unknown; json: boolean }
  | { name: 'keys list'; organizationId: string; json: boolean }
  | { name: 'keys revoke'; keyId: string }
  | { name: 'demo-data'; organizationId: string; days: number; seed: number; replace: boolean; json: boolean }
  /** `ingest focus`; the runner recognises imports by this name (they get a longer query budget). */
  | ({ name: 'ingest' } & IngestFocusCommandOptions)
  | { name: 'ingest recover'; json: boolean }
  | { name: 'rates import'; organizationId: string; path: string; source?: string; json: boolean }
  | { name: 'rates list'; organizationId: string; json: boolean }
  | { name: 'currency show'; organizationId: string; json: boolean }
  | {
      name: 'currency set';
      organizationId: string;
      reportingCurrency?: string;
      conversionPolicy?: ConversionPolicy;
      json: boolean;
    }
  | {
      name: 'sources add';
      organizationId: string;
      integrationId: string;
      kind: SourceKind;
      url: string;
      options: SourceOptions;
      json: boolean;
    }
  | { name: 'sources list'; organizationId: string; json: boolean }
  | { name: 'sources remove' | 'sources run'; organizationId: string; sourceId: string; json: boolean }
  | { name: 'backup create'; backupName?: string; incremental: boolean; json: boolean }
  | { name: 'backup list'; json: boolean }
  | { name: 'tag-keys show'; organizationId: string; json: boolean }
  | { name: 'tag-keys set'; organizationId: string; tag: string[]; costCategory: string[]; json: boolean }
  | { name: 'cost-categories list'; organizationId: string; json: boolean }
  | { name: 'cost-categories show' | 'cost-categories delete'; organizationId: string; key: string; json: boolean }
  | { name: 'cost-categories set' | 'cost-categories preview'; organizationId: string; key: string; file: string; json: boolean }
  | { name: 'budgets list'; organizationId: string; json: boolean }
  | { name: 'budgets show' | 'budgets remove'; organizationId: string; budgetId: string; json: boolean }
  /** `budgets set`: creates a budget from the file, or replaces the definition of the one `budgetId` names. */
  | { name: 'budgets set'; organizationId: string; file: string; budgetId?: string; json: boolean }
  | { name: 'metrics list'; organizationId: string; json: boolean }
  | {
      name: 'metrics define';
      organizationId: string;
      metricName: string;
      unit: string;
      unitScale?: number;
      dimension?: string;
      json: boolean;
    }
  /** `metrics import`: the values of a CSV file `date,value[,dimension value]`, loaded as the admin API loads text/csv. */
  | { name: 'metrics import'; organizationId: string; metricName: string; file: string; json: boolean }
  | { name: 'backup restore'; backupName: string; force: boolean; json: boolean };

/** A mistake in the command line: reported with the usage text of `topic` (all commands if none), exit code 2. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly topic?: string,
  ) {
    super(message);
  }
}

const MAX_DEMO_DAYS = 3660;

function backupNameOption(name: string | undefined): string | undefined {
  if (name !== undefined && !BACKUP_NAME.test(name)) {
    throw new UsageError(`a backup name is 1-100 letters, digits, '.', '_' or '-', starting with a letter or digit; got "${name}".`);
  }
  return name;
}

/** A comma-separated list of tag or cost-category keys (`--tag ''` or leaving it out: none). */
function keyListOption(flag: string, value: unknown): string[] {
  const text = stringOption(flag, value === true ? '' : value) ?? '';
  const keys = text
    .split(',')
    .map((key) => key.trim())
    .filter((key) => key.length > 0);
  const tooLong = keys.find((key) => key.length > MAX_MAP_KEY_LENGTH);
  if (tooLong) throw new UsageError(`${flag}: a key is at most ${MAX_MAP_KEY_LENGTH} characters, got "${tooLong.slice(0, 40)}…".`);
  if (keys.length > MAX_ACTIVATED_KEYS) throw new UsageError(`${flag}: at most ${MAX_ACTIVATED_KEYS} keys, got ${keys.length}.`);
  return [...new Set(keys)];
}

/** `sources add`'s store options; the source checks them (parseSourceLocation) and says what is wrong. */
function sourceOptions(options: OptionValues): SourceOptions {
  const pair = stringOption('--credentials-env', options.credentialsEnv);
  const [idEnv, secretEnv, ...rest] = pair ? pair.split(',').map((name) => name.trim()) : [];
  if (pair !== undefined && (!idEnv || !secretEnv || rest.length > 0))
    throw new UsageError('--credentials-env takes two variable names: ID_VAR,SECRET_VAR');
  const sasTokenEnv = stringOption('--sas-token-env', options.sasTokenEnv);
  const credentials = definedOnly({ idEnv, secretEnv, sasTokenEnv });
  return definedOnly({
    endpoint: stringOption('--endpoint', options.endpoint),
    region: stringOption('--region', options.region),
    pathStyle: options.pathStyle === true ? true : undefined,
    credentials: Object.keys(credentials).length > 0 ? credentials : undefined,
  });
}

function definedOnly<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/** Parses a command line (the arguments after the script) into a validated command, or throws a UsageError. */
export function parseCommandLine(argv: string[]): CliCommand {
  let parsed: CliCommand | undefined;
  cliProgram((command) => (parsed = command)).parse(argv, { from: 'user' });
  // Every command has an action, and each either accepts a command or throws.
  return parsed!;
}

type Accept = (command: CliCommand) => void;

/**
 * The CLI's commands and options, defined once. Each action turns what commander parsed into a
 * validated CliCommand for `accept`. Commander's help and output are off: help is cli-usage.ts's
 * text, and the runner prints usage errors with it.
 */
function cliProgram(accept: Accept): Command {
  const program = group(new Command('cli'), undefined, accept, (name) => {
    if (name === undefined) return { name: 'help' };
    throw new UsageError(`Unknown command "${name}".`);
  });

  // Not `group`: every word after `help` is the topic, even one that looks like an option.
  configure(program.command('help'), 'help')
    .allowUnknownOption()
    .argument('[topic...]')
    .action((topic: string[]) => accept({ name: 'help', topic: topic.join(' ') || undefined }));

  command(program, 'migrate', 'migrate', accept, () => ({ name: 'migrate' }));

  const keys = group(program.command('keys'), 'keys', accept, (name) => {
    if (name === undefined) throw new UsageError('keys needs a subcommand: create, list or revoke.');
    throw new UsageError(`Unknown keys subcommand "${name}": use create, list or revoke.`);
  });
  command(keys, 'create', 'keys create', accept, (options) => ({
    name: 'keys create',
    organizationId: organizationIdOption(options.org),
    keyName: keyNameOption(options.name),
    scopes: scopesOption(options.scopes),
    dataScope: dataScopeOption(options.dataScope),
    json: options.json === true,
  }))
    .option('--org [uuid]')
    .option('--name [text]')
    .option('--scopes [list]')
    .option('--data-scope [json]')
    .option('--json');
  command(keys, 'list', 'keys list', accept, (options) => ({
    name: 'keys list',
    organizationId: organizationIdOption(options.org),
    json: options.json === true,
  }))
    .option('--org [uuid]')
    .option('--json');
  command(keys, 'revoke', 'keys revoke', accept, (_, [keyId]) => {
    if (!keyId) throw new UsageError('keys revoke needs the id of the key to revoke (see `keys list`).');
    // Never echo it: it may be a real key pasted by mistake.
    if (keyId.startsWith(API_KEY_PREFIX)) throw new UsageError('Pass the key id shown by `keys list`, not the API key itself.');
    return { name: 'keys revoke', keyId };
  }).argument('[id]');

  command(program, 'demo-data', 'demo-data', accept, (options) => ({
    name: 'demo-data',
    organizationId: organizationIdOption(options.org),
    days: integerOption('--days', options.days, DEMO_DEFAULT_DAYS, 1, MAX_DEMO_DAYS),
    seed: integerOption('--seed', options.seed, DEMO_DEFAULT_SEED, 0, 0xffffffff),
    replace: options.replace === true,
    json: options.json === true,
  }))
    .option('--org [uuid]')
    .option('--days [n]')
    .option('--seed [n]')
    .option('--replace')
    .option('--json');

  const ingest = group(program.command('ingest'), 'ingest', accept, (name) => {
    throw new UsageError(`unknown ingest command "${name ?? ''}" (expected: focus or recover)`);
  });
  // Its help and mistakes show the usage of both ingest commands. Whether --org is a UUID is checked
  // by the import itself (exit code 1), as it always was.
  command(ingest, 'focus', 'ingest', accept, (options, paths) => {
    if (paths.length === 0) throw new UsageError('a file or directory to import is required');
    const organizationId = stringOption('--org', options.org);
    if (!organizationId) throw new UsageError('--org <uuid> is required');
    return {
      name: 'ingest',
      paths,
      organizationId,
      integrationId: stringOption('--integration', options.integration),
      json: options.json === true,
    };
  })
    .argument('[paths...]')
    .option('--org [uuid]')
    .option('--integration [id]')
    .option('--json');
  command(ingest, 'recover', 'ingest recover', accept, (options) => ({
    name: 'ingest recover',
    json: options.json === true,
  })).option('--json');

  const rates = group(program.command('rates'), 'rates', accept, (name) => {
    if (name === undefined) throw new UsageError('rates needs a subcommand: import or list.');
    throw new UsageError(`Unknown rates subcommand "${name}": use import or list.`);
  });
  command(rates, 'import', 'rates import', accept, (options, [path]) => {
    if (!path) throw new UsageError('rates import needs the rates file (ECB reference rates, or date,from,to,rate).');
    return {
      name: 'rates import',
      organizationId: organizationIdOption(options.org),
      path,
      source: rateSourceOption(options.source),
      json: options.json === true,
    };
  })
    .argument('[file]')
    .option('--org [uuid]')
    .option('--source [name]')
    .option('--json');
  command(rates, 'list', 'rates list', accept, (options) => ({
    name: 'rates list',
    organizationId: organizationIdOption(options.org),
    json: options.json === true,
  }))
    .option('--org [uuid]')
    .option('--json');

  const currency = group(program.command('currency'), 'currency', accept, (name) => {
    if (name === undefined) throw new UsageError('currency needs a subcommand: show or set.');
    throw new UsageError(`Unknown currency subcommand "${name}": use show or set.`);
  });
  command(currency, 'show', 'currency show', accept, (options) => ({
    name: 'currency show',
    organizationId: organizationIdOption(options.org),
    json: options.json === true,
  }))
    .option('--org [uuid]')
    .option('--json');
  command(currency, 'set', 'currency set', accept, (options) => {
    const reportingCurrency = stringOption('--reporting-currency', options.reportingCurrency);
    const conversionPolicy = stringOption('--policy', options.policy);
    if (reportingCurrency === undefined && conversionPolicy === undefined)
      throw new UsageError('currency set needs --reporting-currency or --policy.');
    if (reportingCurrency !== undefined && !isCurrencyCode(reportingCurrency)) {
      throw new UsageError(`--reporting-currency must be an ISO 4217 code in capitals (e.g. USD, EUR), got "${reportingCurrency}".`);
    }
    if (conversionPolicy !== undefined && !(CONVERSION_POLICIES as readonly string[]).includes(conversionPolicy)) {
      throw new UsageError(`--policy must be one of ${CONVERSION_POLICIES.join(', ')}, got "${conversionPolicy}".`);
    }
    return {
      name: 'currency set',
      organizationId: organizationIdOption(options.org),
      reportingCurrency,
      conversionPolicy: conversionPolicy as ConversionPolicy | undefined,
      json: options.json === true,
    };
  })
    .option('--org [uuid]')
    .option('--reporting-currency [code]')
    .option('--policy [usage_date|period_end]')
    .option('--json');

  const tagKeys = group(program.command('tag-keys'), 'tag-keys', accept, (name) => {
    if (name === undefined) throw new UsageError('tag-keys needs a subcommand: show or set.');
    throw new UsageError(`Unknown tag-keys subcommand "${name}": use show or set.`);
  });
  command(tagKeys, 'show', 'tag-keys show', accept, (options) => ({
    name: 'tag-keys show',
    organizationId: organizationIdOption(options.org),
    json: options.json === true,
  }))
    .option('--org [uuid]')
    .option('--json');
  command(tagKeys, 'set', 'tag-keys set', accept, (options) => ({
    name: 'tag-keys set',
    organizationId: organizationIdOption(options.org),
    tag: keyListOption('--tag', options.tag),
    costCategory: keyListOption('--cost-category', options.costCategory),
    json: options.json === true,
  }))
    .option('--org [uuid]')
    .option('--tag [keys]')
    .option('--cost-category [keys]')
    .option('--json');

  const costCategories = group(program.command('cost-categories'), 'cost-categories', accept, (name) => {
    if (name === undefined) throw new UsageError('cost-categories needs a subcommand: list, show, set, preview or delete.');
    throw new UsageError(`Unknown cost-categories subcommand "${name}": use list, show, set, preview or delete.`);
  });
  command(costCategories, 'list', 'cost-categories list', accept, (options) => ({
    name: 'cost-categories list',
    organizationId: organizationIdOption(options.org),
    json: options.json === true,
  }))
    .option('--org [uuid]')
    .option('--json');
  for (const name of ['show', 'delete'] as const) {
    command(costCategories, name, `cost-categories ${name}`, accept, (options, [key]) => ({
      name: `cost-categories ${name}`,
      organizationId: organizationIdOption(options.org),
      key: categoryKeyOperand(`cost-categories ${name}`, key),
      json: options.json === true,
    }))
      .argument('[key]')
      .option('--org [uuid]')
      .option('--json');
  }
  for (const name of ['set', 'preview'] as const) {
    command(costCategories, name, `cost-categories ${name}`, accept, (options, [key, file]) => {
      const checkedKey = categoryKeyOperand(`cost-categories ${name}`, key);
      if (!file) throw new UsageError(`cost-categories ${name} needs the definition's JSON file after the key.`);
      return {
        name: `cost-categories ${name}`,
        organizationId: organizationIdOption(options.org),
        key: checkedKey,
        file,
        json: options.json === true,
      };
    })
      .argument('[key]')
      .argument('[file]')
      .option('--org [uuid]')
      .option('--json');
  }

  const budgets = group(program.command('budgets'), 'budgets', accept, (name) => {
    if (name === undefined) throw new UsageError('budgets needs a subcommand: list, show, set or remove.');
    throw new UsageError(`Unknown budgets subcommand "${name}": use list, show, set or remove.`);
  });
  command(budgets, 'list', 'budgets list', accept, (options) => ({
    name: 'budgets list',
    organizationId: organizationIdOption(options.org),
    json: options.json === true,
  }))
    .option('--org [uuid]')
    .option('--json');
  for (const name of ['show', 'remove'] as const) {
    command(budgets, name, `budgets ${name}`, accept, (options) => ({
      name: `budgets ${name}`,
      organizationId: organizationIdOption(options.org),
      budgetId: requiredBudgetIdOption(`budgets ${name}`, options.id),
      json: options.json === true,
    }))
      .option('--org [uuid]')
      .option('--id [uuid]')
      .option('--json');
  }
  command(budgets, 'set', 'budgets set', accept, (options) => {
    const file = stringOption('--file', options.file);
    if (!file) throw new UsageError('budgets set needs --file <budget.json>: the body of POST /v1/admin/budgets.');
    return {
      name: 'budgets set',
      organizationId: organizationIdOption(options.org),
      file,
      budgetId: budgetIdOption(options.id),
      json: options.json === true,
    };
  })
    .option('--org [uuid]')
    .option('--file [path]')
    .option('--id [uuid]')
    .option('--json');

  const metrics = group(program.command('metrics'), 'metrics', accept, (name) => {
    if (name === undefined) throw new UsageError('metrics needs a subcommand: list, define or import.');
    throw new UsageError(`Unknown metrics subcommand "${name}": use list, define or import.`);
  });
  command(metrics, 'list', 'metrics list', accept, (options) => ({
    name: 'metrics list',
    organizationId: organizationIdOption(options.org),
    json: options.json === true,
  }))
    .option('--org [uuid]')
    .option('--json');
  command(metrics, 'define', 'metrics define', accept, (options) => {
    const unit = stringOption('--unit', options.unit);
    if (!unit) throw new UsageError('metrics define needs --unit <text>: what one unit is, e.g. order.');
    return {
      name: 'metrics define',
      organizationId: organizationIdOption(options.org),
      metricName: metricNameOption('metrics define', options.name),
      unit,
      unitScale: unitScaleOption(options.unitScale),
      dimension: stringOption('--dimension', options.dimension),
      json: options.json === true,
    };
  })
    .option('--org [uuid]')
    .option('--name [metric]')
    .option('--unit [text]')
    .option('--unit-scale [n]')
    .option('--dimension [dimension]')
    .option('--json');
  command(metrics, 'import', 'metrics import', accept, (options, [file]) => {
    if (!file) throw new UsageError('metrics import needs the values file (CSV lines date,value[,dimension value]).');
    return {
      name: 'metrics import',
      organizationId: organizationIdOption(options.org),
      metricName: metricNameOption('metrics import', options.name),
      file,
      json: options.json === true,
    };
  })
    .argument('[file]')
    .option('--org [uuid]')
    .option('--name [metric]')
    .option('--json');

  const backup = group(program.command('backup'), 'backup', accept, (name) => {
    if (name === undefined) throw new UsageError('backup needs a subcommand: create, list or restore.');
    throw new UsageError(`Unknown backup subcommand "${name}": use create, list or restore.`);
  });
  command(backup, 'create', 'backup create', accept, (options) => ({
    name: 'backup create',
    backupName: backupNameOption(stringOption('--name', options.name)),
    incremental: options.incremental === true,
    json: options.json === true,
  }))
    .option('--name [name]')
    .option('--incremental')
    .option('--json');
  command(backup, 'list', 'backup list', accept, (options) => ({ name: 'backup list', json: options.json === true })).option('--json');
  command(backup, 'restore', 'backup restore', accept, (options, [name]) => {
    if (!name) throw new UsageError('backup restore needs the name of a backup (see backup list).');
    return { name: 'backup restore', backupName: backupNameOption(name)!, force: options.force === true, json: options.json === true };
  })
    .argument('[name]')
    .option('--force')
    .option('--json');

  const sources = group(program.command('sources'), 'sources', accept, (name) => {
    if (name === undefined) throw new UsageError('sources needs a subcommand: add, list, remove or run.');
    throw new UsageError(`Unknown sources subcommand "${name}": use add, list, remove or run.`);
  });
  command(sources, 'add', 'sources add', accept, (options) => {
    const integrationId = stringOption('--integration', options.integration);
    if (!integrationId || !INTEGRATION_ID_PATTERN.test(integrationId)) {
      throw new UsageError(`--integration <id> is required: ${INTEGRATION_ID_RULE}`);
    }
    const kind = stringOption('--kind', options.kind);
    if (!isSourceKind(kind)) throw new UsageError(`--kind must be one of ${SOURCE_KINDS.join(', ')}.`);
    const url = stringOption('--url', options.url);
    if (!url) throw new UsageError('--url <file:///dir | s3://bucket/prefix | azure://container/prefix> is required.');
    return {
      name: 'sources add',
      organizationId: organizationIdOption(options.org),
      integrationId,
      kind,
      url,
      options: sourceOptions(options),
      json: options.json === true,
    };
  })
    .option('--org [uuid]')
    .option('--integration [id]')
    .option('--kind [kind]')
    .option('--url [url]')
    .option('--endpoint [url]')
    .option('--region [region]')
    .option('--path-style')
    .option('--credentials-env [ID_VAR,SECRET_VAR]')
    .option('--sas-token-env [VAR]')
    .option('--json');
  command(sources, 'list', 'sources list', accept, (options) => ({
    name: 'sources list',
    organizationId: organizationIdOption(options.org),
    json: options.json === true,
  }))
    .option('--org [uuid]')
    .option('--json');
  for (const verb of ['remove', 'run'] as const) {
    command(sources, verb, `sources ${verb}`, accept, (options, [sourceId]) => {
      if (!sourceId || !UUID_PATTERN.test(sourceId))
        throw new UsageError(`sources ${verb} needs the id of the source (see \`sources list\`).`);
      return { name: `sources ${verb}`, organizationId: organizationIdOption(options.org), sourceId, json: options.json === true };
    })
      .argument('[id]')
      .option('--org [uuid]')
      .option('--json');
  }

  return program;
}

/**
 * Settings every command here shares: no commander help or output, and commander's errors thrown
 * as usage errors showing `topic` (its wording, as a sentence: "Unknown option '--x'.").
 */
function configure(command: Command, topic: string | undefined): Command {
  return command
    .helpOption(false)
    .helpCommand(false)
    .showSuggestionAfterError(false)
    .allowExcessArguments()
    .configureOutput({ writeOut: () => undefined, writeErr: () => undefined, outputError: () => undefined })
    .exitOverride((error) => {
      const message = error.message.replace(/^error: /, '').replace(/\.?$/, '.');
      throw new UsageError(message.charAt(0).toUpperCase() + message.slice(1), topic);
    });
}

/**
 * A command with subcommands; its own action answers help and a missing or unknown subcommand.
 * Its -h/--help is not an option: commander would still run a subcommand after it (`-h migrate`).
 */
function group(
  command: Command,
  topic: string | undefined,
  accept: Accept,
  unknownSubcommand: (name: string | undefined) => CliCommand,
): Command {
  return (
    configure(command, topic)
      // Options after a subcommand are the subcommand's (`keys create --help`).
      .enablePositionalOptions()
      // An option before any subcommand stops dispatching: it and the rest are this action's arguments.
      .allowUnknownOption()
      .action((_: OptionValues, self: Command) => {
        const help = self.args.some((arg) => arg === '-h' || arg === '--help');
        accept(help ? { name: 'help', topic } : withTopic(topic, () => unknownSubcommand(self.args[0])));
      })
  );
}

/**
 * A command that does the work. `build` validates what commander parsed (options, then the
 * positional arguments) into the CliCommand; usage errors it throws show `topic`.
 */
function command(
  parent: Command,
  name: string,
  topic: string,
  accept: Accept,
  build: (options: OptionValues, operands: string[]) => CliCommand,
): Command {
  const self = configure(parent.command(name), topic).option('-h, --help');
  return self.action(() => {
    const options = self.opts();
    if (options.help) return accept({ name: 'help', topic });
    const declared = self.registeredArguments;
    const maxOperands = declared.at(-1)?.variadic ? Infinity : declared.length;
    if (self.args.length > maxOperands) throw new UsageError(`Unexpected argument "${self.args[maxOperands]}".`, topic);
    accept(withTopic(topic, () => build(options, self.args)));
  });
}

/** Runs `build`, giving the usage errors it throws `topic` (the option validators below do not know it). */
function withTopic(topic: string | undefined, build: () => CliCommand): CliCommand {
  try {
    return build();
  } catch (error) {
    if (error instanceof UsageError && error.topic === undefined) throw new UsageError(error.message, topic);
    throw error;
  }
}

/**
 * An option's value. Options are declared with an optional value (`--org [uuid]`) so that one with
 * nothing after it, or followed by another option (`--org --json`), arrives here as `true` and is
 * refused, instead of taking the next option as its value.
 */
function stringOption(flag: string, value: unknown): string | undefined {
  if (value === true) throw new UsageError(`${flag} needs a value`);
  return typeof value === 'string' ? value : undefined;
}

/** `rates import --source`: the rule of a rate's source, as the API's `?source=` and a file's source column. */
function rateSourceOption(option: unknown): string | undefined {
  const value = stringOption('--source', option);
  if (value !== undefined && !isRateSource(value)) throw new UsageError(`--source ${RATE_SOURCE_RULE}.`);
  return value;
}

/** A category key operand: 1 to MAX_MAP_KEY_LENGTH characters. */
function categoryKeyOperand(command: string, key: string | undefined): string {
  if (!key) throw new UsageError(`${command} needs the category's key.`);
  if (key.length > MAX_MAP_KEY_LENGTH) throw new UsageError(`The category key must be 1 to ${MAX_MAP_KEY_LENGTH} characters.`);
  return key;
}

/** `--id`: a budget's id as `budgets list` shows it, in the lower case the store answers with (ids are compared as text). */
function budgetIdOption(option: unknown): string | undefined {
  const value = stringOption('--id', option);
  if (value === undefined) return undefined;
  if (!UUID_PATTERN.test(value)) throw new UsageError(`--id must be a budget's id (a UUID, see \`budgets list\`), got "${value}".`);
  return value.toLowerCase();
}

function requiredBudgetIdOption(command: string, option: unknown): string {
  const budgetId = budgetIdOption(option);
  if (budgetId === undefined) throw new UsageError(`${command} needs --id <uuid>: the budget's id (see \`budgets list\`).`);
  return budgetId;
}

/** `--name` of a business metric: required here; whether it is one the service says, as the API does. */
function metricNameOption(command: string, option: unknown): string {
  const name = stringOption('--name', option);
  if (!name) throw new UsageError(`${command} needs --name <metric>: the business metric's name (see \`metrics list\`).`);
  return name;
}

/** `--unit-scale`: unit costs are per this many units (1, 1000 or 1000000), as the API's unitScale. */
function unitScaleOption(option: unknown): number | undefined {
  const value = stringOption('--unit-scale', option);
  if (value === undefined) return undefined;
  const scales: readonly number[] = METRIC_LIMITS.unitScales;
  if (!/^\d+$/.test(value) || !scales.includes(Number(value)))
    throw new UsageError(`--unit-scale must be ${scales.join(', ').replace(/, (?=[^,]*$)/, ' or ')}, got "${value}".`);
  return Number(value);
}

function organizationIdOption(option: unknown): string {
  const value = stringOption('--org', option);
  if (!value) throw new UsageError('--org <uuid> is required.');
  if (!UUID_PATTERN.test(value)) throw new UsageError(`--org must be a UUID (xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx), got "${value}".`);
  return value.toLowerCase();
}

function keyNameOption(option: unknown): string {
  const name = stringOption('--name', option)?.trim() ?? '';
  if (!name) throw new UsageError('--name <text> is required: a description of who or what uses the key.');
  if (name.length > MAX_KEY_NAME_LENGTH) throw new UsageError(`--name must be at most ${MAX_KEY_NAME_LENGTH} characters.`);
  // eslint-disable-next-line no-control-regex -- control characters are what this rejects
  if (/[\u0000-\u001f\u007f]/.test(name)) throw new UsageError('--name must not contain control characters.');
  return name;
}

function scopesOption(option: unknown): Scope[] {
  const value = stringOption('--scopes', option);
  const valid = `Valid scopes: ${SCOPES.join(', ')}.`;
  if (value === undefined || value.trim() === '') throw new UsageError(`--scopes <comma list> is required. ${valid}`);
  const requested = value
    .split(',')
    .map((scope) => scope.trim())
    .filter((scope) => scope !== '');
  const unknown = requested.filter((scope) => !isScope(scope));
  if (unknown.length) throw new UsageError(`Unknown scope${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}. ${valid}`);
  if (requested.length === 0) throw new UsageError(`--scopes lists no scope. ${valid}`);
  return [...new Set(requested as Scope[])];
}

/** `--data-scope`: JSON, checked as such here; its fields are validated with the key (validDataScope). */
function dataScopeOption(option: unknown): unknown {
  const value = stringOption('--data-scope', option);
  if (value === undefined) return undefined;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    throw new UsageError(`--data-scope must be JSON: Filters without dates, e.g. '{"inclusions":{"accountIds":["123456789012"]}}'.`);
  }
}

function integerOption(flag: string, option: unknown, fallback: number, min: number, max: number): number {
  const value = stringOption(flag, option);
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value)) throw new UsageError(`${flag} must be a whole number, got "${value}".`);
  const number = Number(value);
  if (number < min || number > max) throw new UsageError(`${flag} must be between ${min} and ${max}, got ${number}.`);
  return number;
}
