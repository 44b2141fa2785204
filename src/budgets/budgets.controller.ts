import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiTags, getSchemaPath, ApiExtraModels } from '@nestjs/swagger';
import { Authorized } from '../common/http/authorized.decorator';
import { ok, SuccessEnvelope } from '../common/http/envelope';
import type { Principal } from '../common/http/principal';
import { CurrentPrincipal } from '../common/http/request-context';
import { BUDGET_LIMITS } from './budget-definition';
import { BUDGET_FORECAST_LEVEL } from './budget-status';

import { budgetOwnerOf, BudgetsService } from './budgets.service';
import { BudgetStatusListDto, BudgetStatusRequestDto } from './dto/budget.dto';

@ApiTags('Budgets')
@ApiExtraModels(BudgetStatusListDto)
@Controller('cost-insights/budgets')
export class BudgetsController {
  constructor(private readonly budgets: BudgetsService) {}

  @Post()
  @HttpCode(200)
  @Authorized('cost:read')
  @ApiOperation({
    operationId: 'getBudgetStatus',
    summary: 'Extension: are the budgets on track? Each budget’s current period, forecast, thresholds and past periods',
    description: [
      'Requires scope `cost:read`. The budgets made under the key’s data scope (a key without one: those made without one), each in its own currency.',
      '`actual`: spend in the current period to date (UTC), every charge; `prorated_amount`: the amount spread evenly over the period’s days up to today — below it, the budget is on track. `forecast`: actual up to yesterday plus the forecast of the remaining days (the /forecast model on the last 91 days of the budget’s rows; Tax, Credit and Adjustment left out of the model), mean and ' +
        `${BUDGET_FORECAST_LEVEL} % interval; null with under 14 days of history.`,
      'Each threshold: `breached` (actual ≥ percent % of the amount), `forecast_breach` (the forecast’s mean reaches it; once its alert fired, until the interval’s upper bound falls back below it) or `ok`; `since`: when the worker fired its standing alert; `crossing_date` for forecast thresholds. ' +
        `\`history\`: the ${BUDGET_LIMITS.historyPeriods} periods before, oldest first.`,
    ].join('\n\n'),
  })
  @ApiOkResponse({
    schema: {
      type: 'object',
      properties: { success: { type: 'boolean', example: true }, data: { $ref: getSchemaPath(BudgetStatusListDto) } },
    },
  })
  @ApiBadRequestResponse({
    description: 'Unknown fields, a budget id that is not a UUID; a billing currency without the rates to convert it.',
  })
  async status(
    @CurrentPrincipal() principal: Principal,
    @Body() body: BudgetStatusRequestDto,
  ): Promise<SuccessEnvelope<BudgetStatusListDto>> {
    return ok(await this.budgets.statusAnswer(budgetOwnerOf(principal), body.budgetIds));
  }
}
