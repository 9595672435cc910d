/**
 * The OCR Worker (workers/ocr/wrangler.toml): Tesseract in WASM with the four bundled language
 * models, behind one RPC method, `read`: a page's PNG in, its words out, read the way up it reads
 * best. It has no bindings: the API Worker's OCR queue consumer (src/service/tasks/ocr-pages.ts) fetches the page
 * from the task's scratch space and stores the words. A trap inside Tesseract replaces it and reads
 * the page once more on a fresh instance; a heap grown past its bound is not carried to the next page.
 */
import { WorkerEntrypoint } from 'cloudflare:workers';
import { tesseractHeapBytes, type OcrLanguage } from '../ocr/tesseract';
import { MAX_PAGE_PNG_BYTES, readUpright } from '../ocr/read-upright';
import { retireGrownEngines, withEngineRetry } from '../lib/engine-health';
import { readAll, type OcrReading } from '../contracts/rpc';
import { OCR_LANGUAGES } from '../ocr/languages';
import type { PageReading } from '../ocr/orientation';

export class OcrEngine extends WorkerEntrypoint implements OcrReading {
  async read(body: ReadableStream<Uint8Array>, languages: string[]): Promise<PageReading & { wasm_heap_bytes: number }> {
    const wanted = languages.filter((l): l is OcrLanguage => (OCR_LANGUAGES as readonly string[]).includes(l));
    if (!wanted.length) throw new Error(`no language of ${languages.join(', ')} is bundled`);
    const png = await readAll(body, MAX_PAGE_PNG_BYTES);
    try {
      const read = await withEngineRetry(
        () => readUpright(png, wanted),
        (event, fields) => console.error(JSON.stringify({ event, ...fields })),
      );
      return { ...read, wasm_heap_bytes: tesseractHeapBytes() };
    } finally {
      const retired = retireGrownEngines();
      if (retired.length) console.log(JSON.stringify({ event: 'engines_retired', engines: retired }));
    }
  }
}

export default {
  fetch: () => new Response('The OCR Worker answers its RPC binding only.', { status: 404 }),
} satisfies ExportedHandler;
