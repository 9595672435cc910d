/**
 * The OCR Worker (workers/ocr/wrangler.toml): consumes the `pdf-edge-ocr` queue, a message per page
 * of an OCR task. It reads the page the task drew into its scratch space (`ocr-page-<n>.png`),
 * recognises it with Tesseract, leaves the words beside it (`ocr-words-<n>.json`) and tells the
 * task's object, which sends the step that writes the text layer once every page is in
 * (src/operations/ocr.ts). Tesseract lives only here: the API Worker loads none of it, and this
 * Worker loads no MuPDF. A message that keeps failing goes, after its retries, to the dead-letter
 * queue, whose consumer (the API Worker) fails the task naming the page, with a refund.
 */
import { z } from 'zod';
import type { TaskObject } from '../tasks/task-object';
import { OCR_LANGUAGES, recognize, tesseractHeapBytes, type OcrLanguage } from './tesseract';
import { retireGrownEngines, withEngineRetry } from '../engines/health';
import { BETTER_BY, CONFIDENT, MIN_TURNED_SIDE, TURNS, greyPngSamples, readingConfidence, runsVertically, turnedPgm, type PageReading } from './orientation';

export interface OcrEnv {
  FILES: R2Bucket;
  TASK: DurableObjectNamespace<TaskObject>;
}

const PageMessage = z.object({
  task_id: z.string().min(1).max(100),
  step: z.number().int().min(0),
  part: z.number().int().min(1),
  languages: z.array(z.enum(OCR_LANGUAGES)).min(1).max(4),
});

const scratchKey = (taskId: string, name: string) => `scratch/${taskId}/${name}`;

export async function recognisePage(env: OcrEnv, body: unknown): Promise<void> {
  const message = PageMessage.parse(body);
  const { task_id: taskId, step, part: page } = message;
  const task = env.TASK.get(env.TASK.idFromName(taskId));
  if (!(await task.partDue(step, page))) return; // a duplicate, or the task ended
  const object = await env.FILES.get(scratchKey(taskId, `ocr-page-${page}.png`));
  if (!object) throw new Error(`page ${page} of ${taskId} is missing from scratch`);
  const startedAt = Date.now();
  const read = await readUpright(new Uint8Array(await object.arrayBuffer()), message.languages);
  await env.FILES.put(scratchKey(taskId, `ocr-words-${page}.json`), JSON.stringify(read));
  console.log(JSON.stringify({ event: 'ocr_page', task_id: taskId, page, words: read.words.length, turn: read.turn, ms: Date.now() - startedAt, wasm_heap_bytes: tesseractHeapBytes() }));
  await task.partDone(step, page);
}

/**
 * The page read as it is, or, when Tesseract is unsure of it, turned the way it reads best (a page
 * scanned sideways or upside down). The words' boxes are in the turned picture's pixels.
 */
async function readUpright(png: Uint8Array, languages: readonly OcrLanguage[]): Promise<PageReading> {
  const asIs: PageReading = { turn: 0, words: await recognize(png, languages) };
  // Tesseract reads sideways lines too, but gives no direction with them: such a page is read
  // again turned a quarter, so that every box the text layer gets is a horizontal one.
  const upright = !runsVertically(asIs.words);
  const asIsConfidence = readingConfidence(asIs.words);
  if (upright && asIsConfidence >= CONFIDENT) return asIs; // (sideways text can also read as no words at all)
  const { width, height, samples } = greyPngSamples(png);
  // A strip of one line or two is no page to turn: too little text to tell, and turned it reads as nothing.
  if (Math.min(width, height) < MIN_TURNED_SIDE) return asIs;
  // A turned reading must be confident and clearly better: a hard page (Fraktur, a faint line)
  // also reads poorly as it is, and some turned garbage reads a little better than that.
  let [best, confidence] = [asIs, upright ? Math.max(CONFIDENT, asIsConfidence + BETTER_BY) : 0];
  for (const turn of upright ? TURNS : ([90, 270] as const)) {
    const words = await recognize(turnedPgm(width, height, samples, turn), languages);
    const c = readingConfidence(words);
    if (c > confidence) [best, confidence] = [{ turn, words }, c];
    if (confidence >= CONFIDENT + BETTER_BY) break;
  }
  return best;
}

export default {
  async queue(batch: MessageBatch<unknown>, env: OcrEnv): Promise<void> {
    for (const message of batch.messages) {
      try {
        // A trap inside Tesseract replaces it and reads the page once more on a fresh instance.
        await withEngineRetry(
          () => recognisePage(env, message.body),
          (event, fields) => console.error(JSON.stringify({ event, body: message.body, ...fields })),
        );
        message.ack();
      } catch (err) {
        if (err instanceof z.ZodError) {
          console.error(JSON.stringify({ event: 'bad_ocr_message', body: message.body }));
          message.ack();
          continue;
        }
        console.error(JSON.stringify({ event: 'ocr_page_error', body: message.body, attempt: message.attempts, error: String(err) }));
        message.retry({ delaySeconds: Math.min(30, 2 ** message.attempts) });
      } finally {
        // A heap grown past its bound (a large page) is not carried into the next page's reading.
        const retired = retireGrownEngines();
        if (retired.length) console.log(JSON.stringify({ event: 'engines_retired', engines: retired }));
      }
    }
  },
} satisfies ExportedHandler<OcrEnv>;
