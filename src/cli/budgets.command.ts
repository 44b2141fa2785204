import { amountFor } from '../budgets/budget-definition';
import type { PeriodFigures, ThresholdStatus } from '../budgets/budget-status';
import { BudgetOwner, BudgetsService, BudgetStatusAnswer } from '../budgets/budgets.service';
import { BudgetCreatedDto, BudgetDto, BudgetRequestDto, BudgetStatusDto } from '../budgets/dto/budget.dto';
import { todayUtc } from '../common/dates/calendar-date';
import { ApiError, InvalidRequestException } from '../common/errors/api-errors';
import { MIN_HISTORY_DAYS } from '../cost-query/forecast-model';
import type { CliCommand } from './cli-args';
import { readRequestFile } from './cli-request-file';
import { CliOutput, EXIT, formatTable } from './cli-output';

type BudgetsCommand = Extract<CliCommand, { name: `budgets ${string}` }>;

/** A budget as the CLI answers it: the admin API's budget with its standing as POST /v1/cost-insights/budgets has it. */
type BudgetWithStatus = BudgetDto & { status: BudgetStatusDto | null };

/**
 * The operator acts for the whole organisation: it manages the budgets made without a data scope (those made by a
 * data-scoped key stay under that scope), and its changes are saved as made by `cli`.
 */
function operatorOf(organizationId: string): BudgetOwner {
  return { organizationId, dataScope: '', actor: 'cli' };
}

/** `budgets list|show|set|remove`: an organisation's budgets and their standing, as the admin API manages them. */
export async function budgetsCommand(service: BudgetsService, command: BudgetsCommand, io: CliOutput): Promise<number> {
  const owner = operatorOf(command.organizationId);
  try {
    switch (command.name) {
      case 'budgets list':
        return await listBudgets(service, owner, command.json, io);
      case 'budgets show':
        return await showBudget(service, owner, command.budgetId, command.json, io);
      case 'budgets set':
        return await setBudget(service, owner, command, io);
      case 'budgets remove': {
        const removed = await service.remove(owner, command.budgetId);
        io.out(
          command.json ? JSON.stringify(removed) : `Removed budget ${removed.budgetId} "${removed.name}" (its alerts are kept 13 months).`,
        );
        return EXIT.ok;
      }
    }
  } catch (error) {
    return reportRefusal(error, io);
  }
}

async function listBudgets(service: BudgetsService, owner: BudgetOwner, json: boolean, io: CliOutput): Promise<number> {
  const today = todayUtc();
  const [budgets, statuses] = await Promise.all([service.list(owner), service.status(owner, undefined, today)]);
  const standing = new Map(statuses.map((status) => [status.budgetId, status]));
  if (json) {
    const withStatus = budgets.map((budget) => withStatusOf(budget, standing.get(budget.budgetId)));
    io.out(JSON.stringify({ organizationId: owner.organizationId, today, budgets: withStatus }));
  } else if (budgets.length === 0) {
    io.out(`No budget in organisation ${owner.organizationId} (one made by a data-scoped key is seen only under its scope).`);
  } else {
    const header = ['ID', 'NAME', 'PERIOD', 'CURRENCY', 'AMOUNT', 'ACTUAL', '% USED', 'THRESHOLDS', 'UPDATED'];
    io.out(
      formatTable(
        header,
        budgets.map((budget) => listRow(budget, standing.get(budget.budgetId))),
      ),
    );
  }
  return EXIT.ok;
}

/** A budget's row: the amount, actual and share of its current period (exact decimals; '-' where there is none). */
function listRow(budget: BudgetDto, status: BudgetStatusAnswer | undefined): string[] {
  const amount = status ? amountFor(budget.amounts, status.period) : undefined;
  return [
    budget.budgetId,
    budget.name,
    budget.period,
    budget.currency,
    amount ?? '-',
    status?.exact_actual ?? '-',
    percentText(status?.percent_used),
    budget.thresholds.map((threshold) => thresholdText(threshold, status?.thresholds)).join(', '),
    budget.updatedAt,
  ];
}

async function showBudget(service: BudgetsService, owner: BudgetOwner, budgetId: string, json: boolean, io: CliOutput): Promise<number> {
  const today = todayUtc();
  const budget = await service.get(owner, budgetId);
  const [status] = await service.status(owner, [budgetId], today);
  if (json) io.out(JSON.stringify({ organizationId: owner.organizationId, today, budget: withStatusOf(budget, status) }));
  else io.out([describeBudget(budget), ...(status ? [describeStanding(status, today)] : [])].join('\n'));
  return EXIT.ok;
}

