import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Observable } from 'rxjs';
import { AuthenticatedRequest } from '../common/http/request-context';
import { runAsStatementOwner } from '../store/clickhouse/statement-owner';

/**
 * Runs the handling of an authenticated request as its API key's (runAsStatementOwner), so the fair
 * scheduler gives each key of an organisation its turn and its share of the organisation's queue.
 */
@Injectable()
export class StatementOwnerInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const principal = context.switchToHttp().getRequest<AuthenticatedRequest>().principal;
    if (!principal) return next.handle();
    return new Observable((subscriber) => runAsStatementOwner(principal.keyId, () => next.handle().subscribe(subscriber)));
  }
}
