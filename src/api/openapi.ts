/**
 * OpenAPI 3.1 generated from the same zod schemas that validate requests, so the document cannot
 * drift from the behaviour. Operations come from the registry.
 */
import { z } from 'zod';
import { OPERATIONS } from '../operations';
import { requestSchema } from './routes/operations';

const problem = { $ref: '#/components/responses/Problem' };
const json = (schema: object) => ({ content: { 'application/json': { schema } } });
const TaskId = { name: 'task_id', in: 'path', required: true, schema: { type: 'string' } };
const IdempotencyKey = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes the paid request safe to retry: the same key with the same body within 24 hours answers the first response again and charges nothing more; ' +
    'with another body, 422 idempotency_key_reused. Keys are per account; a 4xx answer is not kept.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7e]+$' },
};

const UploadRecord = {
  type: 'object',
  required: ['file_id', 'filename', 'size', 'content_type', 'pages', 'expires_at'],
  properties: {
    file_id: { type: 'string' },
    filename: { type: 'string' },
    size: { type: 'integer' },
    content_type: { type: 'string' },
    pages: { type: ['integer', 'null'] },
    expires_at: { type: 'string', format: 'date-time' },
  },
};

const TaskRecord = {
  type: 'object',
  properties: {
    task_id: { type: 'string' },
    operation_type: { type: 'string' },
    status: { type: 'string', enum: ['queued', 'processing', 'done', 'failed'] },
    created_at: { type: 'string', format: 'date-time' },
    started_at: { type: ['string', 'null'], format: 'date-time' },
    finished_at: { type: ['string', 'null'], format: 'date-time' },
    progress: { type: 'object', properties: { done: { type: 'integer' }, total: { type: 'integer' } } },
    charge: { type: 'string' },
    charge_units: { type: 'integer' },
    included: { type: 'boolean' },
    refunded: { type: 'boolean' },
    filename: { type: ['string', 'null'] },
    content_type: { type: ['string', 'null'] },
    size: { type: ['integer', 'null'] },
    download_url: { type: ['string', 'null'] },
    result_expires_at: { type: ['string', 'null'], format: 'date-time' },
    result_available: { type: 'boolean' },
    error_message: { type: ['string', 'null'] },
  },
};

/** The RFC 9457 problem body every error response carries (components.responses.Problem). */
const PROBLEM_RESPONSE = {
  description: 'RFC 9457 problem',
  content: {
    'application/problem+json': {
      schema: {
        type: 'object',
        properties: {
          type: { type: 'string' },
          title: { type: 'string' },
          status: { type: 'integer' },
          code: { type: 'string' },
          detail: { type: 'string' },
          errors: { type: 'array', items: { type: 'object', properties: { path: { type: 'string' }, message: { type: 'string' } } } },
        },
      },
    },
  },
};