async function setBudget(
  service: BudgetsService,
  owner: BudgetOwner,
  command: Extract<BudgetsCommand, { name: 'budgets set' }>,
  io: CliOutput,
): Promise<number> {
  const request = await readRequestFile(command.file, BudgetRequestDto);
  if (command.budgetId === undefined) {
    const created = await service.create(owner, request);
    io.out(command.json ? JSON.stringify(created) : describeCreated(created));
  } else {
    const saved = await service.update(owner, command.budgetId, request);
    io.out(command.json ? JSON.stringify(saved) : `Saved budget ${saved.budgetId} "${saved.name}", version ${saved.version}.`);
  }
  return EXIT.ok;
}

function describeCreated(created: BudgetCreatedDto): string {
  return [
    `Created budget ${created.budgetId} "${created.name}".`,
    'Its webhook signing secret, shown now and never again (receivers verify X-Cost-Insights-Signature with it):',
    `  ${created.signingSecret}`,
  ].join('\n');
}

function reportRefusal(error: unknown, io: CliOutput): number {
  if (error instanceof InvalidRequestException) {
    io.err(`Error: the budget was refused, nothing was saved:\n  ${error.details.join('\n  ')}`);
    return EXIT.failure;
  }
  if (error instanceof ApiError) {
    io.err(`Error: ${error.message}`);
    return EXIT.failure;
  }
  throw error;
}

/** The standing as the API answers it: its exact actual is for webhook events, not the status. */
function withStatusOf(budget: BudgetDto, status: BudgetStatusAnswer | undefined): BudgetWithStatus {
  if (!status) return { ...budget, status: null };
  const { exact_actual: _exact, exact_previous_actual: _previous, ...answered } = status;
  return { ...budget, status: answered as BudgetStatusDto };
}

function describeBudget(budget: BudgetDto): string {
  const amounts = Object.entries(budget.amounts).map(([period, amount]) => `${period} ${amount}`);
  // Hosts only: a webhook URL's path may carry a token, and this text ends up on screens and in logs.
  const notify = budget.notify.map((destination) => `${new URL(destination.url).host} (${destination.format})`);
  const filters = Object.keys(budget.filters ?? {}).length > 0 ? JSON.stringify(budget.filters) : 'none (the whole organisation)';
  return [
    `${budget.name} (${budget.budgetId}), version ${budget.version}, updated ${budget.updatedAt} by ${budget.updatedBy}`,
    `  ${budget.period}, ${budget.metric} in ${budget.currency}; amounts: ${amounts.join(', ')}`,
    `  filters: ${filters}`,
    `  notify: ${notify.length > 0 ? notify.join(', ') : 'nobody'}`,
  ].join('\n');
}

function describeStanding(status: BudgetStatusAnswer, today: string): string {
  const { period } = status;
  const actual =
    status.amount === null
      ? `${status.exact_actual} (no amount planned for this period)`
      : `${status.exact_actual} of ${status.amount} (${percentText(status.percent_used)} % used)`;
  const forecast = status.forecast
    ? `forecast ${status.forecast.mean} (${status.forecast.lower} to ${status.forecast.upper})`
    : `no forecast (under ${MIN_HISTORY_DAYS} days of history)`;
  return [
    `Period ${period.label} (${period.start} to ${period.end}), today ${today}:`,
    `  actual ${actual}`,
    `  pro-rated ${status.prorated_amount ?? '-'}, ${forecast}`,
    formatTable(
      ['THRESHOLD', 'AMOUNT', 'STATE', 'SINCE', 'CROSSING'],
      status.thresholds.map((t) => [`${t.kind} ${t.percent} %`, String(t.amount), t.state, t.since ?? '-', t.crossing_date ?? '-']),
    ),
    formatTable(['PERIOD', 'AMOUNT', 'ACTUAL', '% USED'], status.history.map(historyRow)),
  ].join('\n');
}

function historyRow(figures: PeriodFigures): string[] {
  return [
    figures.period.label,
    figures.amount === null ? '-' : String(figures.amount),
    String(figures.actual),
    percentText(figures.percent_used),
  ];
}

/** `actual 80 %`, with its state when it holds (`actual 80 % breached`). */
function thresholdText(threshold: { kind: string; percent: number }, statuses: ThresholdStatus[] | undefined): string {
  const state = statuses?.find((status) => status.kind === threshold.kind && status.percent === threshold.percent)?.state;
  return `${threshold.kind} ${threshold.percent} %${state && state !== 'ok' ? ` ${state.replace('_', ' ')}` : ''}`;
}

function percentText(percent: number | null | undefined): string {
  return percent === null || percent === undefined ? '-' : String(percent);
}
