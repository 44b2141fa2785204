import { organizationScopeOf } from '../../cost-query/data-scope';
import { ForecastRequestDto } from '../../forecasts/dto/forecast-request.dto';
import { FORECAST_LIMITS } from '../../forecasts/forecast-limits';
import { DIMENSIONS_TEXT, flag, MONEY, ToolDefinition, ToolServices } from './tool-definition';

/** forecast_costs: POST /v1/cost-insights/forecast, without the daily history unless asked. */
export function forecastCostsTool({ forecasts }: ToolServices): ToolDefinition {
  return {
    name: 'forecast_costs',
    title: 'Forecast a cost metric',
    description: () =>
      'Where a cost metric will land (POST /v1/cost-insights/forecast): per day or month up to forecastEnd (after yesterday; at most ' +
      `${FORECAST_LIMITS.maxDailyDays} days ahead daily, ${FORECAST_LIMITS.maxMonthlyDays} monthly), each point a mean and a prediction interval ` +
      `(lower, upper) at predictionIntervalLevel percent (default ${FORECAST_LIMITS.defaultLevel}), the total over the forecast days and the current month ` +
      '(actual so far + forecast). Every series states its accuracy: a backtest on its own history (mape: mean absolute percentage error of 7-day totals, ' +
      'a fraction; interval_coverage: share of days inside their intervals) — say how reliable the forecast is from it. ' +
      `With groupBy.dimension: one series per top ${FORECAST_LIMITS.topValues} value and "${FORECAST_LIMITS.otherLabel}". ` +
      `Tax, credits and adjustments are left out (one_off_total). Filters must not contain dateRange or billingPeriods. ${DIMENSIONS_TEXT} ${MONEY}`,
    scope: 'cost:read',
    endpoint: { method: 'post', path: '/v1/cost-insights/forecast' },
    dto: ForecastRequestDto,
    controls: {
      includeActuals: flag('Also return each series’ daily history (up to 119 days). Larger answers.'),
    },
    run: async ({ body, controls, principal }) => {
      const forecast = await forecasts.forecast(organizationScopeOf(principal), body as ForecastRequestDto);
      if (controls.includeActuals === true) return forecast;
      return { ...forecast, series: forecast.series.map(({ actuals, ...series }) => ({ ...series, history_days: actuals.length })) };
    },
  };
}
