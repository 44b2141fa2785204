import { CallHandler, ExecutionContext, Injectable, NestInterceptor, Type } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import type { Request } from 'express';
import { Observable } from 'rxjs';
import { ApiValidationPipe } from './api-validation.pipe';

/**
 * Validates a route's `@Body()` before any route interceptor sees it (global interceptors run first), so
 * e.g. the answer cache is only ever consulted with a valid body, keyed by what was validated. Guards
 * (authentication, rate limit, scopes) have run already: 401/403/429 still come before 400.
 */
@Injectable()
export class BodyValidationInterceptor implements NestInterceptor {
  private readonly pipe = new ApiValidationPipe();
  private readonly bodyTypes = new WeakMap<object, Type | null>();

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const bodyType = this.bodyType(context);
    if (bodyType) {
      const request = context.switchToHttp().getRequest<Request>();
      // @Body() reads request.body: the handler receives the validated DTO instance.
      request.body = await this.pipe.transform(request.body, { type: 'body', metatype: bodyType });
    }
    return next.handle();
  }

  /** The DTO class of the handler's `@Body()` parameter, if it has one (looked up once per handler). */
  private bodyType(context: ExecutionContext): Type | null {
    const handler = context.getHandler();
    let type = this.bodyTypes.get(handler);
    if (type === undefined) {
      const controller = context.getClass();
      const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, handler.name) ?? {}) as Record<string, { index: number }>;
      const body = Object.entries(args).find(([key]) => key.split(':')[0] === String(RouteParamtypes.BODY));
      const parameterTypes = (Reflect.getMetadata('design:paramtypes', controller.prototype, handler.name) ?? []) as Type[];
      type = body ? (parameterTypes[body[1].index] ?? null) : null;
      this.bodyTypes.set(handler, type);
    }
    return type;
  }
}
