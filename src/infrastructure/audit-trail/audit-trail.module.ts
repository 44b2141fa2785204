import { Global, Module } from '@nestjs/common';
import { AuditEventsRepository } from '../../store/repositories/audit-events.repository';
import { AuditTrail } from './audit-trail.service';

/** The audit trail, for every feature that makes administrative changes (global: it sits below them all). */
@Global()
@Module({ providers: [AuditEventsRepository, AuditTrail], exports: [AuditTrail] })
export class AuditTrailModule {}
