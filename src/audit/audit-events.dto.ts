import { ApiProperty } from '@nestjs/swagger';
import { AUDIT_ACTIONS, AUDIT_ACTOR_KINDS, AuditAction, AuditActorKind } from '../store/repositories/audit-event';

export class AuditActorDto {
  @ApiProperty({
    enum: AUDIT_ACTOR_KINDS,
    description: '`api-key`: an admin API key; `sso`: a person signed in through the identity provider.',
    example: 'api-key',
  })
  kind: AuditActorKind;

  @ApiProperty({ description: "The admin key's public id (never the key), or the identity provider's subject.", example: 'Xy12Ab34Cd56' })
  id: string;

  @ApiProperty({ type: String, nullable: true, description: "The person's email; null for a key.", example: null })
  email: string | null;
}

export class AuditEventDto {
  @ApiProperty({ description: 'The event id.', format: 'uuid', example: '0b6f2c4e-8d1a-4f3b-9e2d-7c5a1b3d9e4f' })
  id: string;

  @ApiProperty({ format: 'date-time', description: 'When the change was made (UTC, milliseconds).', example: '2026-11-25T09:30:12.345Z' })
  at: string;

  @ApiProperty({ enum: AUDIT_ACTIONS, example: 'api-key.created' })
  action: AuditAction;

  @ApiProperty({ type: AuditActorDto })
  actor: AuditActorDto;

  @ApiProperty({
    description: 'What was changed: a key id, a source id, `currency`, `exchange-rates`.',
    example: 'Pq78Rs90Tu12',
  })
  target: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'What changed (names, permissions, data scopes, settings before and after, counts); never a key, token or secret.',
    example: { name: 'Payments team dashboards', scopes: ['cost:read'], dataScope: null },
  })
  details: Record<string, unknown>;

  @ApiProperty({
    description: 'The client IP (X-Forwarded-For counted only across TRUST_PROXY_HOPS proxies).',
    example: '10.20.30.40',
  })
  clientIp: string;

  @ApiProperty({
    description: 'The request id (the `X-Request-Id` of the answer and of the log line).',
    example: '5d0c9a5e-2f4b-4c1e-8a7d-3b6e9f0a1c2d',
  })
  requestId: string;
}

export class AuditEventListDto {
  @ApiProperty({ type: [AuditEventDto], description: 'Newest first.' })
  events: AuditEventDto[];

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Pass as `cursor` for the next (older) page; null on the last page.',
    example: 'eyJ0IjoxNzY0MDYzMDEyMzQ1LCJlIjoiMGI2ZjJjNGUtOGQxYS00ZjNiLTllMmQtN2M1YTFiM2Q5ZTRmIn0',
  })
  nextCursor: string | null;
}

export class AuditEventListResponseDto {
  @ApiProperty({ example: true })
  success: boolean;

  @ApiProperty({ type: AuditEventListDto })
  data: AuditEventListDto;
}
