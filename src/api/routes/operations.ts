/**
 * `POST /v1/pdf/<operation>` for every registered operation: validate, check the inputs, price,
 * charge atomically, create the task object, enqueue, answer 202 {task_id}.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../app-env';
import { config } from '../../service/env';
import { chargeOperation, refundTask } from '../../service/billing/charge';
import { ApiError, invalidMany, type FieldProblem } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { MIME_OF, type FileKind } from '../../lib/detect';
import { outboundUrlProblem } from '../../lib/outbound-url';
import { idempotency } from '../middleware/idempotency';
import { jsonObjectBody, parseOr422 } from '../../lib/validation';
import { OPERATIONS } from '../../operations';
import type { InputFile, OperationSpec } from '../../operations/define';
import { sizeUnits } from '../../service/billing/pricing';
import { findLiveFiles } from '../../service/storage/files';
import { maxUploadBytes, PLAN_MAX_UPLOAD_MB } from '../../service/storage/accounts';

const FileId = z.string().min(1, 'file_id must not be empty').max(100);

/** The full request schema of an operation: its inputs, `webhook_url` and its own parameters. */
export function requestSchema(op: OperationSpec) {
  const inputs =
    op.inputs.kind === 'file_id'
      ? { file_id: FileId }
      : {
          file_ids: z
            .array(FileId)
            .min(op.inputs.min, `give ${op.inputs.min} to ${op.inputs.max} files`)
            .max(op.inputs.max, `give ${op.inputs.min} to ${op.inputs.max} files`),
        };
  return z.object({ ...inputs, webhook_url: z.string().max(2048).optional() }).and(op.params);
}

export function webhookProblems(url: string | undefined, allowInsecure: boolean): FieldProblem[] {
  if (url === undefined) return [];
  const problem = outboundUrlProblem(url, { allowInsecure });
  return problem ? [{ path: 'webhook_url', message: `webhook_url ${problem}` }] : [];
}

const KIND_NAMES = (kinds: readonly string[]) => kinds.map((k) => k.toUpperCase()).join(', ');

/** The upload records of `ids`, each of a kind in `accepts`; 422 naming `pathOf(i)` for what is unknown or of another kind. */
async function resolveFiles(c: { env: AppEnv['Bindings'] }, accountId: string, accepts: readonly FileKind[], ids: string[], pathOf: (i: number) => string, refuses: OperationSpec['refuses'] = {}): Promise<InputFile[]> {
  const found = await findLiveFiles(c.env.DB, accountId, ids);
  const problems: FieldProblem[] = [];
  const inputs: InputFile[] = [];
  ids.forEach((id, i) => {
    const at = pathOf(i);
    const file = found.get(id);
    if (!file) problems.push({ path: at, message: `file ${id} is unknown or expired: files live one hour after upload; upload it again` });
    else if (refuses[file.kind]) problems.push({ path: at, message: `${file.filename} is ${file.kind.toUpperCase()}: ${refuses[file.kind]}` });
    else if (!accepts.includes(file.kind)) {
      // Word saves web pages under .doc names too ("Web Page" format): say what it is and the way out.
      const webPageAsWord = file.kind === 'html' && accepts.includes('doc') ? ': it is a web page, not a Word document; open it in Word and save it as .docx (Word Document), then upload that' : '';
      problems.push({ path: at, message: `this ${at === 'file_id' || at.startsWith('file_ids') ? 'operation' : 'parameter'} takes ${KIND_NAMES(accepts)}, but ${file.filename} is ${file.kind.toUpperCase()} (${MIME_OF[file.kind]})${webPageAsWord}` });
    } else inputs.push(file);
  });
  if (problems.length) throw invalidMany(problems);
  return inputs;
}

/** The operation's inputs, then the files its parameters name (a watermark's logo), in that order. */
async function resolveInputs(c: { env: AppEnv['Bindings'] }, accountId: string, op: OperationSpec, body: Record<string, unknown>): Promise<InputFile[]> {
  const ids = op.inputs.kind === 'file_id' ? [body['file_id'] as string] : (body['file_ids'] as string[]);
  const inputs = await resolveFiles(c, accountId, op.accepts, ids, (i) => (op.inputs.kind === 'file_id' ? 'file_id' : `file_ids[${i}]`), op.refuses);
  for (const [name, accepts] of Object.entries(op.fileParams ?? {})) {
    const id = body[name];
    if (typeof id === 'string') inputs.push(...(await resolveFiles(c, accountId, accepts, [id], () => name)));
  }
  return inputs;
}

export function operationRoutes() {
  const routes = new Hono<AppEnv>();
  routes.use('/pdf/*', idempotency());
  for (const op of OPERATIONS) {
    const schema = requestSchema(op);
    routes.post(`/pdf/${op.path}`, async (c) => {
      const account = c.get('account');
      const key = c.get('key');
      const cfg = config(c.env);
      const raw = await jsonObjectBody(c);
      const body = parseOr422(schema, raw) as Record<string, unknown> & { file_id?: string; file_ids?: string[]; webhook_url?: string };
      // DECISIONS: extra fields are ignored, and the 202 lists them so that a typo is seen.
      const known = new Set([op.inputs.kind, 'webhook_url', ...Object.keys(op.params.shape)]);
      const ignored = Object.keys(raw).filter((k) => !known.has(k));
      const hook = webhookProblems(body.webhook_url, cfg.allowInsecureUrls);
      if (hook.length) throw invalidMany(hook);

      const inputs = await resolveInputs(c, account.id, op, body);
      const params = op.params.parse(body);
      const problems = op.check?.(inputs, params) ?? [];
      if (problems.length) throw invalidMany(problems);

      const total = inputs.reduce((n, f) => n + f.size, 0);
      if (total > maxUploadBytes(account.plan)) {
        throw new ApiError('payload_too_large', `The inputs add up to ${total} bytes; the ${account.plan} plan allows ${PLAN_MAX_UPLOAD_MB[account.plan]} MB per operation.`);
      }

      const units = op.price ? op.price(inputs, params) : sizeUnits(inputs);
      const taskId = newId('task');
      const charge = await chargeOperation(c.env.DB, account, key, { taskId, operationId: newId('op'), type: op.type, units });
      try {
        await c.env.TASK.get(c.env.TASK.idFromName(taskId)).create({
          task_id: taskId,
          account_id: account.id,
          key_id: key.id,
          plan: account.plan,
          op_path: op.path,
          operation_type: op.type,
          inputs,
          params_json: JSON.stringify(params),
          webhook_url: body.webhook_url ?? null,
          base_url: new URL(c.req.url).origin,
          charge_kopecks: charge.kopecks,
          charge_units: charge.units,
          included: charge.included,
        });
        await (op.engine === 'pdf' ? c.env.TASKS : c.env.CONVERT_TASKS).send({ task_id: taskId });
      } catch (err) {
        await refundTask(c.env.DB, taskId); // accepted nothing: give the money back before answering 500
        throw err;
      }
      return c.json({ task_id: taskId, ...(ignored.length ? { ignored_fields: ignored } : {}) }, 202);
    });
  }
  return routes;
}

