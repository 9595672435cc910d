/**
 * `POST /mcp` (DECISIONS: MCP): Streamable HTTP, stateless, JSON responses, behind the same key
 * check as the API. A fresh MCP server and transport per request (@modelcontextprotocol/sdk's
 * low-level Server: the tools' JSON schemas are ours, from the registry, tools.ts).
 *
 * A tool call is the HTTP API called from inside, with the caller's own key: the link is fetched
 * (file-url.ts) and uploaded through `POST /v1/upload`, the operation started through
 * `POST /v1/pdf/<op>`, its task awaited through `GET /v1/tasks/{id}?wait=`. So validation,
 * prices, key limits, history and refunds are the API's own, and an error says what the API
 * would say, as an `isError` result an agent can read, never a protocol error.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/cfworker';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ApiError } from '../../lib/errors';
import { parseOr422 } from '../../lib/validation';
import type { OperationSpec } from '../../operations/define';
import { maxUploadBytes, type Plan } from '../../service/storage/accounts';
import { fetchFileUrl, FileUrlError } from './file-url';
import { allTools, operationByType, urlFieldOf, WAIT_SECONDS_DEFAULT, WAIT_SECONDS_MAX } from './tools';

/** The API, called from inside with the caller's key headers. */
export type ApiCall = (path: string, init?: RequestInit) => Promise<Response>;

export interface McpContext {
  api: ApiCall;
  plan: Plan;
  allowInsecureUrls: boolean;
}

export async function handleMcp(request: Request, ctx: McpContext): Promise<Response> {
  const server = new Server({ name: 'pdf-edge', version: '1.0.0' }, { capabilities: { tools: {} }, jsonSchemaValidator: new CfWorkerJsonSchemaValidator() });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: allTools() }));
  server.setRequestHandler(CallToolRequestSchema, async (req) => callTool(req.params.name, (req.params.arguments ?? {}) as Record<string, unknown>, ctx));
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    return await transport.handleRequest(acceptingJson(request));
  } finally {
    await server.close();
  }
}

/** The SDK answers 406 unless Accept names both JSON and event streams; JSON-only clients are common, and JSON is what we send. */
function acceptingJson(request: Request): Request {
  const accept = request.headers.get('accept') ?? '';
  if (/application\/json/.test(accept) && /text\/event-stream/.test(accept)) return request;
  const headers = new Headers(request.headers);
  headers.set('accept', 'application/json, text/event-stream');
  return new Request(request, { headers });
}

async function callTool(name: string, args: Record<string, unknown>, ctx: McpContext): Promise<CallToolResult> {
  try {
    if (name === 'get_balance') return json(await apiJson(ctx, '/v1/api-keys/balance'));
    if (name === 'get_pricing') return json(await apiJson(ctx, '/v1/pricing/api'));
    if (name === 'get_task') return json(await getTask(ctx, args));
    const op = operationByType.get(name);
    if (!op) return error(`There is no tool named ${name}: call tools/list for the tools this service has.`);
    const record = (await runOperation(op, args, ctx)) as { status?: string; error_message?: string | null };
    // A failed task is an error the agent should see as one; its record (refunded: true) comes with it.
    if (record.status === 'failed') return { content: [{ type: 'text', text: `The task failed: ${record.error_message}` }, { type: 'text', text: JSON.stringify(record) }], isError: true };
    return json(record);
  } catch (err) {
    if (err instanceof ToolError || err instanceof FileUrlError) return error(err.message);
    if (err instanceof ApiError) return error(problemText(err.detail, err.errors));
    // Never a protocol error for a tool's failure: the agent reads a result, the log gets the cause.
    console.error(JSON.stringify({ event: 'mcp_tool_error', tool: name, error: String(err), stack: (err as Error)?.stack }));
    return error(`The ${name} tool failed on our side; nothing was charged for what did not start. Try again in a moment.`);
  }
}

class ToolError extends Error {}

async function getTask(ctx: McpContext, args: Record<string, unknown>): Promise<unknown> {
  const id = args['task_id'];
  if (typeof id !== 'string' || !id) throw new ToolError('task_id is required: the task_id an operation tool returned.');
  const wait = Math.min(60, Math.max(0, Number(args['wait_seconds'] ?? 0) || 0));
  return apiJson(ctx, `/v1/tasks/${encodeURIComponent(id)}?wait=${wait}`);
}

