import { SETTING_DEFAULTS } from '../config/settings';
import { SWAP_LEASE_SECONDS } from '../store/publish/import-journal';
import { DEMO_DEFAULT_DAYS, DEMO_DEFAULT_SEED } from '../demo/demo-data.generator';
import { SCOPES } from '../common/http/principal';
import { RATE_RANGE, RATE_SOURCE_RULE } from '../common/money/exchange-rates';
import { SOURCE_KINDS } from '../store/repositories/sources.repository';
import { BUDGET_LIMITS } from '../budgets/budget-definition';
import { METRIC_LIMITS } from '../unit-costs/business-metric';

const COMMANDS: Record<string, string> = {
  migrate: `  migrate
      Apply pending ClickHouse migrations (idempotent).`,
  'keys create': `  keys create --org <uuid> --name <text> --scopes <comma list> [--data-scope <json>] [--json]
      Create an API key for an organisation and print it once: it is stored only as a hash and
      can never be shown again. Scopes: ${SCOPES.join(', ')}.
      --data-scope confines the key to a slice of the organisation, fixed for its life: Filters
      without dates, e.g. '{"inclusions":{"resourceTag":"team","resourceTagValues":["payments"]}}'.
      --json prints one line: {"id","key","organizationId","name","scopes","dataScope"}.`,
  'keys list': `  keys list --org <uuid> [--json]
      List an organisation's API keys (ids, names, scopes, data scopes, status; never the keys themselves).`,
  'keys revoke': `  keys revoke <id>
      Revoke a key by its id (from keys list). Exit code 1 if there is no such key.`,
  'demo-data': `  demo-data --org <uuid> [--days N] [--seed N] [--replace] [--json]
      Load the demo multi-cloud cost estate for an organisation: N days (default ${DEMO_DEFAULT_DAYS})
      ending yesterday (UTC), deterministic per seed (default ${DEMO_DEFAULT_SEED}). Refuses an
      organisation that already has cost rows unless --replace (which deletes them first).`,
  'ingest focus': `  ingest focus <file|directory>... --org <uuid> [--integration <id>] [--json]
      Import FinOps FOCUS 1.0-1.3 exports (CSV, CSV.gz, Parquet; a directory loads every export part).
      Re-importing an integration's billing period replaces its rows; a failed import changes nothing.
      Without --integration each row's integration is <cloud>-<billing account>. See docs/focus-mapping.md.`,
  'ingest recover': `  ingest recover [--json]
      Roll back imports whose process died while publishing, so their billing periods show the data
      from before they started (every import and the API's start-up do this too). An import of
      another process still within its lease (${SWAP_LEASE_SECONDS / 60} minutes) is named and left alone.`,
  'rates import': `  rates import <file> --org <uuid> [--source <name>] [--json]
      Load an organisation's exchange rates from the ECB's reference-rate CSV as published (Date,USD,JPY,…;
      1 EUR = value; N/A where none) or a date,from,to,rate[,source] file. Checked whole first: a bad
      line refuses the file (every problem named by line) and nothing is stored. Rates (and the cross
      rates of one base and date) lie within ${RATE_RANGE.text}. A rate loaded again for a date and pair
      replaces the earlier one. --source names rates without a source column (ECB: "ECB"); a source
      ${RATE_SOURCE_RULE}.`,
  'rates list': `  rates list --org <uuid> [--json]
      The exchange rates loaded for an organisation, per currency pair: how many, first and last date, sources.`,
  'currency show': `  currency show --org <uuid> [--json]
      An organisation's reporting currency, conversion policy and the currencies its costs were billed in.`,
  'currency set': `  currency set --org <uuid> [--reporting-currency <ISO 4217>] [--policy usage_date|period_end] [--json]
      Set the currency answers are reported in (default USD) and which day's rate converts a cost: its usage
      day (usage_date, default) or its billing period's last day (period_end).`,
  'tag-keys show': `  tag-keys show --org <uuid> [--json]
      The organisation's activated tag and cost-category keys (backfilling or active), and the keys its last 90
      days carry with their share of cost (suggested: on at least half of it, with at most 10,000 values, not one per resource).`,
  'tag-keys set': `  tag-keys set --org <uuid> [--tag k1,k2] [--cost-category k1,k2] [--json]
      Set the activated keys (the whole set: keys left out are deactivated at once). Questions naming only active
      keys are answered from columns holding those keys alone; a key added is back-filled (every row of the
      organisation rewritten and checked, imports fenced) before it is active. Waits for the back-fill. No answer
      changes, only its speed.`,
  'cost-categories list': `  cost-categories list --org <uuid> [--json]
      The cost categories the organisation defines by rules, each with its latest version.`,
  'cost-categories show': `  cost-categories show <key> --org <uuid> [--json]
      Every version of one rule-defined category, oldest first (effective month, default, rules, who saved it).`,
  'cost-categories set': `  cost-categories set <key> <file.json> --org <uuid> [--json]
      Save a new version from a JSON file: {"effectiveFrom": "yyyy-MM", "defaultValue": ..., "rules": [...]}, the
      body of PUT /v1/admin/cost-categories/{key} (docs/api.md). Checked as the API checks it; nothing saved on an error.`,
  'cost-categories preview': `  cost-categories preview <key> <file.json> --org <uuid> [--json]
      What saving the file would give over the last three months: each value's cost and rows, the unallocated
      share before and after, the values changing most. Saves nothing.`,
  'cost-categories delete': `  cost-categories delete <key> --org <uuid> [--json]
      End a rule-defined category (its versions are kept).`,
  'budgets list': `  budgets list --org <uuid> [--json]
      The organisation's budgets (those made without a data scope), each with its current period's amount, actual
      spend, share used and thresholds.`,
  'budgets show': `  budgets show --org <uuid> --id <uuid> [--json]
      One budget and its standing: the current period's actual, pro-rated amount and forecast, each threshold's
      state, and the past ${BUDGET_LIMITS.historyPeriods} periods.`,
  'budgets set': `  budgets set --org <uuid> --file <budget.json> [--id <uuid>] [--json]
      Create a budget from a JSON file, the body of POST /v1/admin/budgets: {"name": ..., "period": "monthly",
      "amounts": {"default": "3000"}, "thresholds": [{"kind": "actual", "percent": 80}], "filters": ..., "notify": ...}.
      Prints its webhook signing secret, once: it is never shown again. With --id, replace that budget's definition
      (its id and secret stay). Checked as the API checks it; nothing saved on an error.`,
  'budgets remove': `  budgets remove --org <uuid> --id <uuid> [--json]
      Remove a budget (its alerts are kept 13 months).`,
  'metrics list': `  metrics list --org <uuid> [--json]
      The organisation's business metrics (the units of unit costs): unit, unit scale, dimension, last change.`,
  'metrics define': `  metrics define --org <uuid> --name <metric> --unit <text> [--unit-scale ${METRIC_LIMITS.unitScales.join('|')}]
                 [--dimension <dimension>] [--json]
      Define a business metric, or change its unit and scale, as PUT /v1/admin/business-metrics/{name}: --name
      lower-case words (orders, active_customers), --unit what one unit is (order), --unit-scale what unit costs are
      per (1000: per thousand orders; default 1), --dimension a grouping dimension its values are per (tag:team,
      costCategory:BusinessUnit, service; fixed once defined). At most ${METRIC_LIMITS.maxMetricsPerOrganization} metrics per organisation.`,
  'metrics import': `  metrics import <file.csv> --org <uuid> --name <metric> [--json]
      Load a metric's daily values from a CSV file of lines date,value[,dimension value] (a date,… header optional),
      as POST /v1/admin/business-metrics/{name}/values with text/csv. Values are non-negative decimals of at most 10
      places; a metric with a dimension needs a dimension value on every line. Checked whole first: a bad line refuses
      the file (every problem named by line and column) and nothing is stored. Each day in the file replaces that
      day's values whole.`,
  'sources add': `  sources add --org <uuid> --integration <id> --kind <${SOURCE_KINDS.join('|')}>
              --url <file:///dir | s3://bucket/prefix | azure://container/prefix> [--endpoint <url>] [--region <r>]
              [--path-style] [--credentials-env ID_VAR,SECRET_VAR] [--sas-token-env VAR] [--json]
      Add a data source: where the organisation's FOCUS exports are delivered, laid out as the kind says. S3:
      --endpoint for S3-compatible servers (OCI, GCS interop, on-prem), credentials from the two variables (else
      the AWS SDK's chain). Azure: --endpoint is the account URL; account name and key, or a SAS token. Only the
      variables' names are stored. The worker (in the API, or npm run worker) checks it every INGEST_POLL_SECONDS and
      imports each complete delivery once; a newer delivery of a billing period replaces it atomically.`,
  'sources list': `  sources list --org <uuid> [--json]
      An organisation's data sources with their last check, last import, lag and last problem.`,
  'sources remove': `  sources remove <id> --org <uuid> [--json]
      Remove a data source (the data it imported stays).`,
  'sources run': `  sources run <id> --org <uuid> [--json]
      Check a data source now, in this process, and import what is new (prints what it found and did).`,
  'backup create': `  backup create [--name <name>] [--incremental] [--json]
      Back up the whole store into BACKUP_DIR/<name> (default name: the time, UTC) with ClickHouse's BACKUP: cost
      data, API keys, shared filters (with Redis: its keys too), settings, rates, sources, audit events. An import
      publishing meanwhile is wholly in it or not at all. --incremental: only what changed since the newest complete
      backup (which then must be kept). A backup is complete once its manifest.json is written.`,
  'backup list': `  backup list [--json]
      The backups in BACKUP_DIR, newest first: complete (restorable) or incomplete (interrupted or failed).`,
  'backup restore': `  backup restore <name> [--force] [--json]
      Restore a backup into this store (CLICKHOUSE_DATABASE; on a cluster, one of the same number of shards). The
      store must be empty, else the refusal names what is in it; --force replaces it. The backup is restored and
      checked (CHECK TABLE) aside first: a corrupt one is refused, naming the file, and nothing is changed. Meanwhile
      the store is marked as being restored: an API started then waits. Stop the API (and workers) first.`,
  help: `  help [command]
      Show this text, or the usage of one command.`,
};

