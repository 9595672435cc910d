import { createApp } from '../api/app';
import type { Env } from '../service/env';
import { handleQueue } from '../service/tasks/consumer';
import { operationByPath } from '../operations';
import { sweep } from '../api/cron';

export { TaskObject } from '../service/tasks/task-object';
export { RateLimiter } from '../api/middleware/rate-limiter-object';

const app = createApp();

export default {
  fetch: app.fetch,
  queue: (batch, env) => handleQueue(batch, env, operationByPath),
  scheduled: async (_controller, env, ctx) => {
    ctx.waitUntil(sweep(env).then((r) => console.log(JSON.stringify({ event: 'sweep', ...r }))));
  },
} satisfies ExportedHandler<Env>;
