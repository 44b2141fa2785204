// ESLint (flat config): typescript-eslint with type information, and the folder layering as import rules.
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

/**
 * The layers of src/, lowest first: each folder may import only the folders listed for it (and itself).
 * `common` and `config` at the bottom; then observability and the query kernel (`cost-query`, pure: no Nest, no
 * class-validator); the store (`store`: the ClickHouse connection, the schema registry and migrations, the repositories
 * of every table, the publish protocol); the other infrastructure (Redis, the audit trail, installation secrets);
 * the DTOs shared by the features; auth and health;
 * the features, which never import each other; the edges (demo, ingest, cli, mcp, the root files) last.
 * `mcp` (the MCP endpoint and its stdio relay) is the one edge that calls several features' services.
 */
const FEATURES = [
  'costs',
  'comparison',
  'filter-options',
  'sharing',
  'invoices',
  'forecasts',
  'anomalies',
  'allocation',
  'commitments',
  'budgets',
  'unit-costs',
];
const LAYERS = {
  config: [],
  common: ['config'],
  observability: ['common', 'config'],
  'cost-query': ['common'],
  // Everything that names a table or sends a statement of its own: the connection, the schema registry and migrations,
  // the repositories, the journaled partition publish and the fence backups hold, the activated maps' rewrite.
  store: ['common', 'config', 'observability', 'cost-query'],
  infrastructure: ['common', 'config', 'observability', 'store'],
  dto: ['common', 'cost-query'],
  // The admin API validates and describes data scopes with the kernel's field table and the shared Filters DTOs.
  auth: ['common', 'config', 'observability', 'store', 'infrastructure', 'cost-query', 'dto'],
  health: ['common', 'config', 'observability', 'store', 'infrastructure'],
  // Money in one currency: settings, exchange rates, the conversion of every money answer (kernel SQL); its admin API.
  currency: ['common', 'config', 'observability', 'store', 'infrastructure', 'cost-query', 'dto'],
  // An answer from the handler to the wire: serialization, CSV, delivery, and for cost data the answer cache, the
  // freshness within the key's data scope (kernel SQL) and the currency header.
  answers: ['common', 'config', 'observability', 'store', 'infrastructure', 'cost-query', 'currency', 'cost-categories'],
  // Activated tag keys: which keys each question reads from the activated columns, and the back-fill that changes them
  // (fenced against the imports' partition swaps, store/publish/publish-fence.ts).
  'tag-keys': ['common', 'config', 'observability', 'infrastructure', 'cost-query', 'dto', 'store', 'cost-categories'],
  // Cost categories defined by rules: their versions and admin API, and the categories each question computes (every
  // question's scope goes through tag-keys, which asks them).
  'cost-categories': ['common', 'config', 'observability', 'store', 'infrastructure', 'cost-query', 'dto', 'currency'],
  ...Object.fromEntries(
    FEATURES.map((feature) => [
      feature,
      [
        'common',
        'config',
        'observability',
        'store',
        'infrastructure',
        'cost-query',
        'dto',
        'answers',
        'currency',
        'tag-keys',
        'cost-categories',
      ],
    ]),
  ),
  demo: ['common', 'config', 'cost-query', 'store', 'infrastructure', 'currency'],
  // FOCUS exports mapped into staged rows, then published through the store.
  ingest: ['common', 'config', 'observability', 'infrastructure', 'cost-query', 'store'],
  // Data sources: where exports are delivered, the worker that imports each complete delivery through the importer
  // (and activates an organisation's suggested tag keys after its first import); a folder of business metrics' values
  // is loaded by the unit-costs feature's service.
  sources: ['common', 'config', 'observability', 'infrastructure', 'store', 'ingest', 'tag-keys', 'unit-costs'],
  // The audit trail's admin API (the recorder is infrastructure/audit, below every feature): the key admin routes' scope.
  audit: ['common', 'config', 'observability', 'store', 'infrastructure', 'answers', 'auth'],
  // Backups of the whole store, fenced against the imports' partition swaps (store/publish/publish-fence.ts).
  backup: ['common', 'config', 'observability', 'infrastructure', 'store'],
  mcp: ['common', 'config', 'observability', 'store', 'infrastructure', 'cost-query', 'dto', 'currency', 'answers', ...FEATURES],
  'settings-page': ['common', 'config'],
  // The operator CLI: commands over the store, keys, rates, demo data and imports; no HTTP feature.
  cli: [
    'common',
    'config',
    'store',
    'infrastructure',
    'cost-query',
    'dto',
    'auth',
    'currency',
    'demo',
    'ingest',
    'sources',
    'backup',
    'tag-keys',
    'cost-categories',
    'budgets',
    'unit-costs',
  ],
};
const FOLDERS = Object.keys(LAYERS);

