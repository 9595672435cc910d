import { Hono } from 'hono';
import type { AppEnv } from './app-env';
import { ApiError, problemResponse } from '../lib/errors';
import { requestId } from './middleware/request-id';
import { apiKeyAuth } from './middleware/auth';
import { adminRoutes } from './routes/admin';
import { uploadRoutes } from './routes/upload';
import { downloadRoutes, taskRoutes } from './routes/tasks';
import { operationRoutes } from './routes/operations';
import { accountRoutes } from './routes/account';
import { statisticsRoutes } from './routes/statistics';
import { DOCS_HTML, DOCS_PAGE_POLICY, openApiDocument } from './openapi';
import { config } from '../service/env';
import { dashboardRoutes } from './dashboard/routes';
import { bodyCap } from './middleware/body-cap';
import { noSniff, pageHeaders } from './middleware/security-headers';

export function createApp() {
  const app = new Hono<AppEnv>();
  app.use('*', requestId());
  app.use('*', noSniff());
  // Bodies capped per route before anything reads them (middleware/body-cap.ts); uploads keep the plan's limit.
  app.use('*', bodyCap());

  // Public: no key.
  app.get('/healthz', (c) => c.json({ ok: true }));
  app.get('/v1/openapi.json', (c) => c.json(openApiDocument(new URL(c.req.url).origin)));
  app.get('/docs', pageHeaders(DOCS_PAGE_POLICY), (c) => c.html(DOCS_HTML));
  app.route('/v1', downloadRoutes());
  app.route('/admin', adminRoutes());
  // The account dashboard: its own sign-in and session cookie, never an API key.
  app.route('/dashboard', dashboardRoutes());

  // Everything else under /v1 needs a key.
  const api = new Hono<AppEnv>();
  api.use('*', apiKeyAuth());
  api.route('/', uploadRoutes());
  api.route('/', taskRoutes());
  api.route('/', accountRoutes());
  api.route('/', statisticsRoutes());
  api.route('/', operationRoutes());
  app.route('/v1', api);

  // MCP (DECISIONS: MCP): the same key check first, then the tools call the API above from inside.
  app.use('/mcp', apiKeyAuth());
  app.post('/mcp', async (c) => {
    // Loaded on the first MCP request only: the SDK stays out of the queue consumer's and the API's start-up.
    const { handleMcp } = await import('./mcp/server');
    const keyHeaders: Record<string, string> = {};
    for (const name of ['x-api-key', 'authorization']) {
      const value = c.req.header(name);
      if (value) keyHeaders[name] = value;
    }
    const origin = new URL(c.req.url).origin;
    const api = (path: string, init: RequestInit = {}) =>
      Promise.resolve(app.fetch(new Request(new URL(path, origin), { ...init, headers: { ...keyHeaders, ...(init.headers as Record<string, string>) } }), c.env, c.executionCtx));
    return handleMcp(c.req.raw, { api, plan: c.get('account').plan, allowInsecureUrls: config(c.env).allowInsecureUrls });
  });
  app.on(['GET', 'DELETE'], '/mcp', () => {
    throw new ApiError('method_not_allowed', 'The MCP endpoint is stateless: send JSON-RPC messages with POST /mcp (Streamable HTTP, JSON responses).');
  });

  app.notFound((c) => problemResponse(new ApiError('not_found', `No endpoint ${c.req.method} ${new URL(c.req.url).pathname}: see /docs.`), c.get('requestId')));
  app.onError((err, c) => {
    const id = c.get('requestId');
    if (err instanceof ApiError) return problemResponse(err, id);
    console.error(JSON.stringify({ event: 'unhandled_error', request_id: id, method: c.req.method, path: new URL(c.req.url).pathname, error: String(err), stack: (err as Error)?.stack }));
    return problemResponse(new ApiError('internal_error', `Something went wrong on our side. Quote request id ${id} if you contact support.`), id);
  });
  return app;
}
