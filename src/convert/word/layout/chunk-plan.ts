/**
 * The body's stretches planned before anything is drawn (render.ts): each section's frames, its
 * stretches cut where table header rows repeat or paged for their footnotes or by our own engine,
 * continuous sections placed below the page before, and, when a header or footer shows totals,
 * each flow's pages counted.
 */
import type * as Mupdf from 'mupdf';
import type { Block, HeaderFooterSet } from '../model/index';
import { splitForRepeatedHeaders, withRepeatableHeaders } from './repeat-headers';
import { paginateFootnotes, type FootnotePage } from './footnote-pages';
import { callsNotes, joins } from './notes-html';
import type { PageMarks } from './inline-context';
import { flowsOf, type Flow, type FlowFrame } from './flows';
import { fieldsShown } from './areas';
import { roomBelow, startBelow } from './continuous-columns';
import { laysOutItself } from '../blocks/eligible';
import type { DocumentLayouts } from './document-layouts';

/** Blocks (a header or footer) show NUMPAGES or SECTIONPAGES: the pages are counted first. */
const hasTotals = (blocks: Block[] | undefined): boolean => {
  const shown = fieldsShown(blocks);
  return shown.has('NUMPAGES') || shown.has('SECTIONPAGES');
};

/** Each flow's frames: the body's columns on its section's page, below its header and above its footer. */
export function flowFrames(d: DocumentLayouts): FlowFrame[] {
  return flowsOf(d.model).map((flow) => {
    const s = flow.section;
    const g = s.page;
    const width = g.width - g.marginLeft - g.marginRight;
    // Word pushes the body down when the header is taller than the top margin (and up for footers),
    // page by page; frames here are one height per section, so the taller of the default and
    // even-page areas decides (the first page's own area only when there is no default).
    const one = { PAGE: '1', NUMPAGES: '1', SECTIONPAGES: '1' };
    const tallest = (areas: HeaderFooterSet) =>
      Math.max(-Infinity, ...[areas.default ?? areas.first, s.evenAndOdd ? areas.even : undefined].map((blocks) => d.area(blocks, width, one, false, false)?.height ?? -Infinity));
    const top = Math.max(g.marginTop, g.header + tallest(s.headers));
    const bottom = Math.max(g.marginBottom, g.footer + tallest(s.footers));
    const columns = Math.max(1, Math.min(s.columns ?? 1, 6));
    const gap = columns > 1 ? (s.columnGap ?? 36) : 0;
    return { flow, top, columns, gap, frameWidth: (width - gap * (columns - 1)) / columns, frameHeight: Math.max(g.height - top - bottom, 36) };
  });
}

/**
 * Cuts the flows' stretches into the chunks that are drawn. Tables with header rows: stretches are
 * split where such a table crosses a page, so that the header rows repeat on the next page
 * (one-column flows, where a stretch boundary is a page break). Stretches with footnote references
 * are paged for their notes instead (tables' header rows repeat there too). A continuous section
 * with other columns starts below the text of the page before (continuous-columns.ts).
 */
