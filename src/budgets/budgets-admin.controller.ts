import { Body, Controller, Delete, Get, Param, ParseUUIDPipe, Post, Put } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  getSchemaPath,
  ApiExtraModels,
} from '@nestjs/swagger';
import { InvalidRequestException } from '../common/errors/api-errors';
import { Authorized } from '../common/http/authorized.decorator';
import { ok, SuccessEnvelope } from '../common/http/envelope';
import type { Principal } from '../common/http/principal';
import { CurrentPrincipal } from '../common/http/request-context';
import type { AuditOrigin } from '../store/repositories/audit-event';
import { ApiKeyOrigin } from '../infrastructure/audit-trail/audit-origin';
import { AuditTrail } from '../infrastructure/audit-trail/audit-trail.service';
import { BUDGET_LIMITS } from './budget-definition';
import { BudgetAlertsService } from './budget-alerts.service';
import { budgetOwnerOf as ownerOf, BudgetsService } from './budgets.service';
import { BudgetAlertListDto, BudgetCreatedDto, BudgetDto, BudgetListDto, BudgetRequestDto } from './dto/budget.dto';

const ADMIN = 'budgets:admin';
const FORBIDDEN = `The API key lacks the \`${ADMIN}\` scope; or the organisation already has ${BUDGET_LIMITS.maxPerOrganization} budgets (creating one).`;
const envelopeOf = (type: new () => unknown) => ({
  schema: { type: 'object', properties: { success: { type: 'boolean', example: true }, data: { $ref: getSchemaPath(type) } } },
});
const uuid = new ParseUUIDPipe({ exceptionFactory: () => new InvalidRequestException(['budgetId: expected a UUID']) });

/**
 * An organisation's budgets (`budgets:admin`): amounts per monthly, quarterly or yearly period over the rows their
 * filters select, thresholds on actual and forecast spend, webhooks to tell. A key with a data scope manages only the
 * budgets made under that same scope, which every evaluation of them keeps for ever. Every change is audited.
 */
@ApiTags('Budgets (admin)')
@ApiExtraModels(BudgetListDto, BudgetDto, BudgetCreatedDto, BudgetAlertListDto)
@Controller('admin/budgets')
export class BudgetsAdminController {
  constructor(
    private readonly budgets: BudgetsService,
    private readonly alerts: BudgetAlertsService,
    private readonly auditTrail: AuditTrail,
  ) {}

  @Get()
  @Authorized(ADMIN, FORBIDDEN)
  @ApiOperation({ operationId: 'listBudgets', summary: 'The budgets the key may manage, oldest first' })
  @ApiOkResponse(envelopeOf(BudgetListDto))
  async list(@CurrentPrincipal() principal: Principal): Promise<SuccessEnvelope<BudgetListDto>> {
    return ok({ budgets: await this.budgets.list(ownerOf(principal)) });
  }

  @Post()
  @Authorized(ADMIN, FORBIDDEN)
  @ApiOperation({
    operationId: 'createBudget',
    summary: 'Create a budget; its webhook signing secret is in this answer only',
    description:
      'Amounts are in `currency` (default the organisation’s reporting currency, fixed now); spend in other billing currencies is converted as every answer is. A key with a data scope makes a budget inside that scope for ever. Alerts fire once per period per threshold (see POST /v1/cost-insights/budgets).',
  })
  @ApiCreatedResponse(envelopeOf(BudgetCreatedDto))
  @ApiBadRequestResponse({
    description:
      'Each problem named by field: unknown fields, an amount not a positive decimal, planned amounts leaving a gap or missing the current period, a percent outside 1–1000 or given twice, a webhook URL not https (nor http to an allowed loopback host), not allowed by WEBHOOK_ALLOWED_HOSTS, or with credentials.',
  })
  async create(
    @CurrentPrincipal() principal: Principal,
    @Body() request: BudgetRequestDto,
    @ApiKeyOrigin() origin: AuditOrigin,
  ): Promise<SuccessEnvelope<BudgetCreatedDto>> {
    const created = await this.budgets.create(ownerOf(principal), request);
    await this.auditTrail.record(origin, 'budget.created', created.budgetId, auditDetails(created));
    return ok(created);
  }

  @Get(':budgetId')
  @Authorized(ADMIN, FORBIDDEN)
  @ApiOperation({ operationId: 'getBudget', summary: 'One budget' })
  @ApiOkResponse(envelopeOf(BudgetDto))
  @ApiNotFoundResponse({ description: 'No such budget the key may manage.' })
  async get(@CurrentPrincipal() principal: Principal, @Param('budgetId', uuid) budgetId: string): Promise<SuccessEnvelope<BudgetDto>> {
    return ok(await this.budgets.get(ownerOf(principal), budgetId));
  }

  @Put(':budgetId')
  @Authorized(ADMIN, FORBIDDEN)
  @ApiOperation({ operationId: 'updateBudget', summary: 'Replace a budget’s definition (its id, data scope and signing secret stay)' })
  @ApiOkResponse(envelopeOf(BudgetDto))
  @ApiNotFoundResponse({ description: 'No such budget the key may manage.' })
  async update(
    @CurrentPrincipal() principal: Principal,
    @Param('budgetId', uuid) budgetId: string,
    @Body() request: BudgetRequestDto,
    @ApiKeyOrigin() origin: AuditOrigin,
  ): Promise<SuccessEnvelope<BudgetDto>> {
    const updated = await this.budgets.update(ownerOf(principal), budgetId, request);
    await this.auditTrail.record(origin, 'budget.changed', budgetId, auditDetails(updated));
    return ok(updated);
  }

  @Delete(':budgetId')
  @Authorized(ADMIN, FORBIDDEN)
  @ApiOperation({ operationId: 'deleteBudget', summary: 'Remove a budget (its alerts are kept 13 months)' })
  @ApiOkResponse(envelopeOf(BudgetDto))
  @ApiNotFoundResponse({ description: 'No such budget the key may manage.' })
  async remove(
    @CurrentPrincipal() principal: Principal,
    @Param('budgetId', uuid) budgetId: string,
    @ApiKeyOrigin() origin: AuditOrigin,
  ): Promise<SuccessEnvelope<BudgetDto>> {
    const removed = await this.budgets.remove(ownerOf(principal), budgetId);
    await this.auditTrail.record(origin, 'budget.deleted', budgetId, { name: removed.name });
    return ok(removed);
  }

  @Get(':budgetId/alerts')
  @Authorized(ADMIN, FORBIDDEN)
  @ApiOperation({
    operationId: 'listBudgetAlerts',
    summary: 'A budget’s alerts of the last 13 months, newest first, each with its webhook deliveries and any dead letter',
  })
  @ApiOkResponse(envelopeOf(BudgetAlertListDto))
  @ApiNotFoundResponse({ description: 'No such budget the key may manage.' })
  async listAlerts(
    @CurrentPrincipal() principal: Principal,
    @Param('budgetId', uuid) budgetId: string,
  ): Promise<SuccessEnvelope<BudgetAlertListDto>> {
    const owner = ownerOf(principal);
    await this.budgets.one(owner, budgetId);
    return ok({ alerts: await this.alerts.history(owner.organizationId, budgetId) });
  }
}

/** What an audit event says of a budget: its definition without the webhook URLs' paths (they may carry tokens). */
function auditDetails(budget: BudgetDto): Record<string, unknown> {
  const { name, period, metric, currency, amounts, thresholds, filters } = budget;
  const notify = budget.notify.map((destination) => `${new URL(destination.url).host} (${destination.format ?? 'json'})`);
  return { name, period, metric, currency, amounts, thresholds, filters, notify };
}
