import { Injectable } from '@nestjs/common';

/** More would be a flood of spoofed addresses: forgetting the oldest then only costs lookups again. */
const MAX_TRACKED_CLIENTS = 10_000;

/**
 * Client IPs this instance answered 429 for want of a valid key, until their window ends. A key such a
 * client presents is only looked up if it exists (ApiKeysService.authenticate), so guessing keys from a
 * throttled address costs no ClickHouse statement per guess.
 */
@Injectable()
export class ThrottledClients {
  private readonly until = new Map<string, number>();

  throttle(ip: string, seconds: number): void {
    if (this.until.size >= MAX_TRACKED_CLIENTS) this.forgetExpired();
    if (this.until.size >= MAX_TRACKED_CLIENTS) this.until.delete(this.until.keys().next().value as string);
    this.until.set(ip, Date.now() + seconds * 1000);
  }

  isThrottled(ip: string | undefined): boolean {
    const until = ip === undefined ? undefined : this.until.get(ip);
    return until !== undefined && until > Date.now();
  }

  private forgetExpired(): void {
    const now = Date.now();
    for (const [ip, until] of this.until) if (until <= now) this.until.delete(ip);
  }
}