/** Links fetched and uploaded, the operation started and awaited: the task status record. */
async function runOperation(op: OperationSpec, args: Record<string, unknown>, ctx: McpContext): Promise<unknown> {
  const { wait_seconds: waitArg, ...rest } = args;
  const wait = waitArg === undefined ? WAIT_SECONDS_DEFAULT : Number(waitArg);
  if (!Number.isInteger(wait) || wait < 0 || wait > WAIT_SECONDS_MAX) throw new ToolError(`wait_seconds must be a whole number between 0 and ${WAIT_SECONDS_MAX}.`);

  // The operation's own parameters first: a wrong angle costs no download. A link that stands for
  // one of them (image_url for image_file_id) is checked as that parameter would be, by a stand-in
  // id, so that "exactly one of text and image_url" is decided before anything is fetched.
  const links = linkFields(op);
  const params = Object.fromEntries(Object.entries(rest).filter(([k]) => !links.some((l) => l.urlField === k)));
  const standIns = Object.fromEntries(links.filter((l) => l.idField in op.params.shape && rest[l.urlField] !== undefined).map((l) => [l.idField, 'file_from_link']));
  try {
    parseOr422(op.params, { ...params, ...standIns });
  } catch (err) {
    if (err instanceof ApiError) throw new ToolError(problemText(agentWords(err.detail, links), renamePaths(err.errors, links)));
    throw err;
  }

  const body: Record<string, unknown> = { ...params };
  for (const link of links) {
    const value = rest[link.urlField];
    if (link.many) {
      if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) throw new ToolError(`${link.urlField} must be a list of https:// links to the files.`);
      const ids: string[] = [];
      for (const [i, url] of (value as string[]).entries()) ids.push(await uploadLink(ctx, url, `${link.urlField}[${i}]`));
      body[link.idField] = ids;
    } else if (value !== undefined) {
      if (typeof value !== 'string') throw new ToolError(`${link.urlField} must be an https:// link to the file.`);
      body[link.idField] = await uploadLink(ctx, value, link.urlField);
    } else if (link.required) throw new ToolError(`${link.urlField} is required: a public https:// link to the input file.`);
  }

  const started = await ctx.api(`/v1/pdf/${op.path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const answer = await started.json<{ task_id?: string; detail?: string; errors?: { path: string; message: string }[] }>();
  if (!started.ok || !answer.task_id) throw new ToolError(problemText(agentWords(answer.detail ?? `HTTP ${started.status}`, links), renamePaths(answer.errors, links)));

  const deadline = Date.now() + wait * 1000;
  for (;;) {
    const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
    const rec = (await apiJson(ctx, `/v1/tasks/${answer.task_id}?wait=${Math.min(60, left)}`)) as { status: string };
    if (rec.status === 'done' || rec.status === 'failed' || left === 0) return rec;
  }
}

interface LinkField {
  urlField: string;
  idField: string;
  many: boolean;
  required: boolean;
}

/** The link parameters of an operation's tool and the id parameters they stand for. */
function linkFields(op: OperationSpec): LinkField[] {
  const out: LinkField[] = op.inputs.kind === 'file_id' ? [{ urlField: 'file_url', idField: 'file_id', many: false, required: true }] : [{ urlField: 'file_urls', idField: 'file_ids', many: true, required: true }];
  for (const key of Object.keys(op.params.shape)) if (key.endsWith('_file_id')) out.push({ urlField: urlFieldOf(key), idField: key, many: false, required: false });
  return out;
}

async function uploadLink(ctx: McpContext, url: string, field: string): Promise<string> {
  const file = await fetchFileUrl(url, field, maxUploadBytes(ctx.plan), { allowInsecure: ctx.allowInsecureUrls });
  const form = new FormData();
  form.append('file', new Blob([file.bytes]), file.filename);
  const res = await ctx.api('/v1/upload', { method: 'POST', body: form });
  const rec = await res.json<{ file_id?: string; detail?: string; errors?: { path: string; message: string }[] }>();
  if (!res.ok || !rec.file_id) throw new ToolError(`${field}: ${problemText(rec.detail ?? `HTTP ${res.status}`, rec.errors)}`);
  return rec.file_id;
}

async function apiJson(ctx: McpContext, path: string): Promise<unknown> {
  const res = await ctx.api(path);
  const body = await res.json<{ detail?: string; errors?: { path: string; message: string }[] }>();
  if (!res.ok) throw new ToolError(problemText(body.detail ?? `HTTP ${res.status}`, body.errors));
  return body;
}

/** The API's problem in the words it uses: the detail, then each field's message. */
function problemText(detail: string, errors?: { path: string; message: string }[]): string {
  const lines = (errors ?? []).filter((e) => !detail.includes(e.message)).map((e) => `- ${e.path}: ${e.message}`);
  return [detail, ...lines].join('\n');
}

/** A message in the words of the tool's parameters: image_file_id → image_url (file_id stays: the API's own term). */
function agentWords(text: string, links: LinkField[]): string {
  return links.filter((l) => l.idField.endsWith('_file_id')).reduce((t, l) => t.replaceAll(l.idField, l.urlField), text);
}

/** Field paths as the agent named them: file_id → file_url, file_ids[1] → file_urls[1]. */
function renamePaths(errors: { path: string; message: string }[] | undefined, links: LinkField[]): { path: string; message: string }[] | undefined {
  return errors?.map((e) => {
    const link = links.find((l) => e.path === l.idField || e.path.startsWith(`${l.idField}[`));
    return link ? { path: link.urlField + e.path.slice(link.idField.length), message: e.message.replaceAll(link.idField, link.urlField) } : { path: e.path, message: agentWords(e.message, links) };
  });
}

const json = (value: unknown): CallToolResult => ({ content: [{ type: 'text', text: JSON.stringify(value) }] });
const error = (message: string): CallToolResult => ({ content: [{ type: 'text', text: message }], isError: true });
