/**
 * The OCR queue's consumer (the API Worker): a message per page of an OCR task. It reads the page
 * the task drew into its scratch space (`ocr-page-<n>.png`), has the OCR Worker read it (Tesseract
 * runs there only, src/workers/ocr.ts), leaves the words beside it (`ocr-words-<n>.json`) and tells
 * the task's object, which sends the step that writes the text layer once every page is in
 * (src/operations/ocr.ts). A message that keeps failing goes, after its retries, to the
 * dead-letter queue, whose consumer fails the task naming the page, with a refund.
 */
import { z } from 'zod';
import type { TaskObject } from './task-object';
import type { OcrReading } from '../../contracts/rpc';
import { OCR_LANGUAGES } from '../../ocr/languages';
import { scratchKey } from './scratch';

export interface OcrEnv {
  FILES: R2Bucket;
  TASK: DurableObjectNamespace<TaskObject>;
  OCR_ENGINE: OcrReading;
}

export const PageMessage = z.object({
  task_id: z.string().min(1).max(100),
  step: z.number().int().min(0),
  part: z.number().int().min(1),
  languages: z.array(z.enum(OCR_LANGUAGES)).min(1).max(4),
});

export async function recognisePage(env: OcrEnv, body: unknown): Promise<void> {
  const message = PageMessage.parse(body);
  const { task_id: taskId, step, part: page } = message;
  const task = env.TASK.get(env.TASK.idFromName(taskId));
  if (!(await task.partDue(step, page))) return; // a duplicate, or the task ended
  const object = await env.FILES.get(scratchKey(taskId, `ocr-page-${page}.png`));
  if (!object) throw new Error(`page ${page} of ${taskId} is missing from scratch`);
  const startedAt = Date.now();
  const read = await env.OCR_ENGINE.read(object.body, message.languages);
  await env.FILES.put(scratchKey(taskId, `ocr-words-${page}.json`), JSON.stringify(read));
  console.log(JSON.stringify({ event: 'ocr_page', task_id: taskId, page, words: read.words.length, turn: read.turn, ms: Date.now() - startedAt, wasm_heap_bytes: read.wasm_heap_bytes }));
  await task.partDone(step, page);
}

export async function handleOcrQueue(batch: MessageBatch<unknown>, env: OcrEnv): Promise<void> {
  for (const message of batch.messages) {
    try {
      await recognisePage(env, message.body);
      message.ack();
    } catch (err) {
      if (err instanceof z.ZodError) {
        console.error(JSON.stringify({ event: 'bad_ocr_message', body: message.body }));
        message.ack();
        continue;
      }
      console.error(JSON.stringify({ event: 'ocr_page_error', body: message.body, attempt: message.attempts, error: String(err) }));
      message.retry({ delaySeconds: Math.min(30, 2 ** message.attempts) });
    }
  }
}