export function planChunks(d: DocumentLayouts, frames: FlowFrame[]): void {
  // Tables whose header rows take more than half a page do not repeat them (repeat-headers.ts).
  for (const f of frames) f.flow.chunks = f.flow.chunks.map((blocks) => withRepeatableHeaders(blocks, f.frameHeight, (t) => d.headerRowsHeight(t, f)));
  const registry = d.registry();
  frames.forEach((f, index) => {
    // A one-column continuing section whose first stretch calls notes is paged for them, its first
    // page the room below the page before.
    const first = f.flow.chunks[0];
    const paged = f.flow.continues && f.columns === 1 && !!first?.length && callsNotes(first, d.model) && !first.some(joins);
    const below = paged ? roomBelow(frames[index - 1], registry) : undefined;
    if (f.flow.continues && !below && !startBelow(frames[index - 1], f, registry)) f.flow.continues = false;
    if (f.columns !== 1) return;
    // Stretches of plain paragraphs are laid out and paged by layout's own engine (src/layout/), notes and
    // all: each stretch starts a page, so the engine and MuPDF can take turns within a section.
    // Not a stretch that shares its first page with the section before (a continuous section's
    // first), nor one whose last page the next section continues on (MuPDF measures where it ends).
    const last = f.flow.chunks.length - 1;
    const ownStretch = (blocks: Block[], k: number) => d.options.ownLayout !== false && !(k === 0 && f.flow.continues) && !(k === last && frames[index + 1]?.flow.continues) && laysOutItself(blocks, d.model);
    f.flow.chunks = f.flow.chunks.flatMap((blocks, k): Block[][] => {
      const pages = ownStretch(blocks, k) ? d.ownPaging(blocks, f) : undefined;
      if (pages) {
        d.ownPages.set(blocks, pages);
        d.chunkFrames.set(blocks, pages.length);
        return [blocks];
      }
      if (d.sharedTops.has(blocks)) return [blocks];
      // Not where letters join (Arabic script): a word's page is found by an id on the word itself there
      // (see markedWords), which MuPDF may place on the line before, so text could be lost at a page's end.
      if (callsNotes(blocks, d.model) && !blocks.some(joins)) return footnoteChunks(d, f, blocks, below && blocks === first ? below : undefined);
      if (!blocks.some((b) => b.kind === 'table' && b.rows[0]?.header)) return [blocks];
      return splitForRepeatedHeaders(
        blocks,
        (b, anchors) => d.laidOut(f, b, anchors).doc,
        (chunk, doc, frames) => {
          if (frames !== undefined) d.chunkFrames.set(chunk, frames);
          if (!d.keepLaidOut(chunk, doc)) doc.destroy();
        },
      );
    });
  });
}

/** A stretch paged for its footnotes, one chunk per page; `below`: its first page is the room below the page before. */
function footnoteChunks(d: DocumentLayouts, f: FlowFrame, blocks: Block[], below: { room: number; top: number } | undefined): Block[][] {
  const layout = (window: Block[], height: number, fine?: number) => {
    const marks: PageMarks = { depth: 0, block: 0, fine, words: [], refs: 0 };
    const { doc, noteRefs } = d.laidOut(f, window, undefined, marks, height);
    return { doc, marks, noteRefs, relayout: (frameHeight: number) => doc.layout(f.frameWidth, frameHeight, d.em) };
  };
  const keep = (page: FootnotePage, doc: Mupdf.Document) => {
    d.footnotePages.set(page.blocks, page);
    if (!page.allFrames) d.chunkFrames.set(page.blocks, 1);
    if (!d.keepLaidOut(page.blocks, doc)) doc.destroy();
  };
  const firstHeight = below?.room;
  const pages = paginateFootnotes(blocks, f.frameHeight, layout, (ids) => d.notesArea(ids, f.frameWidth).height, keep, firstHeight);
  if (below && firstHeight !== undefined) {
    // Drawn below the page before; if nothing fit there, its first page is a page of its own.
    if (pages[0]?.blocks.length && !pages[0].allFrames) d.sharedTops.set(pages[0].blocks, below.top);
    else f.flow.continues = false;
  }
  return pages.map((page) => page.blocks);
}

/** Pass 1, only when some header or footer needs the totals: each flow's pages. */
export function countFlowPages(d: DocumentLayouts, frames: FlowFrame[]): Map<Flow, number> {
  const needsTotals = d.model.sections.some((s) => [s.headers.default, s.headers.first, s.headers.even, s.footers.default, s.footers.first, s.footers.even].some(hasTotals));
  const flowPages = new Map<Flow, number>();
  if (!needsTotals) return flowPages;
  for (const f of frames) {
    let n = 0;
    for (const blocks of f.flow.chunks) {
      if (d.sharedTops.has(blocks)) continue; // on the page before
      const known = d.chunkFrames.get(blocks);
      if (known !== undefined) {
        n += Math.ceil(known / f.columns); // its layout may be kept already
        continue;
      }
      const doc = d.layoutChunk(f, blocks, true);
      n += Math.ceil(doc.countPages() / f.columns);
      if (!d.isKept(blocks)) doc.destroy();
    }
    flowPages.set(f.flow, n);
  }
  d.mupdf.emptyStore();
  return flowPages;
}
