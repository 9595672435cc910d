import type { Env as WorkerEnv } from '../src/service/env';

// `env` from cloudflare:test is typed as Cloudflare.Env: make it the Worker's own Env.
declare global {
  namespace Cloudflare {
    interface Env extends WorkerEnv {
      TEST_MIGRATIONS: import('cloudflare:test').D1Migration[];
      /** The engine Workers' font faces (static assets of .fonts/, vitest.config.ts). */
      FONTS: Fetcher;
    }
  }
}
