import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { DataAnswer, MONEY_ANSWER_HEADERS } from '../answers/data-answer.interceptor';
import { Authorized } from '../common/http/authorized.decorator';
import { ok, SuccessEnvelope } from '../common/http/envelope';
import type { Principal } from '../common/http/principal';
import { CurrentPrincipal } from '../common/http/request-context';
import { organizationScopeOf } from '../cost-query/data-scope';
import { ONE_OFF_CHARGE_CATEGORIES } from '../cost-query/forecast-series.query';
import { FORECAST_LIMITS } from './forecast-limits';
import { FORECAST_METHOD } from '../cost-query/forecast-model';
import { ForecastRequestDto } from './dto/forecast-request.dto';
import { ForecastResponseDto } from './dto/forecast-response.dto';
import { ForecastResult, ForecastsService } from './forecasts.service';

@ApiTags('Forecasts')
@Controller('cost-insights')
export class ForecastsController {
  constructor(private readonly forecasts: ForecastsService) {}

  @Post('forecast')
  @HttpCode(200)
  @Authorized('cost:read')
  @DataAnswer({ money: true })
  @ApiOperation({
    operationId: 'forecastCosts',
    summary: 'Extension: forecast a cost metric, with prediction intervals and the forecast’s measured accuracy',
    description: [
      "Requires scope `cost:read`; the key's organisation and data scope, like every answer.",
      `**History**: the last ${FORECAST_LIMITS.historyDays} complete days (up to yesterday, UTC) of what \`filters\` select, one amount per day; at least ${FORECAST_LIMITS.minHistoryDays} days of it (from the first day with costs) or a 400 says how many there are. ${ONE_OFF_CHARGE_CATEGORIES.join(', ')} charges are one-offs: left out of the model and reported as \`one_off_total\`.`,
      `**Model**: ${FORECAST_METHOD}, fitted on the most recent 91 days. Each point has its mean and a \`predictionIntervalLevel\` % interval (default ${FORECAST_LIMITS.defaultLevel}) from the residuals and the uncertainty of the fitted terms; \`total\` covers every forecast day, \`current_month\` adds the month's actuals so far to the forecast of its remaining days. \`accuracy.backtest\` scores the same model on the series' own history (4 weekly origins: MAPE of the 7-day totals, share of days inside their intervals).`,
      `**groupBy.dimension**: one series per top ${FORECAST_LIMITS.topValues} value (by amount over the history) and \`${FORECAST_LIMITS.otherLabel}\` for the rest.`,
      `**Limits**: \`forecastEnd\` after yesterday and at most ${FORECAST_LIMITS.maxDailyDays} days ahead (\`daily\`) or ${FORECAST_LIMITS.maxMonthlyDays} (\`monthly\`); \`filters\` without \`dateRange\` or \`billingPeriods\` (400). Amounts are in the answer's currency (\`currency\`, \`X-Currency\`), converted like every money answer.`,
    ].join('\n\n'),
  })
  @ApiOkResponse({ type: ForecastResponseDto, headers: MONEY_ANSWER_HEADERS, description: 'The forecast series.' })
  @ApiBadRequestResponse({ description: 'Invalid body, forecastEnd out of reach, dates in filters, or too little history.' })
  async forecast(@CurrentPrincipal() principal: Principal, @Body() body: ForecastRequestDto): Promise<SuccessEnvelope<ForecastResult>> {
    return ok(await this.forecasts.forecast(organizationScopeOf(principal), body));
  }
}
