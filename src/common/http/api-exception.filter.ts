import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import { ThrottlerException } from '@nestjs/throttler';
import type { Request, Response } from 'express';
import { RetryLaterException } from '../errors/api-errors';
import { errorEnvelope, UNAUTHORIZED_BODY } from './envelope';

/**
 * The one exception filter: every error leaves as the spec's envelope (401 as the gateway body).
 * Unexpected errors are logged with the route only (never headers) and answered with a generic 500.
 */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('ApiExceptionFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const response = http.getResponse<Response>();
    const request = http.getRequest<Request>();
    const { status, body } = this.toResponse(exception, request);
    if (status >= 500 && !(exception instanceof HttpException)) {
      const reason = exception instanceof Error ? `${exception.name}: ${exception.message}` : String(exception);
      this.logger.error(`${request.method} ${request.path} failed: ${reason}`);
    }
    if (response.headersSent) return;
    if (exception instanceof RetryLaterException) response.setHeader('Retry-After', exception.retryAfterSeconds);
    response.status(status).json(body);
  }

  private toResponse(exception: unknown, request: Request): { status: number; body: unknown } {
    if (exception instanceof ThrottlerException) {
      return { status: HttpStatus.TOO_MANY_REQUESTS, body: errorEnvelope(exception.message) };
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      if (status === HttpStatus.UNAUTHORIZED) return { status, body: UNAUTHORIZED_BODY };
      if (status === HttpStatus.NOT_FOUND && exception.constructor.name === 'NotFoundException' && isRouteMiss(exception)) {
        return { status, body: errorEnvelope(`Route ${request.method} ${request.path} not found.`) };
      }
      return { status, body: errorEnvelope(messageOf(exception)) };
    }
    return { status: HttpStatus.INTERNAL_SERVER_ERROR, body: errorEnvelope('Internal server error.') };
  }
}

function isRouteMiss(exception: HttpException): boolean {
  return /^Cannot [A-Z]+ /.test(messageOf(exception));
}

function messageOf(exception: HttpException): string {
  const response = exception.getResponse();
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown }).message;
  if (Array.isArray(message)) return message.join('; ');
  if (typeof message === 'string') return message;
  return exception.message;
}
