/**
 * PDF helpers over MuPDF shared by the page operations: open with the failure taxonomy applied,
 * save, and free. Every MuPDF object created here is destroyed by its caller or by `withPdf`.
 */
import { bytesStream, chunksStream, loadMupdf } from './mupdf';
import { TaskError } from '../contracts/failures';
import { dropAllEngines, isEngineTrap, isOutOfMemory, trappedEngines } from '../lib/engine-health';

type Mupdf = typeof import('mupdf');
export type PDFDocument = InstanceType<Mupdf['PDFDocument']>;

/** Opens PDF bytes, repairing what MuPDF can; encrypted and unreadable files become TaskErrors. */
export async function openPdf(bytes: Uint8Array): Promise<{ mupdf: Mupdf; doc: PDFDocument }> {
  const mupdf = await loadMupdf();
  const stream = bytesStream(mupdf, bytes);
  let doc;
  try {
    doc = mupdf.Document.openDocument(stream, 'application/pdf');
  } catch (err) {
    healthy(err); // a trap is the engine's, not the file's: the task runner replaces the engine
    throw new TaskError({ reason: 'corrupt' });
  } finally {
    stream.destroy();
  }
  const pdf = doc.asPDF();
  if (!pdf) {
    doc.destroy();
    throw new TaskError({ reason: 'corrupt' });
  }
  if (pdf.needsPassword()) {
    pdf.destroy();
    throw new TaskError({ reason: 'encrypted' });
  }
  let pages = 0;
  try {
    pages = pdf.countPages();
  } catch (err) {
    healthy(err);
    // counted as zero below
  }
  // A file repaired into zero pages is damaged, not an empty document: nothing usable came back.
  if (pages === 0) {
    pdf.destroy();
    throw new TaskError({ reason: 'corrupt' });
  }
  return { mupdf, doc: pdf };
}

/** Runs `fn` on an opened document and frees it whatever happens. */
export async function withPdf<T>(bytes: Uint8Array, fn: (doc: PDFDocument, mupdf: Mupdf) => T | Promise<T>): Promise<T> {
  const { mupdf, doc } = await openPdf(bytes);
  try {
    return await fn(doc, mupdf);
  } finally {
    doc.destroy();
  }
}

/** Copies MuPDF's output out of its heap and frees the heap buffer. */
export function saveBytes(doc: PDFDocument, options: string): Uint8Array {
  const buf = doc.saveToBuffer(options);
  try {
    return buf.asUint8Array().slice();
  } finally {
    buf.destroy();
  }
}

export function requirePages(pages: readonly number[], count: number): void {
  const bad = pages.find((p) => p < 1 || p > count);
  if (bad !== undefined) throw new TaskError({ reason: 'page_out_of_range', page: bad, pages: count });
}

/**
 * Page count and encryption of an upload (or of an output's chunks), read without failing on a
 * damaged file. It runs on the HTTP side, outside any task: a trap while reading a hostile upload
 * replaces the engine there and then, so the next request gets a sound one.
 */
export async function inspectPdf(bytes: Uint8Array | readonly Uint8Array[]): Promise<{ pages: number | null; encrypted: boolean }> {
  try {
    return await inspectPdfWith(await loadMupdf(), bytes);
  } catch (err) {
    if (!isEngineTrap(err) && !isOutOfMemory(err)) throw err;
    console.error(JSON.stringify({ event: 'inspect_engine_fault', error: String(err) }));
    return { pages: null, encrypted: false };
  } finally {
    if (trappedEngines().length) dropAllEngines();
  }
}

/** Errors from MuPDF's own checks are answered as "unreadable"; traps are left to inspectPdf. */
function healthy(err: unknown): void {
  if (isEngineTrap(err) || isOutOfMemory(err)) throw err;
}

async function inspectPdfWith(mupdf: Mupdf, bytes: Uint8Array | readonly Uint8Array[]): Promise<{ pages: number | null; encrypted: boolean }> {
  const stream = bytes instanceof Uint8Array ? bytesStream(mupdf, bytes) : chunksStream(mupdf, bytes);
  let doc;
  try {
    doc = mupdf.Document.openDocument(stream, 'application/pdf');
  } catch (err) {
    healthy(err);
    return { pages: null, encrypted: false };
  } finally {
    stream.destroy();
  }
  try {
    if (doc.needsPassword()) return { pages: null, encrypted: true };
    const pages = doc.countPages();
    return { pages: pages > 0 ? pages : null, encrypted: false };
  } catch (err) {
    healthy(err);
    return { pages: null, encrypted: false };
  } finally {
    doc.destroy();
  }
}

export const PDF_MIME = 'application/pdf';
