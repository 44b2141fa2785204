import type { Type } from '@nestjs/common';
import type { Principal, Scope } from '../../common/http/principal';
import { describeType } from '../../common/validation/messages';
import type { AppConfig } from '../../config/app-config';
import { DIMENSIONS } from '../../cost-query/dimension-registry';
import type { CostsService } from '../../costs/costs.service';
import type { ComparisonService } from '../../comparison/comparison.service';
import type { FilterOptionsService } from '../../filter-options/filter-options.service';
import type { ForecastsService } from '../../forecasts/forecasts.service';
import type { AnomaliesService } from '../../anomalies/anomalies.service';
import type { AllocationService } from '../../allocation/allocation.service';
import type { CommitmentsService } from '../../commitments/commitments.service';
import type { ContractsService } from '../../commitments/contracts.service';
import type { BudgetsService } from '../../budgets/budgets.service';
import type { UnitCostsService } from '../../unit-costs/unit-costs.service';
import type { SharingService } from '../../sharing/sharing.service';
import type { JsonSchema } from '../tool-schemas';

/** A tool's own controls (paging, search), checked here; everything else is the endpoint's body, checked by its DTO. */
export interface Control {
  schema: JsonSchema;
  read(value: unknown): string | undefined; // the problem, if any
}

export const integer = (min: number, max: number, byDefault: number, description: string): Control => ({
  schema: { type: 'integer', minimum: min, maximum: max, default: byDefault, description },
  read: (value) =>
    Number.isInteger(value) && (value as number) >= min && (value as number) <= max
      ? undefined
      : `Expected an integer from ${min} to ${max}, received ${typeof value === 'number' ? value : describeType(value)}`,
});
export const searchText: Control = {
  schema: {
    type: 'string',
    minLength: 1,
    maxLength: 256,
    description: 'Keep only values containing this text (case-insensitive), e.g. "prod" or "ec2". Counts and paging apply to the matches.',
  },
  read: (value) =>
    typeof value === 'string' && value.length >= 1 && value.length <= 256 ? undefined : 'Expected a string of 1 to 256 characters',
};
export const flag = (description: string): Control => ({
  schema: { type: 'boolean', default: false, description },
  read: (value) => (typeof value === 'boolean' ? undefined : `Expected boolean, received ${describeType(value)}`),
});

/** One MCP tool: its text for the assistant, the endpoint it stands for, its own controls and how it answers. */
export interface ToolDefinition {
  name: string;
  title: string;
  description: (config: AppConfig) => string;
  scope: Scope;
  /** The endpoint whose request schema (OpenAPI, from the DTOs) is the tool's input, besides `controls`. */
  endpoint: { method: 'post' | 'get'; path: string };
  /** The DTO that validates the endpoint part of the arguments (ApiValidationPipe, as for HTTP bodies). */
  dto?: Type;
  controls: Record<string, Control>;
  run(input: { body: object; controls: Record<string, unknown>; principal: Principal }): Promise<unknown>;
}

/** The features' services the tools call (the same as their HTTP endpoints call). */
export interface ToolServices {
  costs: CostsService;
  comparison: ComparisonService;
  filterOptions: FilterOptionsService;
  sharing: SharingService;
  forecasts: ForecastsService;
  anomalies: AnomaliesService;
  allocation: AllocationService;
  commitments: CommitmentsService;
  contracts: ContractsService;
  budgets: BudgetsService;
  unitCosts: UnitCostsService;
}

export const MONEY =
  'Money amounts are summed exactly, all in one currency, stated as `currency` in the answer: the `currency` argument (ISO 4217, e.g. EUR) or else the ' +
  "organisation's reporting currency; costs billed in another currency are converted at their day's exchange rate (a day without one is an error naming " +
  'the currency pair and the dates, never a 1:1 sum). effective_savings_rate is a fraction (0.25 = 25 %).';
export const windowText = (config: AppConfig) =>
  `Dates are YYYY-MM-DD (UTC), ranges include both ends and span at most ${config.maxDateRangeDays} days; without filters.inclusions.dateRange ` +
  `(or billingPeriods) the window is the last ${config.defaultWindowDays} days up to today. Weeks start on Monday.`;
export const DIMENSIONS_TEXT = `Dimensions: ${[...DIMENSIONS, 'tag:<key>', 'costCategory:<key>'].join(', ')}; "(not set)" groups rows without a value.`;
