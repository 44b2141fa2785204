import { budgetOwnerOf } from '../../budgets/budgets.service';
import { BudgetStatusRequestDto } from '../../budgets/dto/budget.dto';
import { ToolDefinition, ToolServices } from './tool-definition';

/** list_budgets: POST /v1/cost-insights/budgets, as it answers. */
export function listBudgetsTool({ budgets }: ToolServices): ToolDefinition {
  return {
    name: 'list_budgets',
    title: 'Are the budgets on track',
    description: () =>
      'The budgets the key may see (POST /v1/cost-insights/budgets; budgetIds to name some), each in its own currency: for the current period ' +
      '(monthly, quarterly or yearly, UTC) amount, actual to date, percent_used, prorated_amount (the amount spread evenly up to today: on track below it), ' +
      'forecast at period end (mean, lower, upper at 80 %; null with under 14 days of history), each threshold (actual or forecast, percent) with its state ' +
      '(ok, breached, forecast_breach), since when its alert stands and, for forecast thresholds, crossing_date; and the 12 periods before (history). ' +
      'Amounts are exact decimals.',
    scope: 'cost:read',
    endpoint: { method: 'post', path: '/v1/cost-insights/budgets' },
    dto: BudgetStatusRequestDto,
    controls: {},
    run: async ({ body, principal }) => budgets.statusAnswer(budgetOwnerOf(principal), (body as BudgetStatusRequestDto).budgetIds),
  };
}
