import type * as Mupdf from 'mupdf';
import { joinChunks } from '../../../lib/bytes';
import type { FontFiles } from '../../../fonts/catalog';
import type { Block, HeaderFooterSet, PageGeometry, Paragraph, Table, WordDocument } from '../model/index';
import { blocksHtml, blocksWithin, type BlockContext } from './block-html';
import { holdsTogether, keepsWithNext } from '../rules/keeps';
import { KEEP_ROUNDS, MOST_KEPT_WITH_NEXT, moveKeptWithNext, withPageBreaks } from './keep-with-next';
import { MetafilePictures } from './metafile-device';
import { FontBook } from '../../../layout/text/font-book';
import { PicturePassThrough } from './picture-passthrough';
import { splitForRepeatedHeaders, withRepeatableHeaders } from './repeat-headers';
import { headerFramesAsFloatingBoxes } from './frames';
import { DocumentOutline } from './outline';
import { LinkTargets } from './link-targets';
import { paginateFootnotes, type FootnotePage } from './footnote-pages';
import { callsNotes, joins, notesHtml, NOTE_DESCENT, NOTE_RULE } from './notes-html';
import { finish } from './pdf-finish';
import { drawPageBorders, drawPageColor, showsPageBorders } from './page-borders';
import { shapeApart } from './inline-shapes';
import type { PageMarks } from './inline-context';
import { ShapePictures, type PageFrame } from './shape-pictures';
import { flowsOf, type Flow, type FlowFrame } from './flows';
import { contentHeight, framesWithIds, htmlDocument, openHtml } from './html-doc';
import { AreaLayouts, BlockAreas, fieldsShown, type Area } from './areas';
import { roomBelow, startBelow, type ChunkRegistry } from './continuous-columns';
import { METAFILE } from '../../../paint/metafile';
import { laysOutArea, laysOutItself } from '../flow/eligible';
import { paginate } from '../flow/paginate';
import { floatsOf, type FlowPage, type PlacedFloat } from '../flow/flow-page';
import { stackParagraphs } from '../flow/paragraph-stack';
import type { DrawPicture } from '../flow/draw-lines';
import { FlowPages } from '../flow/flow-pages';
import { tableRows } from '../flow/table-rows';
import type { ProblemSink } from '../../problems';

type MupdfModule = typeof Mupdf;



/** The bookmark a link within the document names ("#name", percent-encoded by MuPDF where it must be). */
function bookmarkName(uri: string): string {
  try {
    return decodeURIComponent(uri.slice(1));
  } catch {
    return uri.slice(1);
  }
}

/** HTML of laid-out chunks kept between the counting and the writing pass, at most (about 10x that in MuPDF's heap). */
const KEEP_LAID_OUT_BYTES = 2_000_000;

/** Blocks (a header or footer) show NUMPAGES or SECTIONPAGES: the pages are counted first. */
const hasTotals = (blocks: Block[] | undefined): boolean => {
  const shown = fieldsShown(blocks);
  return shown.has('NUMPAGES') || shown.has('SECTIONPAGES');
};

