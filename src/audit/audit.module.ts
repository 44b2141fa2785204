import { Module } from '@nestjs/common';
import { AuditEventsController } from './audit-events.controller';

/** GET /v1/admin/audit-events: the audit trail (src/infrastructure/audit-trail, which every feature records through) as an API. */
@Module({ controllers: [AuditEventsController] })
export class AuditModule {}
