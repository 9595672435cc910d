import type { Env } from '../src/env';

declare global {
  namespace Cloudflare {
    interface Env extends import('../src/env').Env {}
  }
}
export type { Env };
