import type { NextFunction, Request, Response } from 'express';
import { shutdownState } from './shutdown-state';

/**
 * While draining, every response closes its connection (decided when the response starts, so
 * requests already in flight when SIGTERM arrived close theirs too): keep-alive clients, such as the
 * load balancer's upstream pool, reconnect to other instances instead of racing the listener's close.
 */
export function closeConnectionsWhileDraining(_request: Request, response: Response, next: NextFunction): void {
  const writeHead = response.writeHead;
  response.writeHead = function (this: Response, ...args: unknown[]) {
    if (shutdownState.draining && !this.headersSent) this.setHeader('Connection', 'close');
    return (writeHead as (...a: unknown[]) => Response).apply(this, args);
  } as Response['writeHead'];
  next();
}
