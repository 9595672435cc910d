import { DurableObject } from 'cloudflare:workers';
import type { Env } from '../../service/env';

/**
 * A token bucket per API key (one object per key, so the limit holds across isolates and
 * colos). State is in memory only: if the object is evicted the bucket starts full, which errs
 * on the side of serving the client.
 */
export class RateLimiter extends DurableObject<Env> {
  private tokens = -1;
  private last = 0;

  /** Takes one token. Returns 0 when allowed, else the seconds to wait before retrying. */
  take(perSecond: number, burst: number): number {
    const now = Date.now();
    if (this.tokens < 0) this.tokens = burst;
    else this.tokens = Math.min(burst, this.tokens + ((now - this.last) / 1000) * perSecond);
    this.last = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - this.tokens) / perSecond));
  }
}
