import { HttpException, HttpStatus, Inject, Injectable, Logger } from '@nestjs/common';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { InvalidRequestException } from '../common/errors/api-errors';
import type { Principal } from '../common/http/principal';
import { ApiValidationPipe } from '../common/validation/api-validation.pipe';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { ComparisonService } from '../comparison/comparison.service';
import { CostsService } from '../costs/costs.service';
import { FilterOptionsService } from '../filter-options/filter-options.service';
import { SharingService } from '../sharing/sharing.service';
import { ForecastsService } from '../forecasts/forecasts.service';
import { forecastCostsTool } from './tools/forecast-costs.tool';
import { AnomaliesService } from '../anomalies/anomalies.service';
import { findAnomaliesTool } from './tools/find-anomalies.tool';
import { AllocationService } from '../allocation/allocation.service';
import { getAllocationTool } from './tools/get-allocation.tool';
import { CommitmentsService } from '../commitments/commitments.service';
import { getCommitmentsTool } from './tools/get-commitments.tool';
import { ContractsService } from '../commitments/contracts.service';
import { getContractsTool } from './tools/get-contracts.tool';
import { BudgetsService } from '../budgets/budgets.service';
import { listBudgetsTool } from './tools/list-budgets.tool';
import { UnitCostsService } from '../unit-costs/unit-costs.service';
import { getUnitCostsTool } from './tools/get-unit-costs.tool';
import { OpenApiDocumentLike, operationInputSchema, JsonSchema } from './tool-schemas';
import { compareCostsTool } from './tools/compare-costs.tool';
import { getCostDataTool } from './tools/get-cost-data.tool';
import { getFilterValuesTool } from './tools/get-filter-values.tool';
import { mapKeyValuesTools } from './tools/get-map-key-values.tool';
import { getSharedFilterTool } from './tools/get-shared-filter.tool';
import { ToolDefinition, ToolServices } from './tools/tool-definition';

export const MCP_TOOL_NAMES = [
  'get_cost_data',
  'compare_costs',
  'get_filter_values',
  'get_tag_values',
  'get_cost_category_values',
  'get_shared_filter',
  'forecast_costs',
  'find_anomalies',
  'get_allocation',
  'get_commitments',
  'get_contracts',
  'list_budgets',
  'get_unit_costs',
] as const;

/**
 * The MCP tools: each calls the same service as its HTTP endpoint, after the same scope check (a missing
 * scope is a tool error with the 403 message) and the same validation pipe (a tool error with the 400
 * message), and answers compactly (compact-answers.ts).
 */
@Injectable()
export class McpTools {
  private readonly logger = new Logger('Mcp');
  private readonly pipe = new ApiValidationPipe();
  private listed?: Tool[];
  private readonly definitions: ToolDefinition[];

  constructor(
    costs: CostsService,
    comparison: ComparisonService,
    filterOptions: FilterOptionsService,
    sharing: SharingService,
    forecasts: ForecastsService,
    anomalies: AnomaliesService,
    allocation: AllocationService,
    commitments: CommitmentsService,
    contracts: ContractsService,
    budgets: BudgetsService,
    unitCosts: UnitCostsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    const services: ToolServices = {
      costs,
      comparison,
      filterOptions,
      sharing,
      forecasts,
      anomalies,
      allocation,
      commitments,
      contracts,
      budgets,
      unitCosts,
    };
    this.definitions = [
      getCostDataTool(services),
      compareCostsTool(services),
      getFilterValuesTool(services),
      ...mapKeyValuesTools(services),
      getSharedFilterTool(services),
      forecastCostsTool(services),
      findAnomaliesTool(services),
      getAllocationTool(services),
      getCommitmentsTool(services),
      getContractsTool(services),
      listBudgetsTool(services),
      getUnitCostsTool(services),
    ];
  }

  /** Builds the tools' input schemas from the OpenAPI document (once, at start-up: app.factory.ts). */
  describe(document: OpenApiDocumentLike): void {
    this.listed = this.definitions.map((tool) => {
      const endpoint = operationInputSchema(document, tool.endpoint.method, tool.endpoint.path);
      const properties = { ...(endpoint.properties as Record<string, JsonSchema>) };
      for (const [name, control] of Object.entries(tool.controls)) properties[name] = control.schema;
      return {
        name: tool.name,
        title: tool.title,
        description: `${tool.description(this.config)} Needs the API key scope ${tool.scope}.`,
        inputSchema: { ...endpoint, type: 'object', properties, additionalProperties: false } as Tool['inputSchema'],
        annotations: { title: tool.title, readOnlyHint: true, openWorldHint: false },
      };
    });
  }

  list(): Tool[] {
    if (!this.listed) throw new Error('McpTools.describe(document) was not called at start-up');
    return this.listed;
  }

  /** Runs one tool for the key's principal: its answer as compact JSON text, or a tool error with the API's message. */
  async call(name: string, args: Record<string, unknown>, principal: Principal): Promise<CallToolResult> {
    const tool = this.definitions.find((definition) => definition.name === name);
    if (!tool) return toolError(`Unknown tool ${quotedName(name)}. Tools: ${MCP_TOOL_NAMES.join(', ')}.`);
    const started = Date.now();
    try {
      if (!principal.scopes.includes(tool.scope)) {
        throw new HttpException(`This API key lacks the scope required for this operation: ${tool.scope}.`, HttpStatus.FORBIDDEN);
      }
      const { body, controls } = this.split(tool, args);
      const validated = tool.dto ? ((await this.pipe.transform(body, { type: 'body', metatype: tool.dto })) as object) : body;
      const answer = await tool.run({ body: validated, controls, principal });
      this.logger.debug(`${name}: answered in ${Date.now() - started} ms`);
      return { content: [{ type: 'text', text: JSON.stringify(answer) }] };
    } catch (error) {
      if (error instanceof HttpException) {
        this.logger.debug(`${name}: ${error.getStatus()} in ${Date.now() - started} ms`);
        return toolError(messageOf(error));
      }
      this.logger.error(`${name} failed: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
      return toolError('Internal server error.');
    }
  }

  /** The tool's controls, checked, and the rest of the arguments (the endpoint's body, for its DTO). */
  private split(tool: ToolDefinition, args: Record<string, unknown>): { body: Record<string, unknown>; controls: Record<string, unknown> } {
    const body: Record<string, unknown> = {};
    const controls: Record<string, unknown> = {};
    const problems: string[] = [];
    for (const [key, value] of Object.entries(args)) {
      const control = Object.prototype.hasOwnProperty.call(tool.controls, key) ? tool.controls[key] : undefined;
      if (!control) {
        // As an own property even for `__proto__`, so the validation pipe reports it as an unknown field.
        Object.defineProperty(body, key, { value, enumerable: true, writable: true, configurable: true });
        continue;
      }
      if (value === undefined || value === null) continue;
      const problem = control.read(value);
      if (problem) problems.push(`${key}: ${problem}`);
      else controls[key] = value;
    }
    if (problems.length) throw new InvalidRequestException(problems);
    return { body, controls };
  }
}

/** The longest part of an unknown tool's name an answer repeats: enough to spot a typo, never a reflection of the request. */
const ECHOED_NAME_LENGTH = 64;

function quotedName(name: string): string {
  if (name.length <= ECHOED_NAME_LENGTH) return `"${name}"`;
  return `"${name.slice(0, ECHOED_NAME_LENGTH)}…" (${name.length} characters)`;
}

function toolError(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

function messageOf(error: HttpException): string {
  const response = error.getResponse();
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown }).message;
  if (Array.isArray(message)) return message.join('; ');
  return typeof message === 'string' ? message : error.message;
}
