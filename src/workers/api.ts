import { createApp } from '../app';
import type { Env } from '../env';
import { handleQueue } from '../tasks/consumer';
import { operationByPath } from '../operations';
import { sweep } from '../cron';

export { TaskObject } from '../tasks/task-object';
export { RateLimiter } from '../middleware/rate-limiter-object';

const app = createApp();

export default {
  fetch: app.fetch,
  queue: (batch, env) => handleQueue(batch, env, operationByPath),
  scheduled: async (_controller, env, ctx) => {
    ctx.waitUntil(sweep(env).then((r) => console.log(JSON.stringify({ event: 'sweep', ...r }))));
  },
} satisfies ExportedHandler<Env>;
