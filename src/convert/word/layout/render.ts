/**
 * Lays out a Word document model and draws it into a PDF: the body through MuPDF's HTML engine
 * or layout's own line breaker and pager (src/layout/), chunk by chunk between page breaks, then headers and
 * footers drawn onto each page with their page numbers filled in.
 */
import type * as Mupdf from 'mupdf';
import { joinChunks } from '../../../lib/bytes';
import type { FontFiles } from '../../../fonts/catalog';
import type { WordDocument } from '../model/index';
import { DocumentLayouts, type RenderOptions } from './document-layouts';
import { countFlowPages, flowFrames, planChunks } from './chunk-plan';
import { PageWriter } from './page-writer';
import { FlowDrawer } from './draw-flows';

export type { RenderOptions } from './document-layouts';

type MupdfModule = typeof Mupdf;

/**
 * Lays out a Word document model and draws it into a PDF: the body through MuPDF's HTML engine,
 * chunk by chunk between page breaks, then headers and footers drawn onto each page with their
 * page numbers filled in. Each chunk is laid out, written and freed before the next (MuPDF's heap
 * never shrinks, so the peak is one chunk, not the document); when a header or footer shows
 * NUMPAGES or SECTIONPAGES, a first pass counts the pages.
 */
export function renderWordDocument(document: WordDocument, mupdf: MupdfModule, files: FontFiles, options: RenderOptions = {}): Uint8Array {
  return joinChunks(renderWordDocumentChunks(document, mupdf, files, options));
}

/** The PDF as it is written, in chunks (large pictures are views of the document's own bytes). */
export function renderWordDocumentChunks(document: WordDocument, mupdf: MupdfModule, files: FontFiles, options: RenderOptions = {}): Uint8Array[] {
  const layouts = new DocumentLayouts(document, mupdf, files, options);
  try {
    const frames = flowFrames(layouts);
    planChunks(layouts, frames);
    // Pass 1, only when some header or footer needs the totals: count each flow's pages.
    const flowPages = countFlowPages(layouts, frames);
    const total = [...flowPages.values()].reduce((a, b) => a + b, 0);
    // Pass 2: lay out, draw and free each chunk in turn.
    const writer = new PageWriter(layouts);
    new FlowDrawer(layouts, writer, frames, flowPages, total).drawAll();
    return writer.finish();
  } finally {
    layouts.destroy();
  }
}
