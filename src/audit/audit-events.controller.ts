import { Controller, Get, HttpStatus, Query, Res } from '@nestjs/common';
import { ApiBadRequestResponse, ApiExtraModels, ApiOkResponse, ApiOperation, ApiQuery, ApiTags, getSchemaPath } from '@nestjs/swagger';
import type { Response } from 'express';
import { AnswerFormat, ANSWER_MEDIA_TYPES, RequestedAnswerFormat } from '../answers/answer-format';
import { CsvText } from '../answers/csv-text';
import { ADMIN_SCOPE } from '../auth/key-grants';
import { ApiError } from '../common/errors/api-errors';
import { Authorized } from '../common/http/authorized.decorator';
import { ok, SuccessEnvelope } from '../common/http/envelope';
import type { Principal } from '../common/http/principal';
import { CurrentPrincipal } from '../common/http/request-context';
import { AUDIT_ACTION_MEANINGS, AUDIT_ACTIONS, AuditEvent } from '../store/repositories/audit-event';
import { AuditTrail } from '../infrastructure/audit-trail/audit-trail.service';
import { AUDIT_EVENTS_CSV_COLUMNS, auditEventRecord, auditEventsCsv } from './audit-events-csv';
import { AUDIT_EVENTS_PAGE_SIZES, encodeAuditCursor, INSTANT_TEXT, readAuditEventsQuery } from './audit-events-query';
import { AuditEventDto, AuditEventListDto, AuditEventListResponseDto } from './audit-events.dto';

const FORBIDDEN = `The API key lacks the \`${ADMIN_SCOPE}\` scope, or has a data scope.`;
const SCOPED_ADMIN = 'Reading the audit trail needs a key without a data scope: it records changes to the whole organisation.';
/** The CSV answer's continuation: the nextCursor of its page, absent on the last one. */
export const NEXT_CURSOR_HEADER = 'X-Next-Cursor';

const CSV_EXAMPLE =
  AUDIT_EVENTS_CSV_COLUMNS.map((column) => `"${column}"`).join(',') +
  '\r\n' +
  auditEventRecord({
    eventId: '0b6f2c4e-8d1a-4f3b-9e2d-7c5a1b3d9e4f',
    at: '2026-11-25T09:30:12.345Z',
    organizationId: '',
    actorKind: 'api-key',
    actorId: 'Xy12Ab34Cd56',
    actorEmail: '',
    action: 'api-key.created',
    target: 'Pq78Rs90Tu12',
    details: { name: 'Payments team dashboards', scopes: ['cost:read'], dataScope: null },
    clientIp: '10.20.30.40',
    requestId: '5d0c9a5e-2f4b-4c1e-8a7d-3b6e9f0a1c2d',
  });

/**
 * The organisation's audit trail as an API (`api-keys:admin`, a key without a data scope, like the key admin routes):
 * its administrative changes, newest first, filtered and paged; as CSV for an export.
 */
@ApiTags('Audit trail (admin)')
@ApiExtraModels(AuditEventListResponseDto)
@Controller('admin/audit-events')
export class AuditEventsController {
  constructor(private readonly auditTrail: AuditTrail) {}

