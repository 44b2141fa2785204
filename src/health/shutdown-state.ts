/**
 * Process-wide draining flag. Set on SIGTERM (main.ts) before anything stops: readiness answers 503
 * from then on, and responses carry `Connection: close` so keep-alive clients (the load balancer)
 * move to other instances instead of racing the listener's close.
 */
export class ShutdownState {
  private drainingSince: number | undefined;

  markDraining(): void {
    this.drainingSince ??= Date.now();
  }

  get draining(): boolean {
    return this.drainingSince !== undefined;
  }
}

export const shutdownState = new ShutdownState();
