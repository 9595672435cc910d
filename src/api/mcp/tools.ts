/**
 * The MCP tools, derived from the operation registry: one per operation, named by its type, its
 * input schema the operation's own zod schema (descriptions, enums, defaults, bounds) with links
 * in place of file ids, plus get_task, get_balance and get_pricing. An operation added to the
 * registry is a tool with no code here.
 */
import { z } from 'zod';
import { OPERATIONS } from '../../operations';
import type { OperationSpec } from '../../operations/define';
import { PAGE_RATES } from '../../service/billing/pricing';
import { PLAN_MAX_UPLOAD_MB } from '../../service/storage/accounts';
import { FETCH_TIMEOUT_MS, MAX_REDIRECTS } from './file-url';

export interface ToolDef {
  name: string;
  description: string;
  inputSchema: { type: 'object'; properties: Record<string, unknown>; required?: string[] };
}

export const WAIT_SECONDS_DEFAULT = 60;
export const WAIT_SECONDS_MAX = 120;

/** `image_file_id` → `image_url`: every id parameter an operation takes becomes a link. */
export const urlFieldOf = (idField: string): string => idField.replace(/_file_id$/, '_url');

const KIND_NAMES: Record<string, string> = { pdf: 'PDF', doc: 'DOC', docx: 'DOCX', xls: 'XLS', xlsx: 'XLSX', ods: 'ODS', ppt: 'PPT', pptx: 'PPTX', odp: 'ODP', html: 'HTML', jpg: 'JPG', png: 'PNG', webp: 'WEBP' };

function linkRules(): string {
  return (
    `Links must be public https:// URLs of the file itself (no login page); the service fetches them (at most ${MAX_REDIRECTS} redirects, ` +
    `${FETCH_TIMEOUT_MS / 1000} s, up to ${PLAN_MAX_UPLOAD_MB.standard} MB per file on paid plans, ${PLAN_MAX_UPLOAD_MB.free} MB on the free plan) and tells the type from the bytes.`
  );
}

function priceRule(op: OperationSpec): string {
  const rate = (PAGE_RATES as Record<string, number>)[op.type];
  const size = op.inputs.kind === 'file_ids' ? 'every started 10 MB of the files together' : 'every started 10 MB of the file';
  return `Price: 1.25 RUB for ${size}${rate ? `, or per started ${rate} pages if that is more` : ''}, from the account balance (refunded if the task fails).`;
}

function operationTool(op: OperationSpec): ToolDef {
  const params = z.toJSONSchema(op.params, { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, Record<string, unknown>>; required?: string[] };
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  const accepts = op.accepts.map((k) => KIND_NAMES[k] ?? k.toUpperCase()).join(', ');
  if (op.inputs.kind === 'file_id') {
    properties['file_url'] = { type: 'string', format: 'uri', description: `Public https:// link to the input file (${accepts}).` };
    required.push('file_url');
  } else {
    properties['file_urls'] = {
      type: 'array',
      items: { type: 'string', format: 'uri' },
      minItems: op.inputs.min,
      maxItems: op.inputs.max,
      description: `Public https:// links to the ${op.inputs.min} to ${op.inputs.max} input files (${accepts}), in order.`,
    };
    required.push('file_urls');
  }
  for (const [key, schema] of Object.entries(params.properties ?? {})) {
    if (key.endsWith('_file_id')) properties[urlFieldOf(key)] = { type: 'string', format: 'uri', description: 'Public https:// link to the file.' };
    else properties[key] = schema;
  }
  for (const key of params.required ?? []) if (!required.includes(urlFieldOf(key))) required.push(urlFieldOf(key));
  properties['wait_seconds'] = {
    type: 'integer',
    minimum: 0,
    maximum: WAIT_SECONDS_MAX,
    default: WAIT_SECONDS_DEFAULT,
    description: 'How long to wait for the task to end before returning its record (call get_task later if it is still running).',
  };
  properties['webhook_url'] = { type: 'string', format: 'uri', description: 'Optional https:// address that receives a signed POST when the task ends.' };
  return {
    name: op.type,
    description:
      `${op.summary}. Input: ${accepts}. ${linkRules()} ${priceRule(op)} ` +
      'Returns the task status record as JSON: status ("done" or "failed", or "queued"/"processing" if still running after wait_seconds), ' +
      'download_url of the result once done (valid one hour), error_message if it failed.',
    inputSchema: { type: 'object', properties, required },
  };
}

export const ACCOUNT_TOOLS: ToolDef[] = [
  {
    name: 'get_task',
    description: 'The status record of a task started by an operation tool: status, progress, charge, download_url once done, error_message if it failed. wait_seconds (0 to 60) waits for it to end first.',
    inputSchema: { type: 'object', properties: { task_id: { type: 'string', description: 'task_id from an operation tool' }, wait_seconds: { type: 'integer', minimum: 0, maximum: 60, default: 0 } }, required: ['task_id'] },
  },
  {
    name: 'get_balance',
    description: "The account's balance in RUB, spent this month, the price of one unit, and the business plan's included requests.",
    inputSchema: { type: 'object', properties: {} },
  },
  {
    name: 'get_pricing',
    description: 'The price list: RUB per 10 MB unit, the page rates of page-priced operations, each operation’s unit and the plans’ upload limits.',
    inputSchema: { type: 'object', properties: {} },
  },
];

let cached: ToolDef[] | undefined;
export const allTools = (): ToolDef[] => (cached ??= [...OPERATIONS.map(operationTool), ...ACCOUNT_TOOLS]);
export const operationByType = new Map(OPERATIONS.map((op) => [op.type, op]));
