/**
 * The inspect Worker (workers/inspect/wrangler.toml): an upload's page count and encryption, read
 * with MuPDF for the upload record. It is its own Worker, not the PDF Worker, so that an upload
 * never waits behind a long task there; it has no bindings. A trap while reading a hostile upload
 * replaces the engine there and then (engines/pdf.ts), so the next upload gets a sound one.
 */
import { WorkerEntrypoint } from 'cloudflare:workers';
import { inspectPdf } from '../pdf/pdf';
import { readAll, type PdfInspection } from '../contracts/rpc';
import { retireGrownEngines } from '../lib/engine-health';

export class PdfInspector extends WorkerEntrypoint implements PdfInspection {
  async inspect(body: ReadableStream<Uint8Array>): Promise<{ pages: number | null; encrypted: boolean }> {
    try {
      return await inspectPdf(await readAll(body));
    } finally {
      retireGrownEngines();
    }
  }
}

export default {
  fetch: () => new Response('The inspect Worker answers its RPC binding only.', { status: 404 }),
} satisfies ExportedHandler;