/** Every command of the CLI, as typed after `cli --` (`keys create`): docs/operations.md lists each (its spec checks). */
export const CLI_COMMAND_NAMES: readonly string[] = Object.keys(COMMANDS);

const ENVIRONMENT = `Configuration (same environment as the server):
  CLICKHOUSE_URL, CLICKHOUSE_USER, CLICKHOUSE_PASSWORD, CLICKHOUSE_DATABASE   a ClickHouse server over HTTP
  DATA_DIR   the embedded ClickHouse (chDB) directory when CLICKHOUSE_URL is unset (default ${SETTING_DEFAULTS.DATA_DIR});
             it can be opened by one process at a time: while the API serves it, the CLI's commands run in
             the API's process (relayed through DATA_DIR/cli/relay.sock; not backup restore, ingest recover).

Exit codes: 0 success, 1 failure, 2 usage error.`;

/** Usage of one command (`keys` lists its subcommands), or of all. */
export function usageText(topic?: string): string {
  const header = 'Usage: npm run -s cli -- <command> [options]   (or: npx cost-insights <command>; node dist/cli/main.js <command>)';
  const matching = topic ? Object.keys(COMMANDS).filter((name) => name === topic || name.startsWith(`${topic} `)) : [];
  if (matching.length) return `${header}\n\n${matching.map((name) => COMMANDS[name]).join('\n\n')}\n`;
  return `${header}\n\nCommands:\n${Object.values(COMMANDS).join('\n\n')}\n\n${ENVIRONMENT}\n`;
}
