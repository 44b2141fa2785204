import { randomUUID } from 'node:crypto';
import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import { addDays, todayUtc } from '../common/dates/calendar-date';
import { sealSecret } from '../common/crypto/secret-box';
import { ApiError, InvalidRequestException } from '../common/errors/api-errors';
import type { Principal } from '../common/http/principal';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { describeDataScope, organizationScopeOf } from '../cost-query/data-scope';
import type { Filters } from '../cost-query/filters.types';
import { AnswerCurrencyService } from '../currency/answer-currency.service';
import { amountsProblems, amountText, BUDGET_LIMITS, periodContaining, shiftPeriod, thresholdsProblems } from './budget-definition';
import { BudgetDefinition, BudgetsRepository, StoredAlert, StoredBudget } from '../store/repositories/budgets.repository';
import { BudgetStatus, budgetStatus } from './budget-status';
import { BudgetSumsService } from './budget-sums.service';
import type { BudgetCreatedDto, BudgetDto, BudgetRequestDto, BudgetStatusDto, BudgetStatusListDto } from './dto/budget.dto';
import { destinationProblems } from './webhook-destination';
import { newSigningSecret } from './webhook-signature';
import { webhookSettings, WebhookSettings } from './webhook-settings';

/** Who manages budgets: an organisation, and the data scope of the key (canonical JSON, '' for none). */
export interface BudgetOwner {
  organizationId: string;
  dataScope: string;
  actor: string;
}

/** The owner a request acts as: the key's (or session's) organisation and data scope, never the request's. */
export function budgetOwnerOf(principal: Principal): BudgetOwner {
  return {
    organizationId: principal.organizationId,
    dataScope: principal.dataScope ?? '',
    actor: principal.person?.email ?? principal.keyId,
  };
}

/** A budget's status as /v1/cost-insights/budgets answers it. */
export type BudgetStatusAnswer = BudgetStatus & { budgetId: string; name: string; currency: string; metric: string; filters: Filters };

/**
 * Budgets: saved per organisation (each change a version), seen and managed only under the data scope they were made
 * with, and their standing computed from one batched read per currency (budget-sums.service.ts).
 */
@Injectable()
export class BudgetsService {
  private readonly webhooks: WebhookSettings;

  constructor(
    private readonly repository: BudgetsRepository,
    private readonly sums: BudgetSumsService,
    private readonly currencies: AnswerCurrencyService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.webhooks = webhookSettings(config);
  }

  async list(owner: BudgetOwner): Promise<BudgetDto[]> {
    return (await this.visible(owner)).map(budgetDto);
  }

  async get(owner: BudgetOwner, budgetId: string): Promise<BudgetDto> {
    return budgetDto(await this.one(owner, budgetId));
  }

  async create(owner: BudgetOwner, request: BudgetRequestDto): Promise<BudgetCreatedDto> {
    const definition = await this.checked(owner, request);
    const existing = await this.repository.budgets(owner.organizationId);
    if (existing.length >= BUDGET_LIMITS.maxPerOrganization)
      throw new ApiError(
        HttpStatus.FORBIDDEN,
        `The organisation already has ${BUDGET_LIMITS.maxPerOrganization} budgets, the most it may keep; remove one first.`,
      );
    const budgetId = randomUUID();
    const signingSecret = newSigningSecret();
    const sealedSecret = sealSecret(signingSecret, this.webhooks.encryptionKey);
    await this.repository.save(owner.organizationId, budgetId, {
      definition,
      dataScope: owner.dataScope,
      sealedSecret,
      createdBy: owner.actor,
    });
    return { ...(await this.get(owner, budgetId)), signingSecret };
  }

  async update(owner: BudgetOwner, budgetId: string, request: BudgetRequestDto): Promise<BudgetDto> {
    const current = await this.one(owner, budgetId);
    const definition = await this.checked(owner, request);
    await this.repository.save(owner.organizationId, budgetId, {
      definition,
      dataScope: current.dataScope,
      sealedSecret: current.sealedSecret,
      createdBy: owner.actor,
    });
    return this.get(owner, budgetId);
  }

  async remove(owner: BudgetOwner, budgetId: string): Promise<BudgetDto> {
    const current = await this.one(owner, budgetId);
    await this.repository.save(owner.organizationId, budgetId, { dataScope: current.dataScope, sealedSecret: '', createdBy: owner.actor });
    return budgetDto(current);
  }

  /** The budget, when the owner may see it: one made under the owner's data scope. */
  async one(owner: BudgetOwner, budgetId: string): Promise<StoredBudget> {
    const [budget] = await this.repository.budgets(owner.organizationId, budgetId);
    if (!budget || budget.dataScope !== owner.dataScope)
      throw new ApiError(HttpStatus.NOT_FOUND, `No budget ${budgetId} in this organisation.`);
    return budget;
  }