  @Get()
  @Authorized(ADMIN_SCOPE, FORBIDDEN)
  @ApiOperation({
    operationId: 'listAuditEvents',
    summary: "The organisation's administrative changes, newest first: who changed what, when, from where",
    description: [
      'Every change made through the admin API (and the Settings pages) after it succeeded: a refused change (400, 403) is no change. Never a key, token or secret. Kept AUDIT_RETENTION_DAYS (default 400).',
      `**Actions**: ${AUDIT_ACTIONS.map((action) => `\`${action}\`: ${AUDIT_ACTION_MEANINGS[action]}`).join('; ')}.`,
      "**Paging**: newest first (then by id); `nextCursor` continues after the page's last event, so events recorded meanwhile (newer) never shift the pages that follow.",
      `**CSV**: with \`Accept: text/csv\`, RFC 4180 CSV (${AUDIT_EVENTS_CSV_COLUMNS.map((column) => `\`${column}\``).join(', ')}; \`details\` as JSON text; text cells that a spreadsheet would run as a formula get a leading \`'\`), pages of up to ${AUDIT_EVENTS_PAGE_SIZES.csv.max} events continued by the \`${NEXT_CURSOR_HEADER}\` header. Errors stay JSON envelopes.`,
    ].join('\n\n'),
  })
  @ApiQuery({ name: 'from', required: false, type: String, description: `Events at or after: ${INSTANT_TEXT}.`, example: '2026-11-01' })
  @ApiQuery({ name: 'to', required: false, type: String, description: `Events at or before (a date: through its end): ${INSTANT_TEXT}.` })
  @ApiQuery({
    name: 'actor',
    required: false,
    type: String,
    description: "Only this actor's events: an admin key's id (e.g. `Xy12Ab34Cd56`), an identity provider's subject or an email.",
  })
  @ApiQuery({
    name: 'action',
    required: false,
    enum: AUDIT_ACTIONS,
    description: 'Only events of this action.',
  })
  @ApiQuery({
    name: 'limit',
    required: false,
    type: 'integer',
    description: `Events per page: JSON 1 to ${AUDIT_EVENTS_PAGE_SIZES.json.max} (default ${AUDIT_EVENTS_PAGE_SIZES.json.default}), CSV 1 to ${AUDIT_EVENTS_PAGE_SIZES.csv.max} (default ${AUDIT_EVENTS_PAGE_SIZES.csv.default}).`,
    example: 50,
  })
  @ApiQuery({
    name: 'cursor',
    required: false,
    type: String,
    description: 'The `nextCursor` (or CSV `X-Next-Cursor`) of the previous page.',
  })
  @ApiOkResponse({
    description: 'A page of events (JSON), or of records under `Accept: text/csv`.',
    headers: {
      [NEXT_CURSOR_HEADER]: {
        description: 'CSV answers: the cursor of the next page; absent on the last page.',
        schema: { type: 'string' },
      },
    },
    content: {
      [ANSWER_MEDIA_TYPES.json]: { schema: { $ref: getSchemaPath(AuditEventListResponseDto) } },
      [ANSWER_MEDIA_TYPES.csv]: { schema: { type: 'string' }, example: CSV_EXAMPLE },
    },
  })
  @ApiBadRequestResponse({
    description:
      'A bad `from`, `to`, `actor`, `action`, `limit` or `cursor`, `from` after `to`, or an unknown parameter (the message names each).',
  })
  async list(
    @CurrentPrincipal() principal: Principal,
    @Query() query: Record<string, unknown>,
    @RequestedAnswerFormat() format: AnswerFormat,
    @Res({ passthrough: true }) response: Response,
  ): Promise<SuccessEnvelope<AuditEventListDto> | CsvText> {
    if (principal.dataScope) throw new ApiError(HttpStatus.FORBIDDEN, SCOPED_ADMIN);
    const request = readAuditEventsQuery(query, format);
    // One more than the page: whether another page follows.
    const read = await this.auditTrail.page({ ...request, organizationId: principal.organizationId, limit: request.limit + 1 });
    const events = read.slice(0, request.limit);
    const last = events.at(-1);
    const nextCursor = read.length > request.limit && last ? encodeAuditCursor({ atMs: Date.parse(last.at), eventId: last.eventId }) : null;
    if (format === 'csv') {
      if (nextCursor) response.setHeader(NEXT_CURSOR_HEADER, nextCursor);
      return auditEventsCsv(events);
    }
    return ok({ events: events.map(toDto), nextCursor });
  }
}

function toDto(event: AuditEvent): AuditEventDto {
  return {
    id: event.eventId,
    at: event.at,
    action: event.action,
    actor: { kind: event.actorKind, id: event.actorId, email: event.actorEmail || null },
    target: event.target,
    details: event.details,
    clientIp: event.clientIp,
    requestId: event.requestId,
  };
}