export interface RenderOptions {
  /** Stretches of plain paragraphs go to our own line breaker and pager (flow/); false: all to MuPDF's HTML engine (tests of that path). */
  ownLayout?: boolean;
  /** Told of each picture left blank because no decoder reads it. */
  onProblem?: ProblemSink;
}

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
  const fonts = FontBook.shared(mupdf, files);
  fonts.install();
  const em = document.defaultSize || 11;
  const model = headerFramesAsFloatingBoxes(document, { fonts, defaultFont: document.defaultFont, defaultSize: em });
  // EMF/WMF pictures: placeholders in the HTML, drawn as vectors by the page device (see below).
  const metafiles = new MetafilePictures(mupdf);
  // Raster pictures: placeholders in the HTML and in floating shapes, the pictures put into the PDF at the end (PNGs as they are).
  const pictures = new PicturePassThrough(mupdf, options.onProblem);
  // Shapes: placeholders in the HTML too, drawn by the same page device as metafiles (shape-pictures.ts).
  const shapes = new ShapePictures(mupdf, (device, picture, ctm) => metafiles.draw(device, picture.data, picture.contentType, ctm, fonts), (data, crop) => pictures.placeholderImage(data, crop), fonts, (blocks, height, width) => blocksWithin(blocks, height, width, ctx(), 'starts within'), (content) => pictures.contentImage(content));
  const ctx = (fields: BlockContext['fields'] = {}, columnLeft?: number): BlockContext => ({ fonts, defaultFont: model.defaultFont, defaultSize: em, fields, noteRefs: [], columnLeft, paragraphSpacing: model.paragraphSpacing, noLeading: model.noLeading, metafiles, shapes, pictures });
  // Laid-out header, footer and footnote areas by key; `drawsItself`: it shows metafiles or shapes.
  const areas = new AreaLayouts(mupdf, em);
  // Chunks laid out before the writing pass (to count pages, or to page them) are kept for it while
  // their HTML stays small in total (text-only documents are laid out once); others are laid out again.
  const kept = new Map<Block[], Mupdf.Document>();
  let keptBytes = 0;
  const htmlBytes = new WeakMap<Mupdf.Document, number>();
  // Chunks whose page count is known before they are drawn: a footnote page is one frame, a stretch
  // cut where a table's header rows repeat is the frames before the cut (its layout may hold more).
  const chunkFrames = new WeakMap<Block[], number>();
  /** External links (ids xl0…) and metafile or shape stand-ins (ph0…) in each laid-out chunk. */
  const linkCounts = new WeakMap<Mupdf.Document, number>();
  const placeholderCounts = new WeakMap<Mupdf.Document, number>();
  // Bookmarks from the headings (outline.ts) and the targets of links within the document
  // (link-targets.ts): the ids each laid-out chunk holds (hd<n>, an<n>), and where they landed in it.
  const outline = new DocumentOutline();
  const targets = new LinkTargets();
  const placedIds = new WeakMap<Mupdf.Document, { prefix: 'hd' | 'an'; k: number }[]>();
  const places = new WeakMap<Mupdf.Document, { prefix: 'hd' | 'an'; k: number; frame: number; y: number }[]>();

  try {
    // Header, footer and shape text areas (areas.ts); `want`: only queued, laid out with the next one needed.
    const blockAreas = new BlockAreas(areas, (blocks, width, fields) => {
      const c = { ...ctx(fields), placeholderIds: { count: 0 }, floatsOutOfFlow: true };
      return { body: blocksHtml(blocks, width, c), placeholders: c.placeholderIds.count };
    });
    const area = (blocks: Block[] | undefined, width: number, fields: BlockContext['fields'], want = false, ahead = true) => blockAreas.area(blocks, width, fields, want, ahead);

    // Footnotes at the foot of a page: laid out once per set of notes (a page's notes are measured, then drawn).
    const notesArea = (ids: string[], width: number) =>
      areas.get(`notes|${width}|${ids.join(',')}`, {
        width,
        html: () => {
          const c = { ...ctx(), placeholderIds: { count: 0 } };
          const body = NOTE_RULE + ids.map((id) => blocksHtml(model.notes.get(id) ?? [], width, c)).join('');
          return { body, placeholders: c.placeholderIds.count };
        },
        height: { add: NOTE_DESCENT },
      });
    /** A page's footnotes at the foot of its text area, under their rule. */
    const drawNotes = (target: Mupdf.Device, f: FlowFrame, notes: Area) =>
      areas.draw(notes, target, mupdf.Matrix.translate(f.flow.section.page.marginLeft, f.top + f.frameHeight - notes.height));

    const frames: FlowFrame[] = flowsOf(model).map((flow) => {
      const s = flow.section;
      const g = s.page;
      const width = g.width - g.marginLeft - g.marginRight;
      // Word pushes the body down when the header is taller than the top margin (and up for footers),
      // page by page; frames here are one height per section, so the taller of the default and
      // even-page areas decides (the first page's own area only when there is no default).
      const one = { PAGE: '1', NUMPAGES: '1', SECTIONPAGES: '1' };
      const tallest = (areas: HeaderFooterSet) =>
        Math.max(-Infinity, ...[areas.default ?? areas.first, s.evenAndOdd ? areas.even : undefined].map((blocks) => area(blocks, width, one, false, false)?.height ?? -Infinity));
      const top = Math.max(g.marginTop, g.header + tallest(s.headers));
      const bottom = Math.max(g.marginBottom, g.footer + tallest(s.footers));
      const columns = Math.max(1, Math.min(s.columns ?? 1, 6));
      const gap = columns > 1 ? (s.columnGap ?? 36) : 0;
      return { flow, top, columns, gap, frameWidth: (width - gap * (columns - 1)) / columns, frameHeight: Math.max(g.height - top - bottom, 36) };
    });
    // Stretches with footnotes are paged one page at a time (footnote-pages.ts): each page's layout, its height and notes.
    const footnotePages = new WeakMap<Block[], FootnotePage>();
    /** What our own engine (flow/) lays paragraphs out with: fields are the page's in headers and footers. */
    const lineContext = { fonts, defaultFont: model.defaultFont, defaultSize: em, noLeading: model.noLeading, fields: {}, sum: model.paragraphSpacing === 'sum' };
    /**
     * A stretch paged by our own engine, or undefined when it fails on it: the stretch then goes to
     * MuPDF's HTML engine like any other, and the document still converts.
     */
    const ownPaging = (blocks: Block[], f: FlowFrame): FlowPage[] | undefined => {
      try {
        return paginate(blocks, f.frameWidth, f.frameHeight, lineContext, (id) => model.notes.get(id) as Paragraph[] | undefined);
      } catch {
        return undefined;
      }
    };
    // Stretches our own engine paged (flow/): each page's lines and notes, drawn by ownDrawing.
    const ownPages = new WeakMap<Block[], FlowPage[]>();
    const laidOut = (f: FlowFrame, blocks: Block[], rowAnchors?: Map<Table, string>, marks?: PageMarks, frameHeight?: number) => {
      const page = footnotePages.get(blocks);
      const height = frameHeight ?? page?.frameHeight ?? f.frameHeight;
      // Keep-with-next in one-column stretches that are not paged for footnotes (see keptWithNext).
      const keepCount = !marks && f.columns === 1 ? blocks.filter((b) => keepsWithNext(b) || holdsTogether(b)).length : 0;
      const keeps = keepCount > 0 && keepCount <= MOST_KEPT_WITH_NEXT ? { depth: 0, breakBefore: new Set<number>(), breakAt: new Map<number, number>() } : undefined;
      const build = (spacers: number[]) => {
        // Column breaks count in multi-column flows (one-column ones made them page breaks). The
        // caller's marks describe the last build: they are filled again from the start.
        const columnBreaks = f.columns > 1 ? { depth: 0, count: 0, spacers } : undefined;
        if (marks) Object.assign(marks, { depth: 0, block: 0, refs: 0 }).words.length = 0;
        const headings = { index: (p: Paragraph) => outline.index(p), found: [] as number[] };
        const linkTargets = { index: (p: Paragraph) => targets.index(p), found: [] as number[] };
        const c = { ...ctx({}, f.flow.section.page.marginLeft), rowAnchors, linkIds: { count: 0 }, placeholderIds: { count: 0 }, marks, columnBreaks, headings, linkTargets, keeps };
        let body = blocksHtml(blocks, f.frameWidth, c);
        // Footnotes go at the foot of their page when the stretch is paged for them; otherwise after it.
        if (c.noteRefs.length && !page && !marks) body += notesHtml(c.noteRefs, model, f.frameWidth, c);
        return { c, body, doc: open(body) };
      };
      const open = (body: string) => openHtml(mupdf, htmlDocument(f.frameWidth, height, [0, 0, 0, 0], body), f.frameWidth, height, em);
      let laid = build([]);
      // MuPDF has no column breaks: each one's spacer is made as tall as the room left above it in
      // its column, which moves what follows to the next, and the stretch laid out again.
      const spacers: number[] = [];
      for (let k = 0; k < (laid.c.columnBreaks?.count ?? 0); k++) {
        laid.doc.countPages(); // lays the document out: before that, a destination's y is NaN
        const y = laid.doc.resolveLinkDestination(`#cb${k}`).y;
        spacers[k] = y > 0.5 ? Math.max(0, height - y - 0.5) : 0;
        if (!spacers[k]) continue;
        laid.doc.destroy();
        laid = build([...spacers]);
      }
      // A paragraph kept with the next block that ends a page without it starts the next page
      // (with the ones kept with it before it), and the stretch is laid out again; a few rounds at most.
      const written = laid;
      for (let round = 0; keeps && round < KEEP_ROUNDS && moveKeptWithNext(laid.doc, blocks, keeps.breakBefore); round++) {
        laid.doc.destroy();
        const body = withPageBreaks(written.body, keeps);
        laid = { c: written.c, body, doc: open(body) };
      }
      const { c, body, doc } = laid;
      linkCounts.set(doc, c.linkIds.count);
      placeholderCounts.set(doc, c.placeholderIds.count);
      const ids = [...c.headings.found.map((k) => ({ prefix: 'hd' as const, k })), ...c.linkTargets.found.map((k) => ({ prefix: 'an' as const, k }))];
      if (ids.length) placedIds.set(doc, ids);
      htmlBytes.set(doc, body.length);
      return { doc, body, noteRefs: c.noteRefs };
    };
    const keepLaidOut = (blocks: Block[], doc: Mupdf.Document) => {
      const bytes = htmlBytes.get(doc) ?? 0;
      if (keptBytes + bytes > KEEP_LAID_OUT_BYTES) return false;
      keptBytes += bytes;
      kept.set(blocks, doc);
      return true;
    };
    const layoutChunk = (f: FlowFrame, blocks: Block[], keep = false, rowAnchors?: Map<Table, string>) => {
      const ready = kept.get(blocks);
      if (ready) {
        kept.delete(blocks);
        return ready;
      }
      const paged = footnotePages.get(blocks);
      const marks = paged?.marked ? { depth: 0, block: 0, fine: paged.marked.fine, words: [], refs: 0 } : undefined;
      const { doc } = laidOut(f, blocks, rowAnchors, marks);
      if (keep) keepLaidOut(blocks, doc);
      return doc;
    };
    const framesOf = (blocks: Block[], doc: Mupdf.Document) => Math.min(doc.countPages(), chunkFrames.get(blocks) ?? Infinity);

    // Tables with header rows: stretches are split where such a table crosses a page, so that the
    // header rows repeat on the next page (one-column flows, where a stretch boundary is a page break).
    // Stretches with footnote references are paged for their notes instead (tables' header rows repeat there too).
    // A continuous section with other columns starts below the text of the page before (continuous-columns.ts).
    const sharedTops = new WeakMap<Block[], number>();
    // Tables whose header rows take more than half a page do not repeat them (repeat-headers.ts):
    // measured by our own engine where it lays the rows out, else by MuPDF.
    const headerRowsHeight = (t: Table, f: FlowFrame): number => {
      if (options.ownLayout !== false && laysOutItself([t], model)) {
        try {
          return tableRows(t, f.frameWidth, lineContext, new Map()).reduce((sum, row) => sum + row.height, 0);
        } catch {
          // measured by MuPDF instead
        }
      }
      // Laid out as the stretch would be, but without ids for headings and link targets (not placed from here).
      const body = blocksHtml([t], f.frameWidth, { ...ctx({}, f.flow.section.page.marginLeft), placeholderIds: { count: 0 } });
      const doc = openHtml(mupdf, htmlDocument(f.frameWidth, f.frameHeight, [0, 0, 0, 0], body), f.frameWidth, f.frameHeight, em);
      try {
        return doc.countPages() > 1 ? Infinity : contentHeight(doc, 0);
      } finally {
        doc.destroy();
      }
    };
    for (const f of frames) f.flow.chunks = f.flow.chunks.map((blocks) => withRepeatableHeaders(blocks, f.frameHeight, (t) => headerRowsHeight(t, f)));
    const registry: ChunkRegistry = {
      layout: (f, blocks, height, marks) => laidOut(f, blocks, undefined, marks, height).doc,
      relayout: (f, doc, height) => doc.layout(f.frameWidth, height, em),
      measure: (f, blocks) => {
        const ready = kept.get(blocks);
        if (ready) return { doc: ready, owned: false };
        const doc = layoutChunk(f, blocks, true);
        return { doc, owned: !kept.has(blocks) };
      },
      keep: keepLaidOut,
      callsNotes: (blocks) => callsNotes(blocks, model),
      pages: footnotePages,
      frames: chunkFrames,
      framesOf,
      tops: sharedTops,
    };
    frames.forEach((f, index) => {
      // A one-column continuing section whose first stretch calls notes is paged for them, its first
      // page the room below the page before.
      const first = f.flow.chunks[0];
      const paged = f.flow.continues && f.columns === 1 && !!first?.length && callsNotes(first, model) && !first.some(joins);
      const below = paged ? roomBelow(frames[index - 1], registry) : undefined;
      if (f.flow.continues && !below && !startBelow(frames[index - 1], f, registry)) f.flow.continues = false;
      if (f.columns !== 1) return;
      // Stretches of plain paragraphs are laid out and paged by our own engine (flow/), notes and
      // all: each stretch starts a page, so the engine and MuPDF can take turns within a section.
      // Not a stretch that shares its first page with the section before (a continuous section's
      // first), nor one whose last page the next section continues on (MuPDF measures where it ends).
      const last = f.flow.chunks.length - 1;
      const ownStretch = (blocks: Block[], k: number) => options.ownLayout !== false && !(k === 0 && f.flow.continues) && !(k === last && frames[index + 1]?.flow.continues) && laysOutItself(blocks, model);
      f.flow.chunks = f.flow.chunks.flatMap((blocks, k): Block[][] => {
        const pages = ownStretch(blocks, k) ? ownPaging(blocks, f) : undefined;
        if (pages) {
          ownPages.set(blocks, pages);
          chunkFrames.set(blocks, pages.length);
          return [blocks];
        }
        if (sharedTops.has(blocks)) return [blocks];
        // Not where letters join (Arabic script): a word's page is found by an id on the word itself there
        // (see markedWords), which MuPDF may place on the line before, so text could be lost at a page's end.
        if (callsNotes(blocks, model) && !blocks.some(joins)) {
          const layout = (window: Block[], height: number, fine?: number) => {
            const marks: PageMarks = { depth: 0, block: 0, fine, words: [], refs: 0 };
            const { doc, noteRefs } = laidOut(f, window, undefined, marks, height);
            return { doc, marks, noteRefs, relayout: (frameHeight: number) => doc.layout(f.frameWidth, frameHeight, em) };
          };
          const keep = (page: FootnotePage, doc: Mupdf.Document) => {
            footnotePages.set(page.blocks, page);
            if (!page.allFrames) chunkFrames.set(page.blocks, 1);
            if (!keepLaidOut(page.blocks, doc)) doc.destroy();
          };
          const firstHeight = below && blocks === first ? below.room : undefined;
          const pages = paginateFootnotes(blocks, f.frameHeight, layout, (ids) => notesArea(ids, f.frameWidth).height, keep, firstHeight);
          if (below && firstHeight !== undefined) {
            // Drawn below the page before; if nothing fit there, its first page is a page of its own.
            if (pages[0]?.blocks.length && !pages[0].allFrames) sharedTops.set(pages[0].blocks, below.top);
            else f.flow.continues = false;
          }
          return pages.map((page) => page.blocks);
        }
        if (!blocks.some((b) => b.kind === 'table' && b.rows[0]?.header)) return [blocks];
        return splitForRepeatedHeaders(
          blocks,
          (b, anchors) => laidOut(f, b, anchors).doc,
          (chunk, doc, frames) => {
            if (frames !== undefined) chunkFrames.set(chunk, frames);
            if (!keepLaidOut(chunk, doc)) doc.destroy();
          },
        );
      });
    });

    // Pass 1, only when some header or footer needs the totals: count each flow's pages.
    const needsTotals = model.sections.some((s) => [s.headers.default, s.headers.first, s.headers.even, s.footers.default, s.footers.first, s.footers.even].some(hasTotals));
    const flowPages = new Map<Flow, number>();
    if (needsTotals) {
      for (const f of frames) {
        let n = 0;
        for (const blocks of f.flow.chunks) {
          if (sharedTops.has(blocks)) continue; // on the page before
          const known = chunkFrames.get(blocks);
          if (known !== undefined) {
            n += Math.ceil(known / f.columns); // its layout may be kept already
            continue;
          }
          const doc = layoutChunk(f, blocks, true);
          n += Math.ceil(doc.countPages() / f.columns);
          if (!kept.has(blocks)) doc.destroy();
        }
        flowPages.set(f.flow, n);
      }
      mupdf.emptyStore();
    }
    const total = [...flowPages.values()].reduce((a, b) => a + b, 0);

    // Pass 2: lay out, draw and free each chunk in turn.
    const out = new mupdf.Buffer();
    // Fonts are written uncompressed: whole faces go in first and are deflated only after subsetting (finish).
    // Images are compressed at once (raw pixels would multiply the heap).
    const writer = new mupdf.DocumentWriter(out, 'pdf', 'compress-images');
    // Hyperlinks of each written page: the writer draws, it does not carry link annotations over.
    const links: { page: number; rect: Mupdf.Rect; uri: string }[] = [];
    let written = 0;
    let pageNumber = 0;
    /** A new page of the writer's, the document's page colour (if any) under all else. */
    const beginPage = (g: PageGeometry) => {
      const device = writer.beginPage([0, 0, g.width, g.height]);
      if (model.pageColor) drawPageColor(mupdf, device, model.pageColor, g.width, g.height);
      return device;
    };
    // The page being drawn stays open until the next one begins: a continuous section with other
    // columns may start on it, below its text (sharedTops).
    let open: { index: number; pageDevice: Mupdf.Device; device: Mupdf.Device } | undefined;
    const endPage = () => {
      if (!open) return;
      shapes.flushText(open.device);
      shapes.endPage();
      if (open.device !== open.pageDevice) {
        open.device.close();
        open.device.destroy();
      }
      writer.endPage();
      ownDrawing.text.seal(open.index);
      // mupdf.js keeps its own reference to the page device: dropped now, not when the GC gets to it.
      open.pageDevice.destroy();
      open = undefined;
      // Decoded pictures of this page are not needed for the next: keep the heap at one page's worth.
      mupdf.emptyStore();
    };
    /** Where the headings and link targets of a laid-out chunk landed (frame and y), looked up once per chunk. */
    const placesIn = (doc: Mupdf.Document) => {
      let found = places.get(doc);
      if (!found) {
        found = (placedIds.get(doc) ?? []).map(({ prefix, k }) => {
          const at = doc.resolveLinkDestination(`#${prefix}${k}`);
          return { prefix, k, frame: at.page, y: at.y };
        });
        places.set(doc, found);
      }
      return found;
    };
    // Links within the document, made once every target is placed (finish).
    const internalLinks: { page: number; rect: Mupdf.Rect; name: string }[] = [];
    /**
     * Draws frames of a laid-out chunk as the columns of the open page, their top at `top`; `target`
     * may pick a device per frame (none: the frame is skipped).
     */
    const drawFrames = (target: Mupdf.Device | ((frame: number) => Mupdf.Device | undefined), f: FlowFrame, doc: Mupdf.Document, pageFrames: number[], firstFrame: number, top: number, linkFrames?: Set<number>) => {
      const left = f.flow.section.page.marginLeft;
      for (const frame of pageFrames) {
        const device = typeof target === 'function' ? target(frame) : target;
        if (!device) continue;
        const dx = left + (frame - firstFrame) * (f.frameWidth + f.gap);
        const page = doc.loadPage(frame);
        page.run(device, mupdf.Matrix.translate(dx, top));
        for (const h of placesIn(doc)) if (h.frame === frame) (h.prefix === 'hd' ? outline : targets).place(h.k, open!.index, top + h.y);
        for (const link of linkFrames?.has(frame) ? page.getLinks() : []) {
          const [x0, y0, x1, y1] = link.getBounds();
          const rect: Mupdf.Rect = [x0 + dx, y0 + top, x1 + dx, y1 + top];
          // The link's id also makes an empty link box where the link starts: nothing to click.
          if (x1 - x0 > 0.01 && y1 - y0 > 0.01) {
            const uri = link.getURI();
            if (link.isExternal()) links.push({ page: open!.index, rect, uri });
            else if (uri.startsWith('#') && uri.length > 1) internalLinks.push({ page: open!.index, rect, name: bookmarkName(uri) });
          }
          link.destroy();
        }
        page.destroy();
      }
    };
    /** Pictures our engine draws: rasters as placeholders (put into the PDF at the end), metafiles as vectors. */
    const drawPicture: DrawPicture = (device, data, contentType, ctm, crop) => {
      if (METAFILE.test(contentType)) return metafiles.draw(device, data, contentType, ctm, fonts);
      const image = pictures.placeholderImage(data, crop);
      if (!image) return;
      device.fillImage(image, ctm, 1);
      image.destroy();
    };
    // What our own engine laid out, drawn onto the writer's pages; its text put into the PDF by finish.
    const ownDrawing = new FlowPages(mupdf, drawPicture, {
      link: (page, rect, uri) => links.push({ page, rect, uri }),
      internalLink: (page, rect, name) => internalLinks.push({ page, rect, name }),
      paragraphAt: (p, page, y) => {
        if (p.props.outlineLevel !== undefined && p.props.outlineLevel < 9) outline.place(outline.index(p), page, y);
        if (p.props.bookmarks?.length) targets.place(targets.index(p), page, y);
      },
    });
    /**
     * A header or footer of plain paragraphs laid out by our own engine with the page's field values,
     * and the height MuPDF measures for it (what places a footer, and the body below a tall header).
     */
    const ownAreas = new WeakMap<Block[], boolean>(); // which headers and footers are plain: asked once, not per page
    const ownArea = (blocks: Block[] | undefined, width: number, fields: BlockContext['fields']) => {
      if (options.ownLayout === false || !blocks?.length) return undefined;
      let plain = ownAreas.get(blocks);
      if (plain === undefined) ownAreas.set(blocks, (plain = laysOutArea(blocks, model)));
      if (!plain) return undefined;
      const measured = area(blocks, width, { PAGE: '1', NUMPAGES: '1', SECTIONPAGES: '1' }, false, false);
      if (!measured) return undefined;
      try {
        const lines = stackParagraphs(blocks as Paragraph[], width, { ...lineContext, fields }).lines;
        return { lines, height: measured.height, floats: floatsOf(lines) };
      } catch {
        return undefined; // drawn as a MuPDF area instead
      }
    };
    frames.forEach((f, flowIndex) => {
      const s = f.flow.section;
      const g = s.page;
      const width = g.width - g.marginLeft - g.marginRight;
      if (s.pageNumberStart !== undefined) pageNumber = s.pageNumberStart - 1;
      // A section that starts on an odd (even) page gets a blank page before it when needed, as in print.
      if (written > 0 && ((s.start === 'oddPage' && pageNumber % 2 === 1) || (s.start === 'evenPage' && pageNumber % 2 === 0))) {
        endPage();
        const blank = beginPage(g);
        writer.endPage();
        blank.destroy();
        written++;
        pageNumber++;
      }
      // Shapes and metafiles of a continuous section drawn on this flow's last page need its device.
      const nextShares = !!frames[flowIndex + 1]?.flow.continues && (metafiles.size > 0 || shapes.size > 0);
      // A continuous section that could not start on the page before still began there: its first page is behind it.
      let sectionPage = f.flow.continues === false ? 1 : 0;
      f.flow.chunks.forEach((blocks, chunkIndex) => {
        const ownPaged = ownPages.get(blocks);
        const doc = ownPaged ? undefined : layoutChunk(f, blocks);
        const frameCount = doc ? framesOf(blocks, doc) : ownPaged!.length;
        const linkFrames = doc ? framesWithIds(doc, 'xl', linkCounts.get(doc) ?? 0, true) : new Set<number>();
        const sharedTop = sharedTops.get(blocks);
        if (sharedTop !== undefined && open && doc) {
          // The start of a continuous section, below the text of the page before.
          drawFrames(open.device, f, doc, Array.from({ length: Math.min(frameCount, f.columns) }, (_, k) => k), 0, sharedTop, linkFrames);
          // Its notes at the page's foot (one-column sections paged for their notes).
          const notes = footnotePages.get(blocks)?.notes;
          if (notes?.length) drawNotes(open.device, f, notesArea(notes, f.frameWidth));
          sectionPage++;
          doc.destroy();
          return;
        }
        const placeholderFrames = doc ? framesWithIds(doc, 'ph', placeholderCounts.get(doc) ?? 0) : new Set<number>();
        // The text of the shapes this chunk placed is laid out with the first area needed (areas.ts).
        const ahead = { PAGE: String(pageNumber + 1), NUMPAGES: String(total || pageNumber + 1), SECTIONPAGES: String(flowPages.get(f.flow) ?? sectionPage + 1) };
        for (const text of shapes.textsAhead()) area(text.blocks, text.width, ahead, true);
        const footnotePage = footnotePages.get(blocks);
        const pages = Math.ceil(frameCount / f.columns);
        for (let i = 0; i < pages; i++) {
          endPage();
          pageNumber++;
          sectionPage++;
          const fields = { PAGE: String(pageNumber), NUMPAGES: String(total || pageNumber), SECTIONPAGES: String(flowPages.get(f.flow) ?? sectionPage) };
          const kind = s.titlePage && sectionPage === 1 ? 'first' : s.evenAndOdd && pageNumber % 2 === 0 ? 'even' : 'default';
          // Headers and footers of plain paragraphs are laid out by our own engine for each page (placed by
          // the height MuPDF measures for them, once per width); others are MuPDF areas.
          const ownHeader = ownArea(s.headers[kind], width, fields);
          const ownFooter = ownArea(s.footers[kind], width, fields);
          const header = ownHeader ? undefined : area(s.headers[kind], width, fields);
          const footer = ownFooter ? undefined : area(s.footers[kind], width, fields);
          // A footnote page's notes sit at the foot of the text area, under their rule.
          const notes = footnotePage?.notes.length && i === 0 ? notesArea(footnotePage.notes, f.frameWidth) : undefined;
          // A page that shows metafiles or shapes goes through a device that draws them in place of their
          // stand-ins (and first through one that finds floating shapes); other pages skip it, as each
          // drawing call through it is a call into JavaScript.
          const pageFrames = Array.from({ length: f.columns }, (_, col) => i * f.columns + col).filter((frame) => frame < frameCount);
          const last = chunkIndex === f.flow.chunks.length - 1 && i === pages - 1;
          // Floating objects our own engine anchored, on the page (frame) and in its header and footer.
          const onPage = (list: PlacedFloat[], top: number) => list.map((fl) => ({ ...fl, x: g.marginLeft + fl.x, y: top + fl.y }));
          const floats = [
            ...onPage(ownPaged?.[i]!.floats ?? [], f.top),
            ...(ownHeader ? onPage(ownHeader.floats, g.header) : []),
            ...(ownFooter ? onPage(ownFooter.floats, g.height - g.footer - ownFooter.height) : []),
          ];
          const drawsItself = pageFrames.some((frame) => placeholderFrames.has(frame)) || [header, footer, notes].some((a) => a?.drawsItself) || (last && nextShares) || floats.length > 0;
          const pageDevice = beginPage(g);
          if (s.pageBorders && showsPageBorders(s.pageBorders, sectionPage)) drawPageBorders(mupdf, pageDevice, s.pageBorders, g, !!(header ?? ownHeader), !!(footer ?? ownFooter));
          open = { index: written++, pageDevice, device: drawsItself ? metafiles.wrap(pageDevice, fonts, shapes.handler('rest')) : pageDevice };
          const pageFrame: PageFrame = { ...g, columns: Array.from({ length: f.columns }, (_, col) => ({ left: g.marginLeft + col * (f.frameWidth + f.gap), width: f.frameWidth })) };
          shapes.beginPage(pageDevice, pageFrame, (b, w) => {
            const laid = area(b, w, fields);
            return laid && { height: laid.height, draw: (device, matrix) => areas.draw(laid, device, matrix) };
          });
          // Only the frames and areas that show placeholders go through the drawing device (`wrapped`);
          // the rest are drawn straight onto the page (`plain`), or skipped by the finding pass
          // (stress004: its header rules made every page's text go through JavaScript twice).
          const drawContent = (wrapped: Mupdf.Device, plain: Mupdf.Device | undefined, collectLinks: boolean) => {
            const pick = (drawsItself: boolean) => (drawsItself ? wrapped : plain);
            if (doc) drawFrames((frame) => pick(placeholderFrames.has(frame)), f, doc, pageFrames, i * f.columns, f.top, collectLinks ? linkFrames : undefined);
            else if (plain) ownDrawing.page(plain, open!.index, ownPaged![i]!, { left: g.marginLeft, top: f.top, width: f.frameWidth, height: f.frameHeight, pageHeight: g.height }, collectLinks);
            const notesDevice = notes && pick(notes.drawsItself);
            if (notes && notesDevice) drawNotes(notesDevice, f, notes);
            const run = (area: Area, top: number) => {
              const device = pick(area.drawsItself);
              if (device) areas.draw(area, device, mupdf.Matrix.translate(g.marginLeft, top));
            };
            if (header) run(header, g.header);
            if (footer) run(footer, g.height - g.footer - footer.height);
            if (plain && ownHeader) ownDrawing.lines(plain, open!.index, g.height, ownHeader.lines, g.marginLeft, g.header, collectLinks);
            if (plain && ownFooter) ownDrawing.lines(plain, open!.index, g.height, ownFooter.lines, g.marginLeft, g.height - g.footer - ownFooter.height, collectLinks);
          };
          // Drawn before the text with those the finding pass finds.
          for (const fl of floats) shapes.anchorAt(shapeApart(fl.item, shapes), fl.x, fl.y, fl.cellWidth);
          if (shapes.hasFloating && drawsItself) {
            // Floating shapes: a pass that draws nothing finds their anchors; they are drawn before the text.
            const finder = metafiles.wrap(undefined, fonts, shapes.handler('find'));
            drawContent(finder, undefined, false);
            finder.close();
            finder.destroy();
            shapes.drawFound();
          }
          drawContent(open.device, pageDevice, true);
        }
        doc?.destroy();
        mupdf.emptyStore();
      });
    });
    endPage();
    if (written === 0) {
      const blank = writer.beginPage([0, 0, 612, 792]);
      writer.endPage();
      blank.destroy();
    }
    writer.close();
    writer.destroy();
    // Internal links whose bookmark was drawn go to it; the others are left out.
    const within = internalLinks.flatMap((l) => {
      const at = targets.at(l.name);
      return at ? [{ page: l.page, rect: l.rect, to: at }] : [];
    });
    const chunks = finish(mupdf, out, links, pictures, outline, within, ownDrawing.text, (font) => fonts.bytesOf(font));
    out.destroy();
    return chunks;
  } finally {
    for (const doc of kept.values()) doc.destroy();
    areas.destroy();
    shapes.destroy();
  }
}
