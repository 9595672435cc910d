/** `POST /v1/upload` and `POST /v1/upload/from-task/{task_id}` (chaining). */
import { Hono } from 'hono';
import type { AppEnv } from '../app-env';
import { config } from '../../service/env';
import { ApiError, invalid } from '../../lib/errors';
import { MIME_OF, detectKind, isEncryptedOfficePackage } from '../../lib/detect';
import { describeUnaccepted } from '../../lib/unaccepted';
import { cleanFilename } from '../../lib/names';
import { boundaryOf, boundaryProblem, parseMultipart, readBody } from '../../lib/multipart';
import { streamOf } from '../../contracts/rpc';
import type { Env } from '../../service/env';
import { maxUploadBytes, PLAN_MAX_UPLOAD_MB } from '../../service/storage/accounts';
import { storeFile, uploadRecord } from '../../service/storage/files';
import { ownTask } from './tasks';

const ACCEPTED = 'PDF, DOC, DOCX, XLS, XLSX, ODS, PPTX, ODP, HTML, JPG, PNG or WEBP';
/** Multipart framing around the file: a body larger than limit + this is refused before it is read. */
const MULTIPART_SLACK = 1_000_000;

/**
 * A PDF's page count and encryption, read by the inspect Worker (MuPDF runs there, not here). An
 * inspector that does not answer leaves them unknown, as for a file it could not read: the task
 * that opens the file tells then.
 */
async function inspectUpload(env: Env, bytes: Uint8Array): Promise<{ pages: number | null; encrypted: boolean }> {
  try {
    return await env.PDF_INSPECTOR.inspect(streamOf(bytes));
  } catch (err) {
    console.error(JSON.stringify({ event: 'inspect_failed', error: String(err) }));
    return { pages: null, encrypted: false };
  }
}

function tooLarge(plan: keyof typeof PLAN_MAX_UPLOAD_MB): ApiError {
  return new ApiError('payload_too_large', `The file is larger than the ${PLAN_MAX_UPLOAD_MB[plan]} MB limit of the ${plan} plan: compress or split it, or move to a plan with a higher limit.`);
}

export function uploadRoutes() {
  const routes = new Hono<AppEnv>();

  routes.post('/upload', async (c) => {
    const account = c.get('account');
    const limit = maxUploadBytes(account.plan);
    const declared = c.req.header('content-length') ? Number(c.req.header('content-length')) : null;
    if (declared !== null && declared > limit + MULTIPART_SLACK) throw tooLarge(account.plan);
    const boundary = /^multipart\/form-data/i.test(c.req.header('content-type') ?? '') ? boundaryOf(c.req.header('content-type')!) : null;
    if (!boundary) throw invalid('file', 'send the file as multipart/form-data in a field named "file"');
    // Refused before the body is read: a long boundary would only make the search dearer.
    const problem = boundaryProblem(boundary);
    if (problem) throw invalid('file', `${problem}: send the file as multipart/form-data with a shorter boundary (every HTTP client's default is)`);
    const body = await readBody(c.req.raw.body, declared, limit + MULTIPART_SLACK);
    if (!body) throw tooLarge(account.plan);
    let parts;
    try {
      parts = parseMultipart(body, boundary);
    } catch (err) {
      throw invalid('file', `the multipart body could not be read (${(err as Error).message}): send the file as multipart/form-data in a field named "file"`);
    }
    const file = parts.find((p) => p.name === 'file' && p.filename !== null) ?? parts.find((p) => p.name === 'file');
    if (!file) throw invalid('file', 'the multipart field "file" with the file is missing');
    if (file.data.length > limit) throw tooLarge(account.plan);
    if (file.data.length === 0) throw invalid('file', 'the file is empty');

    const bytes = file.data;
    const kind = detectKind(bytes);
    if (!kind && isEncryptedOfficePackage(bytes)) {
      throw invalid('file', 'the file is a password-protected Office document (DOCX, XLSX or PPTX): remove the password in Word, Excel or PowerPoint (File → Info → Protect → Encrypt with Password, clear the field), save it and upload it again');
    }
    if (!kind) {
      const what = describeUnaccepted(bytes);
      if (what) throw invalid('file', `the file is ${what} (told from its content, not its name); accepted: ${ACCEPTED}`);
      throw invalid('file', `the file type is not supported (detected from its content): upload ${ACCEPTED}`);
    }
    const { pages, encrypted } = kind === 'pdf' ? await inspectUpload(c.env, bytes) : { pages: null, encrypted: false };
    const stored = await storeFile(
      c.env,
      { accountId: account.id, filename: cleanFilename(file.filename), kind, contentType: MIME_OF[kind], pages, encrypted },
      bytes,
      bytes.length,
      config(c.env).fileTtlSeconds,
    );
    return c.json(uploadRecord(stored), 201);
  });

  routes.post('/upload/from-task/:task_id', async (c) => {
    const account = c.get('account');
    const { stub } = await ownTask(c, c.req.param('task_id'));
    const source = await stub.chainSource();
    if (!source) throw new ApiError('not_found', 'No such task.');
    if (source.status !== 'done' && source.status !== 'failed') {
      throw new ApiError('task_not_finished', `The task is ${source.status}: chain its result once it is done (poll GET /v1/tasks/{task_id}?wait=60).`);
    }
    if (source.status === 'failed') throw invalid('task_id', 'the task failed and has no result to chain');
    if (!source.result || !source.available) throw new ApiError('result_deleted', 'The result of this task was deleted (expired or downloaded on the free plan): run the operation again.');
    if (source.result.content_type !== MIME_OF.pdf) {
      throw invalid('task_id', `the result is ${source.result.filename} (${source.result.content_type}), not a PDF: only PDF results can be chained`);
    }
    if (source.result.size > maxUploadBytes(account.plan)) throw tooLarge(account.plan);
    const object = await c.env.FILES.get(source.result.r2_key);
    if (!object) throw new ApiError('result_deleted', 'The result of this task was deleted: run the operation again.');
    const bytes = new Uint8Array(await object.arrayBuffer());
    const { pages, encrypted } = await inspectUpload(c.env, bytes);
    const stored = await storeFile(
      c.env,
      { accountId: account.id, filename: source.result.filename, kind: 'pdf', contentType: MIME_OF.pdf, pages, encrypted, sourceTaskId: c.req.param('task_id') },
      bytes,
      bytes.length,
      config(c.env).fileTtlSeconds,
    );
    return c.json(uploadRecord(stored), 201);
  });

  return routes;
}