// Fails closed: a folder of src/ holding code that LAYERS does not place would get no rule at all, so the lint refuses
// to run. (src/queries holds the golden SQL files, no code.)
const holdsCode = (folder) =>
  readdirSync(new URL(`./src/${folder}`, import.meta.url), { recursive: true }).some((file) => String(file).endsWith('.ts'));
const unplaced = readdirSync(new URL('./src', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !FOLDERS.includes(entry.name) && holdsCode(entry.name))
  .map((entry) => `src/${entry.name}`);
if (unplaced.length)
  throw new Error(`eslint.config.mjs: LAYERS does not place ${unplaced.join(', ')}; add each folder with what it may import.`);

/** A relative import that enters one of `folders` (by a path segment of that name). */
const entering = (folders) => `^\\.{1,2}/(?:.*/)?(?:${folders.join('|')})(?:/|$)`;

const layerRules = Object.entries(LAYERS).map(([folder, allowed]) => {
  const forbidden = FOLDERS.filter((other) => other !== folder && !allowed.includes(other));
  return {
    files: [`src/${folder}/**/*.ts`],
    // Specs check wiring across layers (e.g. that the field table reaches the DTOs and shared filters).
    ignores: ['**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: entering(forbidden),
              message: `src/${folder} may import only ${allowed.length ? allowed.map((f) => `src/${f}`).join(', ') : 'nothing else in src'} (eslint.config.mjs: LAYERS).`,
            },
            ...(folder === 'cost-query'
              ? [
                  {
                    regex: '^(@nestjs/|class-validator|class-transformer)',
                    message: 'The query kernel is pure: no Nest, no validation decorators (those are in src/dto).',
                  },
                  {
                    regex: '^\\.{1,2}/(?:.*/)?common/http(?:/|$)',
                    message: 'The query kernel knows nothing of HTTP: src/common/http is for the layers that answer requests.',
                  },
                ]
              : []),
          ],
        },
      ],
    },
  };
});

/**
 * Suites that jest runs side by side (test/e2e, with other files' workers on the same cores) assert no wall
 * time: milliseconds compared there measure the machine's load. Timed checks live in test/timing, a jest
 * project run alone and in band after the rest (docs/testing.md).
 */
const WALL_TIME =
  'Wall time is asserted only in test/timing (run alone, in band): move this check there, or assert the property by counts.';
const noWallTimeAssertions = {
  files: ['test/e2e/**/*.ts'],
  rules: {
    'no-restricted-syntax': [
      'error',
      { selector: "MemberExpression[object.name='performance'][property.name='now']", message: WALL_TIME },
      { selector: "MemberExpression[object.name='process'][property.name='hrtime']", message: WALL_TIME },
      ...['callee.object.callee.name', 'callee.object.object.callee.name'].flatMap((path) => [
        { selector: `CallExpression[${path}='expect'] MemberExpression[property.name='ms']`, message: WALL_TIME },
        {
          selector: `CallExpression[${path}='expect'] CallExpression[callee.object.name='Date'][callee.property.name='now']`,
          message: WALL_TIME,
        },
      ]),
    ],
  },
};

/**
 * Grouping rows by a key is groupedBy or addToGroup (src/common/collections/grouped-by.ts): one pass. A map of lists grown by
 * copying the list on every row (`map.set(key, [...(map.get(key) ?? []), row])`) is quadratic in a group's size.
 */
const groupingInOnePass = {
  files: ['src/**/*.ts'],
  rules: {
    'no-restricted-syntax': [
      'error',
      {
        selector: "CallExpression[callee.property.name='set'] > ArrayExpression > SpreadElement > LogicalExpression[operator='??']",
        message: 'Group with groupedBy or addToGroup (src/common/collections/grouped-by.ts): copying the list on every row is quadratic.',
      },
    ],
  },
};

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'coverage/**',
      'data/**',
      '.test-tmp/**',
      'bench/**',
      '**/*.js',
      '**/*.mjs',
      // Built against the published plugin's declarations (scripts/backstage-plugin-types.sh), which the lint's program lacks.
      'clients/*/conformance/**',
      'clients/*/dist/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // Type-aware: a promise is awaited, returned or explicitly voided; a switch over a union handles every member.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      // Declaration merging gives the DTOs built from the field table their property types.
      '@typescript-eslint/no-unsafe-declaration-merging': 'off',
      '@typescript-eslint/no-empty-object-type': ['error', { allowInterfaces: 'with-single-extends' }],
    },
  },
  ...layerRules,
  noWallTimeAssertions,
  groupingInOnePass,
  prettier,
);
