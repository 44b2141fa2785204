import type { NextFunction, Request, Response } from 'express';
import { metrics } from './prometheus-metrics';

/**
 * Counts every response and its latency by method, route *template* (`/v1/cost-insights/shared-filters/:filterId`,
 * never the raw path, so label cardinality stays bounded) and status. Requests answered before routing
 * (unknown routes, 413/415 bodies) are labelled `unmatched`.
 */
export function httpMetrics(request: Request, response: Response, next: NextFunction): void {
  const stop = metrics.httpDuration.startTimer();
  response.once('finish', () => {
    const labels = { method: request.method, route: routeTemplate(request), status: String(response.statusCode) };
    stop(labels);
    metrics.httpRequests.inc(labels);
  });
  next();
}

function routeTemplate(request: Request): string {
  const path = (request.route as { path?: unknown } | undefined)?.path;
  return typeof path === 'string' ? `${request.baseUrl}${path}` : 'unmatched';
}