  /** The standing of the budgets the owner may see (those named, when named), in the order they were made. */
  async status(owner: BudgetOwner, budgetIds?: readonly string[], today = todayUtc()): Promise<BudgetStatusAnswer[]> {
    const budgets = await this.visible(owner, budgetIds);
    return this.standing(owner.organizationId, budgets, today, BUDGET_LIMITS.historyPeriods);
  }

  /** The answer of POST /v1/cost-insights/budgets (and the MCP tool list_budgets): today, and each budget's standing. */
  async statusAnswer(owner: BudgetOwner, budgetIds?: readonly string[]): Promise<BudgetStatusListDto> {
    const today = todayUtc();
    const statuses = await this.status(owner, budgetIds, today);
    return {
      today,
      budgets: statuses.map(({ exact_actual: _exact, exact_previous_actual: _previous, ...status }) => status as BudgetStatusDto),
    };
  }

  /**
   * The standing of `budgets` of one organisation, with `historyPeriods` past periods each; `known`: the organisation's
   * alerts of those periods when the caller has read them already (the evaluator), else read here.
   */
  async standing(
    organizationId: string,
    budgets: readonly StoredBudget[],
    today: string,
    historyPeriods: number,
    known?: readonly StoredAlert[],
  ): Promise<BudgetStatusAnswer[]> {
    if (budgets.length === 0) return [];
    const [sums, alerts] = await Promise.all([
      // The evaluator (which passes the alerts it read) judges the data as it is now; a status as recently as answers are.
      this.sums.read(organizationId, budgets, today, known ? 'now' : 'recent'),
      known ??
        this.repository.alerts(
          organizationId,
          alertsSince(budgets, today, historyPeriods),
          budgets.map((budget) => budget.budgetId),
        ),
    ]);
    return budgets.map((budget) => {
      const own = alerts.filter((alert) => alert.budgetId === budget.budgetId);
      const { name, currency, metric, filters } = budget.definition;
      return {
        budgetId: budget.budgetId,
        name,
        currency,
        metric,
        filters,
        ...budgetStatus(budget.definition, sums.get(budget.budgetId)!, today, own, historyPeriods),
      };
    });
  }

  private async visible(owner: BudgetOwner, only?: readonly string[]): Promise<StoredBudget[]> {
    return (await this.repository.budgets(owner.organizationId, only)).filter((budget) => budget.dataScope === owner.dataScope);
  }

  /** The request as a definition, or a 400 naming every problem the DTO rules cannot see. */
  private async checked(owner: BudgetOwner, request: BudgetRequestDto): Promise<BudgetDefinition> {
    const problems = [
      ...amountsProblems(request.period, request.amounts, todayUtc()),
      ...thresholdsProblems(request.thresholds),
      ...(request.notify ?? []).flatMap((destination, i) =>
        destinationProblems(destination.url, this.webhooks.allowedHosts).map((problem) => `notify[${i}].url: ${problem}`),
      ),
    ];
    if (problems.length > 0) throw new InvalidRequestException(problems);
    return {
      name: request.name.trim(),
      filters: (request.filters ?? {}) as Filters,
      metric: request.metric ?? 'amortized_cost',
      currency: await this.currencies.currencyOf(owner.organizationId, request.currency),
      period: request.period,
      amounts: Object.fromEntries(Object.entries(request.amounts).map(([key, value]) => [key, amountText(value)!])),
      thresholds: request.thresholds.map(({ kind, percent }) => ({ kind, percent })),
      notify: (request.notify ?? []).map(({ url, format }) => ({ url, format: format ?? 'json' })),
    };
  }
}

/** The earliest alert a status of these budgets reads: the start of the oldest period shown (at most 13 months back). */
function alertsSince(budgets: readonly StoredBudget[], today: string, historyPeriods: number): string {
  const starts = budgets.map(
    (budget) => shiftPeriod(budget.definition.period, periodContaining(budget.definition.period, today), -historyPeriods).start,
  );
  const oldestKept = addDays(today, -BUDGET_LIMITS.alertDays);
  const since = starts.reduce((earliest, start) => (start < earliest ? start : earliest), today);
  return `${since < oldestKept ? oldestKept : since}T00:00:00Z`;
}

export function budgetDto(budget: StoredBudget): BudgetDto {
  const scope = organizationScopeOf({ organizationId: '', dataScope: budget.dataScope || undefined }).dataScope;
  return {
    budgetId: budget.budgetId,
    ...budget.definition,
    dataScope: scope ? describeDataScope(scope) : null,
    version: budget.version,
    createdAt: budget.createdAt,
    updatedAt: budget.updatedAt,
    updatedBy: budget.updatedBy,
  } as BudgetDto;
}
