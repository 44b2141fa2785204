import { Body, Controller, Get, HttpCode, HttpStatus, Logger, Put } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiError } from '../common/errors/api-errors';
import { messageOf } from '../common/errors/message-of';
import { Authorized } from '../common/http/authorized.decorator';
import { ok, SuccessEnvelope } from '../common/http/envelope';
import type { Principal } from '../common/http/principal';
import { CurrentPrincipal } from '../common/http/request-context';
import type { AuditOrigin } from '../store/repositories/audit-event';
import { ApiKeyOrigin } from '../infrastructure/audit-trail/audit-origin';
import { AuditTrail } from '../infrastructure/audit-trail/audit-trail.service';
import { ActivatedKeysDto, TagKeysDto, TagKeysResponseDto } from './dto/tag-keys.dto';
import { describeKey, TagKeyActivationService } from './tag-key-activation.service';
import { TagKeysRepository } from '../store/repositories/tag-keys.repository';

const ADMIN = 'tag-keys:admin';
const FORBIDDEN = `The API key lacks the \`${ADMIN}\` scope, or has a data scope.`;

/**
 * The organisation's activated tag and cost-category keys (`tag-keys:admin`): questions naming only these are answered
 * from columns that hold them alone, at the speed of a column; every other key is answered exactly as before.
 */
@ApiTags('Tag keys (admin)')
@Controller('admin')
export class TagKeysAdminController {
  private readonly logger = new Logger('TagKeys');

  constructor(
    private readonly repository: TagKeysRepository,
    private readonly activation: TagKeyActivationService,
    private readonly auditTrail: AuditTrail,
  ) {}

  @Get('tag-keys')
  @Authorized(ADMIN, FORBIDDEN)
  @ApiOperation({
    operationId: 'getTagKeys',
    summary: 'The activated tag and cost-category keys, and the keys present with their share of cost',
  })
  @ApiOkResponse({ type: TagKeysResponseDto })
  async list(@CurrentPrincipal() principal: Principal): Promise<SuccessEnvelope<TagKeysDto>> {
    refuseScoped(principal);
    return ok(await this.describe(principal.organizationId));
  }

  @Put('tag-keys')
  @HttpCode(HttpStatus.ACCEPTED)
  @Authorized(ADMIN, FORBIDDEN)
  @ApiOperation({
    operationId: 'setTagKeys',
    summary: 'Set the activated tag and cost-category keys',
    description: [
      'The body is the whole set. A key left out is deactivated at once (questions naming it read the full maps again).',
      "A key added is `backfilling` until the organisation's rows are rewritten and checked, in the background: no answer changes meanwhile, only its speed once the key is `active` (GET shows it). Sending the set again resumes a back-fill that failed.",
      'Until an organisation first sets its keys, the import that brings its data activates the suggested ones (`TAG_KEYS_DEFAULT`); any PUT, even of an empty set, is its choice from then on.',
    ].join('\n\n'),
  })
  @ApiAcceptedResponse({ type: TagKeysResponseDto })
  @ApiBadRequestResponse({ description: 'Not two lists of keys (1 to 256 characters each, at most 50 per list).' })
  async set(
    @CurrentPrincipal() principal: Principal,
    @Body() body: ActivatedKeysDto,
    @ApiKeyOrigin() origin: AuditOrigin,
  ): Promise<SuccessEnvelope<TagKeysDto>> {
    refuseScoped(principal);
    const { organizationId } = principal;
    const change = await this.activation.change(organizationId, { tag: body.tag, costCategory: body.costCategory });
    change.backfilled.catch((error: unknown) =>
      this.logger.error(`Back-fill of activated keys for organisation ${organizationId} failed: ${messageOf(error)}`),
    );
    if (change.activating.length > 0 || change.deactivated.length > 0) {
      await this.auditTrail.record(origin, 'tag-keys.changed', 'tag-keys', {
        activating: change.activating.map(describeKey),
        deactivated: change.deactivated.map(describeKey),
      });
    }
    return ok(await this.describe(organizationId));
  }

  private async describe(organizationId: string): Promise<TagKeysDto> {
    const [activated, present] = await Promise.all([
      this.repository.activations(organizationId),
      this.repository.presentKeys(organizationId),
    ]);
    return { activated, present };
  }
}

function refuseScoped(principal: Principal): void {
  if (principal.dataScope) throw new ApiError(HttpStatus.FORBIDDEN, 'Managing activated keys needs a key without a data scope.');
}
