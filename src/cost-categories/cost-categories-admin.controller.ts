import { ApiValidationPipe } from '../common/validation/api-validation.pipe';
import { Body, Controller, Delete, Get, HttpStatus, Param, Put, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiExtraModels,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import { ApiError, InvalidRequestException } from '../common/errors/api-errors';
import { Authorized } from '../common/http/authorized.decorator';
import { ok, SuccessEnvelope } from '../common/http/envelope';
import type { Principal } from '../common/http/principal';
import { CurrentPrincipal } from '../common/http/request-context';
import { categoryKeyProblems } from '../cost-query/cost-category-definition';
import { organizationScopeOf } from '../cost-query/data-scope';
import type { AuditOrigin } from '../store/repositories/audit-event';
import { ApiKeyOrigin } from '../infrastructure/audit-trail/audit-origin';
import { AuditTrail } from '../infrastructure/audit-trail/audit-trail.service';
import { CostCategoriesService } from './cost-categories.service';
import {
  CostCategoryDefinitionDto,
  CostCategoryListDto,
  CostCategoryPreviewDto,
  CostCategoryVersionsDto,
  PreviewQueryDto,
} from './dto/cost-category.dto';

const ADMIN = 'cost-categories:admin';
const FORBIDDEN = `The API key lacks the \`${ADMIN}\` scope, or has a data scope.`;
const envelopeOf = (type: new () => unknown) => ({
  schema: { type: 'object', properties: { success: { type: 'boolean', example: true }, data: { $ref: getSchemaPath(type) } } },
});

/**
 * Cost categories an organisation defines by ordered rules (`cost-categories:admin`), read everywhere an imported cost
 * category is. Every change is a version with the billing month it takes effect from; none is ever lost.
 */
@ApiTags('Cost categories (admin)')
@ApiExtraModels(CostCategoryListDto, CostCategoryVersionsDto, CostCategoryPreviewDto)
@Controller('admin/cost-categories')
export class CostCategoriesAdminController {
  constructor(
    private readonly categories: CostCategoriesService,
    private readonly auditTrail: AuditTrail,
  ) {}

  @Get()
  @Authorized(ADMIN, FORBIDDEN)
  @ApiOperation({ operationId: 'listCostCategories', summary: 'The cost categories defined by rules, each with its latest version' })
  @ApiOkResponse(envelopeOf(CostCategoryListDto))
  async list(@CurrentPrincipal() principal: Principal): Promise<SuccessEnvelope<CostCategoryListDto>> {
    refuseScoped(principal);
    return ok(await this.categories.list(principal.organizationId));
  }

  @Get(':key')
  @Authorized(ADMIN, FORBIDDEN)
  @ApiOperation({ operationId: 'getCostCategory', summary: 'Every version of one rule-defined cost category, oldest first' })
  @ApiOkResponse(envelopeOf(CostCategoryVersionsDto))
  @ApiNotFoundResponse({ description: 'The organisation never defined this category by rules.' })
  async versions(@CurrentPrincipal() principal: Principal, @Param('key') key: string): Promise<SuccessEnvelope<CostCategoryVersionsDto>> {
    refuseScoped(principal);
    return ok(await this.categories.versions(principal.organizationId, checkedKey(key)));
  }

  @Put(':key')
  @Authorized(ADMIN, FORBIDDEN)
  @ApiOperation({
    operationId: 'setCostCategory',
    summary: 'Save a new version of a rule-defined cost category (or, with dryRun=true, preview it)',
    description: [
      'Rules apply in order, first match wins; rows no rule matches get `defaultValue`. A rule gives `value`, or inherits the row’s value of a tag (`inheritTag`) or of another category (`inheritCategory`), falling through where the row has none; `when` (Filters without dates) narrows the rows it applies to; `caseInsensitive` compares tag values in `when` without case.',
      'The category is then read everywhere an imported cost category is (`costCategory:<key>` in groupBy, filters, exclusions, data scopes, shared filters, /cost-category-values, /filters, CSV, MCP). It replaces an imported category of the same key from `effectiveFrom` on; months before its first version read the export’s values.',
      '`effectiveFrom` (yyyy-MM, default the current month) is the first billing month the version is in effect for: a month earlier than the last version’s rewrites history from there, explicitly. Every version is kept (GET) and audited.',
      '`dryRun=true` saves nothing and answers, over `from`–`to` (default: the first day of the month two months ago to today), each value’s amortized cost and rows once saved, the unallocated share before and after, and the values changing most.',
      'Shared-cost `splits` move cost between the category’s values in answers grouped or filtered by it (`/data`, its CSV, `/compare`, MCP, the Backstage client, the allocation KPI): in order, each moves its `source` (a value, or the rows `filters` select) onto `targets` — `proportional` to each target’s own amortized cost that day and currency before any split, `fixed` by `percentages`, or `even` — every metric in the same shares, the organisation’s total unchanged to the last stored decimal (leftover units by the largest remainder). A source with no positive weight on a day keeps its value; a later split may move what an earlier one produced. Items grouped by the category carry `split_in` and `split_out` (amortized cost). The preview shows each value’s cost after the splits (its rows: those the rules give it).',
    ].join('\n\n'),
  })
  @ApiOkResponse({
    description: 'The category’s versions, the new one last; with dryRun=true, the preview.',
    schema: { oneOf: [envelopeOf(CostCategoryVersionsDto).schema, envelopeOf(CostCategoryPreviewDto).schema] },
  })
  @ApiBadRequestResponse({
    description:
      'Each problem named by field: unknown fields, no rules or more than 500, a rule giving no value or two, a `when` field that does not exist, `effectiveFrom` not a month, categories reading each other in a cycle, splits.',
  })
  async save(
    @CurrentPrincipal() principal: Principal,
    @Param('key') key: string,
    @Body() definition: CostCategoryDefinitionDto,
    @Query(new ApiValidationPipe()) query: PreviewQueryDto,
    @ApiKeyOrigin() origin: AuditOrigin,
  ): Promise<SuccessEnvelope<CostCategoryVersionsDto | CostCategoryPreviewDto>> {
    refuseScoped(principal);
    const checked = checkedKey(key);
    if (query.dryRun === 'true') {
      const window = { from: query.from, to: query.to };
      return ok(await this.categories.preview(organizationScopeOf(principal), checked, definition, window));
    }
    const saved = await this.categories.save(principal.organizationId, checked, definition, actorOf(principal));
    const version = saved.versions.at(-1)!;
    await this.auditTrail.record(origin, 'cost-category.changed', checked, {
      version: version.version,
      effectiveFrom: version.effectiveFrom,
      ruleCount: definition.rules.length,
    });
    return ok(saved);
  }

  @Delete(':key')
  @Authorized(ADMIN, FORBIDDEN)
  @ApiOperation({
    operationId: 'deleteCostCategory',
    summary: 'End a rule-defined cost category (its versions are kept; an imported category of the same key reads as exported again)',
  })
  @ApiOkResponse(envelopeOf(CostCategoryVersionsDto))
  @ApiNotFoundResponse({ description: 'No category of this key is defined by rules now.' })
  async delete(
    @CurrentPrincipal() principal: Principal,
    @Param('key') key: string,
    @ApiKeyOrigin() origin: AuditOrigin,
  ): Promise<SuccessEnvelope<CostCategoryVersionsDto>> {
    refuseScoped(principal);
    const checked = checkedKey(key);
    const deleted = await this.categories.delete(principal.organizationId, checked, actorOf(principal));
    await this.auditTrail.record(origin, 'cost-category.deleted', checked, { version: deleted.versions.at(-1)!.version });
    return ok(deleted);
  }
}

function refuseScoped(principal: Principal): void {
  if (principal.dataScope) throw new ApiError(HttpStatus.FORBIDDEN, 'Managing cost categories needs a key without a data scope.');
}

/** Who saved a version: the person signed in, else the admin key (its id, never the key). */
function actorOf(principal: Principal): string {
  return principal.person?.email ?? principal.keyId;
}

function checkedKey(key: string): string {
  const problems = categoryKeyProblems(key);
  if (problems.length > 0) throw new InvalidRequestException(problems);
  return key;
}