/** The paths of the service itself (uploads, tasks, downloads, account): the operations' own follow, from the registry. */
function servicePaths(): Record<string, object> {
  return {
    '/v1/upload': {
      post: {
        operationId: 'upload',
        summary: 'Upload a file (multipart field "file"); the type is detected from the bytes',
        requestBody: { content: { 'multipart/form-data': { schema: { type: 'object', required: ['file'], properties: { file: { type: 'string', format: 'binary' } } } } } },
        responses: { 201: { description: 'Upload record', ...json(UploadRecord) }, 401: problem, 413: problem, 422: problem, 429: problem },
      },
    },
    '/v1/upload/from-task/{task_id}': {
      post: {
        operationId: 'uploadFromTask',
        summary: "Chain a task's PDF result as a new file without downloading it",
        parameters: [TaskId],
        responses: { 201: { description: 'Upload record', ...json(UploadRecord) }, 404: problem, 409: problem, 410: problem, 422: problem },
      },
    },
    '/v1/tasks/{task_id}': {
      get: {
        operationId: 'getTask',
        summary: 'Task status; ?wait=N (up to 60) answers when the task ends or after N seconds',
        parameters: [TaskId, { name: 'wait', in: 'query', schema: { type: 'integer', minimum: 0, maximum: 60 } }],
        responses: { 200: { description: 'Task status record', ...json(TaskRecord) }, 401: problem, 404: problem, 422: problem },
      },
    },
    '/v1/tasks/{task_id}/result': {
      get: {
        operationId: 'getTaskResult',
        summary: 'Download the result with a key',
        parameters: [TaskId],
        responses: { 200: { description: 'The result bytes' }, 404: problem, 409: problem, 410: problem },
      },
    },
    '/v1/download/{token}': {
      get: {
        operationId: 'download',
        summary: 'Download the result by its signed download_url (no key, valid one hour)',
        security: [],
        parameters: [{ name: 'token', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { 200: { description: 'The result bytes' }, 404: problem, 410: problem },
      },
    },
    '/v1/pricing/api': { get: { operationId: 'getPricing', summary: 'Price list with page_rates', responses: { 200: { description: 'Price list' }, 401: problem } } },
    '/v1/api-keys/balance': { get: { operationId: 'getBalance', summary: 'Balance record of the account', responses: { 200: { description: 'Balance record' }, 401: problem } } },
    '/v1/account/operations': {
      get: {
        operationId: 'listOperations',
        summary: 'Operations history',
        parameters: [
          { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100 } },
          { name: 'cursor', in: 'query', schema: { type: 'string' } },
          { name: 'type', in: 'query', schema: { type: 'string' } },
        ],
        responses: { 200: { description: 'History page' }, 401: problem, 422: problem },
      },
    },
    '/v1/account/statistics': {
      get: {
        operationId: 'getStatistics',
        summary: 'Per-type statistics of operations in a period (default: this calendar month, UTC)',
        parameters: [
          { name: 'from', in: 'query', schema: { type: 'string', format: 'date-time' } },
          { name: 'to', in: 'query', schema: { type: 'string', format: 'date-time' } },
        ],
        responses: { 200: { description: 'Counts and net charges per operation type' }, 401: problem, 422: problem },
      },
    },
  };
}

/** One POST path per operation in the registry, its body schema from the zod schema that validates it. */
function operationPaths() {
  const paths: Record<string, object> = {};
  for (const op of OPERATIONS) {
    paths[`/v1/pdf/${op.path}`] = {
      post: {
        operationId: op.type,
        summary: op.summary,
        tags: ['operations'],
        parameters: [IdempotencyKey],
        requestBody: { required: true, ...json(z.toJSONSchema(requestSchema(op), { io: 'input', unrepresentable: 'any' })) },
        responses: {
          202: {
            description: 'Accepted and paid; the task is queued. A replay of an Idempotency-Key answers the first 202 again with `Idempotent-Replayed: true`.',
            headers: { 'Idempotent-Replayed': { description: 'true when this is the stored answer to an earlier request with the same Idempotency-Key', schema: { type: 'string', enum: ['true'] } } },
            ...json({ type: 'object', required: ['task_id'], properties: { task_id: { type: 'string' }, ignored_fields: { type: 'array', items: { type: 'string' }, description: 'body fields this operation does not take, ignored (absent when none was)' } } }),
          },
          401: problem,
          402: problem,
          409: { ...problem, description: 'idempotency_key_in_use: the first request with this key is still being answered' },
          413: problem,
          422: problem,
          429: problem,
        },
      },
    };
  }
  return paths;
}

let cached: Record<string, unknown> | undefined;

/** The document, its `servers` naming the origin it is served from. */
export function openApiDocument(origin: string): object {
  cached ??= {
    openapi: '3.1.0',
    info: {
      title: 'pdf-edge',
      version: '1.0.0',
      description: 'Asynchronous PDF conversion and editing. Upload a file, start an operation, poll the task or receive a webhook, download the result.',
      // The service's API is not open source; an SPDX LicenseRef names its own terms.
      license: { name: 'Proprietary (terms of service of the operator)', identifier: 'LicenseRef-pdf-edge-terms' },
    },
    components: {
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        bearer: { type: 'http', scheme: 'bearer' },
      },
      responses: { Problem: PROBLEM_RESPONSE },
    },
    security: [{ apiKey: [] }, { bearer: [] }],
    paths: { ...servicePaths(), ...operationPaths() },
  };
  return { ...cached, servers: [{ url: origin, description: 'this service' }] };
}

const DOCS_STYLE = `
body{font:15px/1.5 system-ui,sans-serif;max-width:960px;margin:2rem auto;padding:0 1rem;color:#222}
h1{margin-bottom:0}.op{border:1px solid #ddd;border-radius:6px;margin:1rem 0;padding:.5rem 1rem}
.m{display:inline-block;min-width:4rem;font-weight:700;text-transform:uppercase}.post{color:#2a7}.get{color:#27a}.delete{color:#a22}
code,pre{background:#f5f5f5;border-radius:4px;padding:.1rem .3rem}pre{padding:.6rem;overflow:auto;font-size:13px}
`;

const DOCS_SCRIPT = `
fetch('/v1/openapi.json').then(r=>r.json()).then(doc=>{
  document.getElementById('intro').innerHTML=doc.info.description+' Version '+doc.info.version+'. Send the key as <code>X-API-Key</code> or <code>Authorization: Bearer</code>.';
  const root=document.getElementById('ops');
  for(const [path,methods] of Object.entries(doc.paths)){
    for(const [method,op] of Object.entries(methods)){
      const el=document.createElement('div');el.className='op';
      const body=op.requestBody&&op.requestBody.content&&(op.requestBody.content['application/json']||op.requestBody.content['multipart/form-data']);
      el.innerHTML='<div><span class="m '+method+'">'+method+'</span> <code>'+path+'</code></div><p>'+(op.summary||'')+'</p>'
        +(body?'<details><summary>Request body</summary><pre>'+JSON.stringify(body.schema,null,2).replace(/</g,'&lt;')+'</pre></details>':'')
        +'<p>Responses: '+Object.keys(op.responses||{}).join(', ')+'</p>';
      root.appendChild(el);
    }
  }
});
`;

/** A self-contained page that renders the document (no external scripts: the service loads nothing from elsewhere). */
export const DOCS_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>pdf-edge API</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>${DOCS_STYLE}</style></head><body>
<h1>pdf-edge API</h1><p id="intro">Loading <a href="/v1/openapi.json">/v1/openapi.json</a>…</p><div id="ops"></div>
<script>${DOCS_SCRIPT}</script></body></html>`;

/** /docs' CSP: its own inline script and style (by hash), its fetch of /v1/openapi.json, nothing else. */
export const DOCS_PAGE_POLICY = { scripts: [DOCS_SCRIPT], styles: [DOCS_STYLE], connectSelf: true };
