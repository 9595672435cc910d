import type { Env } from '../service/env';
import type { Account, ApiKey } from '../service/storage/accounts';

/** Hono's typed context: bindings plus what the middleware puts in front of every handler. */
export interface AppEnv {
  Bindings: Env;
  Variables: {
    requestId: string;
    account: Account;
    key: ApiKey;
  };
}
