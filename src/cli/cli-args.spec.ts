import { parseCommandLine, UsageError } from './cli-args';
import { formatTable } from './cli-output';
import { usageText } from './cli-usage';

const ORG = '3F2B8C1E-7D4A-4E9B-9C2D-5A1F0E6B7C8D';

function usageError(argv: string[]): UsageError {
  try {
    parseCommandLine(argv);
  } catch (error) {
    if (error instanceof UsageError) return error;
    throw error;
  }
  throw new Error(`no usage error for ${argv.join(' ')}`);
}

describe('CLI command line', () => {
  it('shows help without a command, for help and --help', () => {
    expect(parseCommandLine([])).toEqual({ name: 'help' });
    expect(parseCommandLine(['--help'])).toEqual({ name: 'help' });
    expect(parseCommandLine(['help', 'keys', 'create'])).toEqual({ name: 'help', topic: 'keys create' });
    expect(parseCommandLine(['keys', 'list', '--help'])).toEqual({ name: 'help', topic: 'keys list' });
  });

  it('parses keys create with a normalised organisation, trimmed name and de-duplicated scopes', () => {
    expect(
      parseCommandLine([
        'keys',
        'create',
        '--org',
        ORG,
        '--name',
        ' CI pipeline ',
        '--scopes',
        'cost:read, shared-filters:read,cost:read',
        '--json',
      ]),
    ).toEqual({
      name: 'keys create',
      organizationId: ORG.toLowerCase(),
      keyName: 'CI pipeline',
      scopes: ['cost:read', 'shared-filters:read'],
      json: true,
    });
    expect(parseCommandLine(['keys', 'create', `--org=${ORG}`, '--name=x', '--scopes=shared-filters:write'])).toMatchObject({
      scopes: ['shared-filters:write'],
      json: false,
    });
  });

  it('parses tag-keys show and set, the key lists comma-separated, trimmed and once each', () => {
    expect(parseCommandLine(['tag-keys', 'show', '--org', ORG])).toEqual({
      name: 'tag-keys show',
      organizationId: ORG.toLowerCase(),
      json: false,
    });
    expect(
      parseCommandLine(['tag-keys', 'set', '--org', ORG, '--tag', 'team, env,team', '--cost-category', 'Business Unit', '--json']),
    ).toEqual({
      name: 'tag-keys set',
      organizationId: ORG.toLowerCase(),
      tag: ['team', 'env'],
      costCategory: ['Business Unit'],
      json: true,
    });
    expect(parseCommandLine(['tag-keys', 'set', '--org', ORG])).toMatchObject({ tag: [], costCategory: [] });
    expect(usageError(['tag-keys', 'set', '--org', ORG, '--tag', 'x'.repeat(257)]).message).toMatch(
      /^--tag: a key is at most 256 characters/,
    );
    const many = Array.from({ length: 51 }, (_, i) => `k${i}`).join(',');
    expect(usageError(['tag-keys', 'set', '--org', ORG, '--cost-category', many]).message).toBe(
      '--cost-category: at most 50 keys, got 51.',
    );
    expect(usageError(['tag-keys']).message).toBe('tag-keys needs a subcommand: show or set.');
    expect(usageError(['tag-keys', 'set']).message).toMatch(/--org <uuid> is required/);
  });

  it('rejects bad keys create input with messages naming the option', () => {
    expect(usageError(['keys', 'create', '--name', 'x', '--scopes', 'cost:read']).message).toBe('--org <uuid> is required.');
    expect(usageError(['keys', 'create', '--org', 'acme', '--name', 'x', '--scopes', 'cost:read']).message).toMatch(
      /^--org must be a UUID .* got "acme"\.$/,
    );
    expect(usageError(['keys', 'create', '--org', ORG, '--scopes', 'cost:read']).message).toMatch(/^--name <text> is required/);
    expect(usageError(['keys', 'create', '--org', ORG, '--name', '  ', '--scopes', 'cost:read']).message).toMatch(/^--name/);
    expect(usageError(['keys', 'create', '--org', ORG, '--name', 'x']).message).toBe(
      '--scopes <comma list> is required. Valid scopes: cost:read, shared-filters:read, shared-filters:write, api-keys:admin, rates:admin, sources:admin, anomalies:write, tag-keys:admin, cost-categories:admin, budgets:admin, metrics:admin.',
    );
    expect(usageError(['keys', 'create', '--org', ORG, '--name', 'x', '--scopes', 'cost:read,cost:write,admin']).message).toBe(
      'Unknown scopes: cost:write, admin. Valid scopes: cost:read, shared-filters:read, shared-filters:write, api-keys:admin, rates:admin, sources:admin, anomalies:write, tag-keys:admin, cost-categories:admin, budgets:admin, metrics:admin.',
    );
    expect(usageError(['keys', 'create', '--org', ORG, '--name', 'x', '--scopes', ' , ']).message).toMatch(/^--scopes lists no scope/);
    expect(usageError(['keys', 'create', '--org', ORG, '--name', 'x', '--scopes', 'cost:read', '--data-scope', '{team']).message).toMatch(
      /^--data-scope must be JSON: Filters without dates/,
    );
    expect(
      parseCommandLine([
        'keys',
        'create',
        '--org',
        ORG,
        '--name',
        'x',
        '--scopes',
        'cost:read',
        '--data-scope',
        '{"inclusions":{"clouds":["AWS"]}}',
      ]),
    ).toMatchObject({ dataScope: { inclusions: { clouds: ['AWS'] } } });
    expect(usageError(['keys', 'create', '--org', ORG, '--name', 'x', '--scopes', 'cost:read', '--admin']).message).toBe(
      "Unknown option '--admin'.",
    );
    expect(usageError(['keys', 'create', '--org']).message).toMatch(/--org/);
    expect(usageError(['keys', 'create', '--org', ORG, '--name', 'x', '--scopes', 'cost:read', 'extra']).message).toBe(
      'Unexpected argument "extra".',
    );
  });

  it('parses keys list and keys revoke', () => {
    expect(parseCommandLine(['keys', 'list', '--org', ORG])).toEqual({ name: 'keys list', organizationId: ORG.toLowerCase(), json: false });
    expect(parseCommandLine(['keys', 'revoke', 'AbC123xyz789'])).toEqual({ name: 'keys revoke', keyId: 'AbC123xyz789' });
    expect(usageError(['keys', 'revoke']).message).toMatch(/needs the id/);
    expect(usageError(['keys', 'revoke', 'a', 'b']).message).toBe('Unexpected argument "b".');
    expect(usageError(['keys']).message).toMatch(/create, list or revoke/);
    expect(usageError(['keys', 'delete']).message).toMatch(/^Unknown keys subcommand "delete"/);
  });

  it("parses rates import, its --source under the rule of the API's ?source= and a file's source column", () => {
    expect(parseCommandLine(['rates', 'import', 'rates.csv', '--org', ORG, '--source', 'Banque de France'])).toEqual({
      name: 'rates import',
      organizationId: ORG.toLowerCase(),
      path: 'rates.csv',
      source: 'Banque de France',
      json: false,
    });
    const rule = '--source must be 1 to 64 letters, digits, spaces or ._:/()+-, starting with a letter or digit.';
    for (const source of ['=HYPERLINK(http://evil.example/x)', 'a'.repeat(65), '+SUM(A1)']) {
      expect(usageError(['rates', 'import', 'rates.csv', '--org', ORG, '--source', source]).message).toBe(rule);
    }
  });

  it('refuses a full API key as the id to revoke without echoing it', () => {
    const key = 'cik_AbC123xyz789_secretsecretsecretsecretsecretsecretsecretsecr123456';
    const error = usageError(['keys', 'revoke', key]);
    expect(error.message).toMatch(/not the API key itself/);
    expect(error.message).not.toContain('secret');
  });

  it('parses demo-data with defaults and bounds', () => {
    expect(parseCommandLine(['demo-data', '--org', ORG])).toEqual({
      name: 'demo-data',
      organizationId: ORG.toLowerCase(),
      days: 396,
      seed: 42,
      replace: false,
      json: false,
    });
    expect(parseCommandLine(['demo-data', '--org', ORG, '--days', '30', '--seed', '7', '--replace'])).toMatchObject({
      days: 30,
      seed: 7,
      replace: true,
    });
    expect(usageError(['demo-data', '--org', ORG, '--days', '0']).message).toBe('--days must be between 1 and 3660, got 0.');
    expect(usageError(['demo-data', '--org', ORG, '--days', '1.5']).message).toBe('--days must be a whole number, got "1.5".');
    expect(usageError(['demo-data', '--org', ORG, '--seed', '-1']).message).toMatch(/--seed/);
    expect(usageError(['demo-data']).message).toBe('--org <uuid> is required.');
  });

  it("parses a valid ingest command line into the import's options and rejects a bad one as a usage error", () => {
    const argv = ['focus', 'exports/', '--org', '6f1c1f5e-8a4b-4c1e-9a53-2d7f0c8b1a11'];
    expect(parseCommandLine(['ingest', ...argv])).toEqual({
      name: 'ingest',
      paths: ['exports/'],
      organizationId: '6f1c1f5e-8a4b-4c1e-9a53-2d7f0c8b1a11',
      json: false,
    });
    expect(parseCommandLine(['ingest', '--help'])).toEqual({ name: 'help', topic: 'ingest' });
    expect(usageError(['ingest', 'focus', 'exports/']).topic).toBe('ingest');
    expect(usageError(['ingest', 'csv', 'x', '--org', '6f1c1f5e-8a4b-4c1e-9a53-2d7f0c8b1a11']).message).toMatch(/focus/);
  });

  it('parses the ingest command line', () => {
    expect(parseCommandLine(['ingest', 'focus', 'a.csv', 'dir', '--org', 'u', '--integration', 'x', '--json'])).toEqual({
      name: 'ingest',
      paths: ['a.csv', 'dir'],
      organizationId: 'u',
      integrationId: 'x',
      json: true,
    });
    expect(usageError(['ingest', 'focus', 'a.csv']).message).toBe('--org <uuid> is required');
    expect(usageError(['ingest', 'focus', '--org', 'u']).message).toBe('a file or directory to import is required');
    expect(usageError(['ingest', 'focus', 'a.csv', '--org']).message).toBe('--org needs a value');
    expect(usageError(['ingest', 'cur', 'a.csv']).message).toBe('unknown ingest command "cur" (expected: focus or recover)');
  });

  it('parses ingest recover', () => {
    expect(parseCommandLine(['ingest', 'recover'])).toEqual({ name: 'ingest recover', json: false });
    expect(parseCommandLine(['ingest', 'recover', '--json'])).toEqual({ name: 'ingest recover', json: true });
    expect(parseCommandLine(['ingest', 'recover', '--help'])).toEqual({ name: 'help', topic: 'ingest recover' });
    expect(usageError(['ingest', 'recover', '--org', 'x']).message).toBe("Unknown option '--org'.");
    expect(usageError(['ingest', 'recover', 'now']).topic).toBe('ingest recover');
  });

  it('answers help wherever it is asked before a command, never running the command', () => {
    expect(parseCommandLine(['-h', 'migrate'])).toEqual({ name: 'help' });
    expect(parseCommandLine(['ingest', '--help', 'focus', 'a.csv', '--org', ORG])).toEqual({ name: 'help', topic: 'ingest' });
    expect(parseCommandLine(['keys', '--help'])).toEqual({ name: 'help', topic: 'keys' });
    expect(parseCommandLine(['help', '--json'])).toEqual({ name: 'help', topic: '--json' });
  });

  it('refuses an option as the value of another, and takes --option=value', () => {
    expect(usageError(['keys', 'list', '--org', '--json']).message).toBe('--org needs a value');
    expect(usageError(['ingest', 'focus', 'a.csv', '--org', ORG, '--integration', '--json']).message).toBe('--integration needs a value');
    expect(parseCommandLine(['demo-data', `--org=${ORG}`, '--days=7'])).toMatchObject({ days: 7 });
    expect(usageError(['demo-data', '--org', ORG, '--seed=-1']).message).toBe('--seed must be a whole number, got "-1".');
  });

  it('reports mistakes only by throwing: parsing neither prints nor exits', () => {
    const exit = jest.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
    const stdout = jest.spyOn(process.stdout, 'write');
    const stderr = jest.spyOn(process.stderr, 'write');
    try {
      for (const argv of [['keys', 'create', '--bogus'], ['keys', 'revoke', 'a', 'b'], ['serve'], ['--help']]) {
        try {
          parseCommandLine(argv);
        } catch (error) {
          expect(error).toBeInstanceOf(UsageError);
        }
      }
      expect([exit, stdout, stderr].map((spy) => spy.mock.calls.length)).toEqual([0, 0, 0]);
    } finally {
      [exit, stdout, stderr].forEach((spy) => spy.mockRestore());
    }
  });

  it('parses budgets list, show, set and remove, the budget id in lower case', () => {
    const id = '9B2E6C1A-4F3D-4A5B-8C7D-6E5F4A3B2C1D';
    const organizationId = ORG.toLowerCase();
    expect(parseCommandLine(['budgets', 'list', '--org', ORG, '--json'])).toEqual({ name: 'budgets list', organizationId, json: true });
    for (const name of ['show', 'remove'] as const) {
      expect(parseCommandLine(['budgets', name, '--org', ORG, '--id', id])).toEqual({
        name: `budgets ${name}`,
        organizationId,
        budgetId: id.toLowerCase(),
        json: false,
      });
    }
    expect(parseCommandLine(['budgets', 'set', '--org', ORG, '--file', 'budget.json'])).toEqual({
      name: 'budgets set',
      organizationId,
      file: 'budget.json',
      json: false,
    });
    expect(parseCommandLine(['budgets', 'set', '--file=b.json', `--org=${ORG}`, '--id', id, '--json'])).toEqual({
      name: 'budgets set',
      organizationId,
      file: 'b.json',
      budgetId: id.toLowerCase(),
      json: true,
    });
    expect(parseCommandLine(['budgets', 'set', '--help'])).toEqual({ name: 'help', topic: 'budgets set' });
  });

  it('refuses a budgets command line lacking what it needs, naming the option, with the usage of the command', () => {
    expect(usageError(['budgets']).message).toBe('budgets needs a subcommand: list, show, set or remove.');
    expect(usageError(['budgets', 'delete']).message).toBe('Unknown budgets subcommand "delete": use list, show, set or remove.');
    expect(usageError(['budgets', 'list']).message).toBe('--org <uuid> is required.');
    expect(usageError(['budgets', 'show', '--org', ORG])).toMatchObject({
      message: "budgets show needs --id <uuid>: the budget's id (see `budgets list`).",
      topic: 'budgets show',
    });
    expect(usageError(['budgets', 'remove', '--org', ORG, '--id', '42']).message).toBe(
      '--id must be a budget\'s id (a UUID, see `budgets list`), got "42".',
    );
    expect(usageError(['budgets', 'show', '--org', ORG, ORG]).message).toBe(`Unexpected argument "${ORG}".`);
    expect(usageError(['budgets', 'set', '--org', ORG]).message).toBe(
      'budgets set needs --file <budget.json>: the body of POST /v1/admin/budgets.',
    );
    expect(usageError(['budgets', 'set', '--org', ORG, '--file', '--json']).message).toBe('--file needs a value');
    expect(usageText('budgets')).toMatch(/budgets list[\s\S]*budgets show[\s\S]*budgets set[\s\S]*budgets remove/);
    expect(usageText('budgets set')).toContain('never shown again');
  });

  it('parses metrics list, define and import', () => {
    const organizationId = ORG.toLowerCase();
    expect(parseCommandLine(['metrics', 'list', '--org', ORG, '--json'])).toEqual({ name: 'metrics list', organizationId, json: true });
    expect(parseCommandLine(['metrics', 'define', '--org', ORG, '--name', 'orders', '--unit', 'order'])).toEqual({
      name: 'metrics define',
      organizationId,
      metricName: 'orders',
      unit: 'order',
      json: false,
    });
    expect(
      parseCommandLine([
        'metrics',
        'define',
        `--org=${ORG}`,
        '--name=orders',
        '--unit',
        'order',
        '--unit-scale',
        '1000',
        '--dimension',
        'tag:team',
      ]),
    ).toMatchObject({ unitScale: 1000, dimension: 'tag:team' });
    expect(parseCommandLine(['metrics', 'import', 'orders.csv', '--org', ORG, '--name', 'orders', '--json'])).toEqual({
      name: 'metrics import',
      organizationId,
      metricName: 'orders',
      file: 'orders.csv',
      json: true,
    });
    expect(parseCommandLine(['metrics', 'import', '--help'])).toEqual({ name: 'help', topic: 'metrics import' });
  });

  it('refuses a metrics command line lacking what it needs, naming the option, with the usage of the command', () => {
    expect(usageError(['metrics']).message).toBe('metrics needs a subcommand: list, define or import.');
    expect(usageError(['metrics', 'remove']).message).toBe('Unknown metrics subcommand "remove": use list, define or import.');
    expect(usageError(['metrics', 'list']).message).toBe('--org <uuid> is required.');
    expect(usageError(['metrics', 'import', '--org', ORG, '--name', 'orders'])).toMatchObject({
      message: 'metrics import needs the values file (CSV lines date,value[,dimension value]).',
      topic: 'metrics import',
    });
    expect(usageError(['metrics', 'import', 'orders.csv', '--org', ORG]).message).toBe(
      "metrics import needs --name <metric>: the business metric's name (see `metrics list`).",
    );
    expect(usageError(['metrics', 'import', 'a.csv', 'b.csv', '--org', ORG, '--name', 'orders']).message).toBe(
      'Unexpected argument "b.csv".',
    );
    expect(usageError(['metrics', 'define', '--org', ORG, '--name', 'orders']).message).toBe(
      'metrics define needs --unit <text>: what one unit is, e.g. order.',
    );
    expect(usageError(['metrics', 'define', '--org', ORG, '--name', 'orders', '--unit', 'order', '--unit-scale', '100']).message).toBe(
      '--unit-scale must be 1, 1000 or 1000000, got "100".',
    );
    expect(usageText('metrics')).toMatch(/metrics list[\s\S]*metrics define[\s\S]*metrics import/);
    expect(usageText('metrics import')).toContain('nothing is stored');
  });

  it('rejects unknown commands', () => {
    expect(usageError(['serve']).message).toBe('Unknown command "serve".');
  });

  it('has usage text for every command and for one command', () => {
    const all = usageText();
    for (const command of ['migrate', 'keys create', 'keys list', 'keys revoke', 'demo-data', 'ingest focus', 'ingest recover']) {
      expect(all).toContain(`  ${command}`);
    }
    expect(usageText('ingest')).toContain('ingest focus');
    expect(usageText('ingest')).toContain('ingest recover');
    expect(usageText('keys revoke')).toContain('keys revoke <id>');
    expect(usageText('keys revoke')).not.toContain('demo-data');
    expect(usageText('keys')).toContain('keys create');
    expect(usageText('keys')).toContain('keys list');
  });

  it('formats aligned tables', () => {
    expect(
      formatTable(
        ['ID', 'NAME'],
        [
          ['a', 'first'],
          ['bbbb', 'x'],
        ],
      ),
    ).toBe('ID    NAME\na     first\nbbbb  x');
  });
});
