/** Task status (`GET /v1/tasks/{id}`, long poll), downloads with a key and by signed link. */
import { Hono, type Context } from 'hono';
import type { AppEnv } from '../app-env';
import { ApiError } from '../../lib/errors';
import { publicBaseUrl } from '../../service/env';
import { contentDisposition } from '../../lib/names';
import { formatRub } from '../../lib/money';
import { iso, isoOrNull } from '../../lib/time';
import type { DownloadOutcome, TaskView } from '../../service/tasks/types';

const stubOf = (c: Context<AppEnv>, taskId: string) => c.env.TASK.get(c.env.TASK.idFromName(taskId));

const VALID_TASK_ID = /^task_[0-9a-f]{32}$/;

/** The caller's task, or 404 (another account's task is indistinguishable from a missing one). */
export async function ownTask(c: Context<AppEnv>, taskId: string) {
  if (!VALID_TASK_ID.test(taskId)) throw new ApiError('not_found', 'No such task.');
  const stub = stubOf(c, taskId);
  const view = await stub.view();
  if (!view || view.state.account_id !== c.get('account').id) throw new ApiError('not_found', 'No such task.');
  return { stub, view };
}

/** The task status record of DECISIONS.md. */
export function taskRecord(view: TaskView, baseUrl: string) {
  const s = view.state;
  const done = s.status === 'done';
  const result = done ? s.result : null;
  return {
    task_id: s.task_id,
    operation_type: s.operation_type,
    status: s.status,
    created_at: iso(s.created_at),
    started_at: isoOrNull(s.started_at),
    finished_at: isoOrNull(s.finished_at),
    progress: s.progress,
    charge: formatRub(s.charge_kopecks),
    charge_units: s.charge_units,
    included: s.included,
    refunded: s.refunded,
    filename: result?.filename ?? null,
    content_type: result?.content_type ?? null,
    size: result?.size ?? null,
    download_url: done && view.token ? `${baseUrl}/v1/download/${view.token}` : null,
    result_expires_at: done ? isoOrNull(s.result_expires_at) : null,
    result_available: done && s.result_available,
    error_message: s.status === 'failed' ? s.error_message : null,
  };
}

/** The base of the links in a record: PUBLIC_BASE_URL when set, else the origin the request came to. */
export const baseUrlOf = (c: Context<AppEnv>): string => publicBaseUrl(c.env, new URL(c.req.url).origin);

/** Streams a stored result with the right headers. */
async function sendResult(c: Context<AppEnv>, outcome: DownloadOutcome): Promise<Response> {
  if (!outcome.ok) {
    switch (outcome.code) {
      case 'not_found':
        throw new ApiError('not_found', 'No such download.');
      case 'expired_link':
        throw new ApiError('result_deleted', 'This download link expired: get a fresh download_url from GET /v1/tasks/{task_id} (the result is still there).');
      case 'task_not_finished':
        throw new ApiError('task_not_finished', 'The task has not finished yet: poll GET /v1/tasks/{task_id}?wait=60.');
      case 'task_failed':
        throw new ApiError('result_deleted', 'The task failed, so there is no result: its error_message in GET /v1/tasks/{task_id} says why; the payment was returned.');
      case 'result_deleted':
        throw new ApiError('result_deleted', 'The result was deleted: it expired, or it was already downloaded once on the free plan. Run the operation again.');
    }
  }
  const object = await c.env.FILES.get(outcome.result.r2_key);
  if (!object) throw new ApiError('result_deleted', 'The result was deleted: run the operation again.');
  return new Response(object.body, {
    headers: {
      'content-type': outcome.result.content_type,
      'content-length': String(object.size),
      'content-disposition': contentDisposition(outcome.result.filename),
      'cache-control': 'private, no-store',
    },
  });
}

export function taskRoutes() {
  const routes = new Hono<AppEnv>();

  routes.get('/tasks/:task_id', async (c) => {
    const { stub, view } = await ownTask(c, c.req.param('task_id'));
    const waitParam = c.req.query('wait');
    let current = view;
    if (waitParam !== undefined) {
      const seconds = Number(waitParam);
      if (!Number.isInteger(seconds) || seconds < 0 || seconds > 60) {
        throw new ApiError('validation_error', 'wait must be an integer from 0 to 60 seconds', [{ path: 'wait', message: 'wait must be an integer from 0 to 60' }]);
      }
      if (seconds > 0) current = (await stub.wait(seconds)) ?? view;
    }
    return c.json(taskRecord(current, baseUrlOf(c)));
  });

  routes.get('/tasks/:task_id/result', async (c) => {
    const { stub } = await ownTask(c, c.req.param('task_id'));
    return sendResult(c, await stub.download(null));
  });

  return routes;
}

/** `GET /v1/download/<token>`: no key; the token names its task and is checked by the task object. */
export function downloadRoutes() {
  const routes = new Hono<AppEnv>();
  routes.get('/download/:token', async (c) => {
    const token = c.req.param('token');
    const taskId = token.split('.')[0] ?? '';
    if (!VALID_TASK_ID.test(taskId) || token.length > 200) throw new ApiError('not_found', 'No such download.');
    return sendResult(c, await stubOf(c, taskId).download(token));
  });
  return routes;
}
