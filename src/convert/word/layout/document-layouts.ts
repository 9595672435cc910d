/**
 * What a Word document is drawn with (render.ts): its faces, pictures, shapes and areas, and the
 * laid-out chunks of its body, kept between the planning, counting and writing passes, with the
 * ids each holds (links, stand-ins, headings, link targets) and how many of its frames are drawn.
 */
import type * as Mupdf from 'mupdf';
import type { FontFiles } from '../../../fonts/catalog';
import type { Block, Paragraph, Table, WordDocument } from '../model/index';
import { blocksHtml, blocksWithin, type BlockContext } from './block-html';
import { holdsTogether, keepsWithNext } from '../rules/keeps';
import { KEEP_ROUNDS, MOST_KEPT_WITH_NEXT, moveKeptWithNext, withPageBreaks } from './keep-with-next';
import { MetafilePictures } from './metafile-device';
import { FontBook } from '../../../layout/text/font-book';
import { PicturePassThrough } from './picture-passthrough';
import { headerFramesAsFloatingBoxes } from './frames';
import { DocumentOutline } from './outline';
import { LinkTargets } from './link-targets';
import type { FootnotePage } from './footnote-pages';
import { callsNotes, notesHtml, NOTE_DESCENT, NOTE_RULE } from './notes-html';
import type { PageMarks } from './inline-context';
import { ShapePictures } from './shape-pictures';
import type { FlowFrame } from './flows';
import { contentHeight, htmlDocument, openHtml } from './html-doc';
import { AreaLayouts, BlockAreas, type Area } from './areas';
import type { ChunkRegistry } from './continuous-columns';
import { laysOutArea, laysOutItself } from '../blocks/eligible';
import { WordBlocks } from '../blocks/to-blocks';
import { paginate } from '../../../layout/pages/paginate';
import { floatsOf, type FlowPage } from '../../../layout/pages/flow-page';
import { stackParagraphs } from '../../../layout/blocks/paragraph-stack';
import type { LineContext } from '../../../layout/blocks/paragraph-lines';
import { tableRows } from '../../../layout/tables/table-rows';
import type { ProblemSink } from '../../problems';

type MupdfModule = typeof Mupdf;

/** HTML of laid-out chunks kept between the counting and the writing pass, at most (about 10x that in MuPDF's heap). */
const KEEP_LAID_OUT_BYTES = 2_000_000;

export interface RenderOptions {
  /** Stretches of plain paragraphs go to layout's own line breaker and pager (layout/); false: all to MuPDF's HTML engine (tests of that path). */
  ownLayout?: boolean;
  /** Told of each picture left blank because no decoder reads it. */
  onProblem?: ProblemSink;
}

/** A heading (hd) or link target (an) written into a chunk: its index, and where it landed (frame and y) once looked up. */
type PlacedId = { prefix: 'hd' | 'an'; k: number };

export class DocumentLayouts {
  readonly fonts: FontBook;
  /** The document's default font size (points). */
  readonly em: number;
  /** The document, its headers' frames as floating boxes. */
  readonly model: WordDocument;
  /** EMF/WMF pictures: placeholders in the HTML, drawn as vectors by the page device. */
  readonly metafiles: MetafilePictures;
  /** Raster pictures: placeholders in the HTML and in floating shapes, the pictures put into the PDF at the end (PNGs as they are). */
  readonly pictures: PicturePassThrough;
  /** Shapes: placeholders in the HTML too, drawn by the same page device as metafiles (shape-pictures.ts). */
  readonly shapes: ShapePictures;
  /** Laid-out header, footer and footnote areas by key; `drawsItself`: it shows metafiles or shapes. */
  readonly areas: AreaLayouts;
  /** Header, footer and shape text areas (areas.ts). */
  private readonly blockAreas: BlockAreas;
  // Bookmarks from the headings (outline.ts) and the targets of links within the document (link-targets.ts).
  readonly outline = new DocumentOutline();
  readonly targets = new LinkTargets();
  /** What layout's own engine lays paragraphs out with: fields are the page's in headers and footers. */
  readonly lineContext: LineContext & { sum: boolean };
  /** The document's blocks as layout's block model (each made once). */
  readonly blocks: WordBlocks;
  // Chunks laid out before the writing pass (to count pages, or to page them) are kept for it while
  // their HTML stays small in total (text-only documents are laid out once); others are laid out again.
  private readonly kept = new Map<Block[], Mupdf.Document>();
  private keptBytes = 0;
  private readonly htmlBytes = new WeakMap<Mupdf.Document, number>();
  /**
   * Chunks whose page count is known before they are drawn: a footnote page is one frame, a stretch
   * cut where a table's header rows repeat is the frames before the cut (its layout may hold more).
   */
  readonly chunkFrames = new WeakMap<Block[], number>();
  /** External links (ids xl0…) and metafile or shape stand-ins (ph0…) in each laid-out chunk. */
  readonly linkCounts = new WeakMap<Mupdf.Document, number>();
  readonly placeholderCounts = new WeakMap<Mupdf.Document, number>();
  /** The headings' and link targets' ids each laid-out chunk holds (hd<n>, an<n>), and where they landed in it. */
  private readonly placedIds = new WeakMap<Mupdf.Document, PlacedId[]>();
  private readonly places = new WeakMap<Mupdf.Document, (PlacedId & { frame: number; y: number })[]>();
  /** Stretches with footnotes are paged one page at a time (footnote-pages.ts): each page's layout, its height and notes. */
  readonly footnotePages = new WeakMap<Block[], FootnotePage>();
  /** Stretches layout's own engine paged (layout/pages/): each page's lines and notes. */
  readonly ownPages = new WeakMap<Block[], FlowPage[]>();
  /** A continuous section with other columns starts below the text of the page before (continuous-columns.ts): its top there. */
  readonly sharedTops = new WeakMap<Block[], number>();
  /** Which headers and footers are plain paragraphs our own engine lays out: asked once, not per page. */
  private readonly ownAreas = new WeakMap<Block[], boolean>();

  constructor(
    document: WordDocument,
    readonly mupdf: MupdfModule,
    files: FontFiles,
    readonly options: RenderOptions,
  ) {
    const fonts = (this.fonts = FontBook.shared(mupdf, files));
    fonts.install();
    const em = (this.em = document.defaultSize || 11);
    const model = (this.model = headerFramesAsFloatingBoxes(document, { fonts, defaultFont: document.defaultFont, defaultSize: em }));
    const metafiles = (this.metafiles = new MetafilePictures(mupdf));
    const pictures = (this.pictures = new PicturePassThrough(mupdf, options.onProblem));
    this.shapes = new ShapePictures(mupdf, (device, picture, ctm) => metafiles.draw(device, picture.data, picture.contentType, ctm, fonts), (data, crop) => pictures.placeholderImage(data, crop), fonts, (blocks, height, width) => blocksWithin(blocks, height, width, this.ctx(), 'starts within'), (content) => pictures.contentImage(content));
    this.areas = new AreaLayouts(mupdf, em);
    // `want`: only queued, laid out with the next one needed.
    this.blockAreas = new BlockAreas(this.areas, (blocks, width, fields) => {
      const c = { ...this.ctx(fields), placeholderIds: { count: 0 }, floatsOutOfFlow: true };
      return { body: blocksHtml(blocks, width, c), placeholders: c.placeholderIds.count };
    });
    this.lineContext = { fonts, noLeading: model.noLeading, fields: {}, sum: model.paragraphSpacing === 'sum' };
    this.blocks = new WordBlocks({ defaultFont: model.defaultFont, defaultSize: em });
  }

  /** The context blocks are written to HTML with: `fields` the page's values, `columnLeft` the column's left edge on the page. */
  ctx(fields: BlockContext['fields'] = {}, columnLeft?: number): BlockContext {
    const { fonts, model, em, metafiles, shapes, pictures } = this;
    return { fonts, defaultFont: model.defaultFont, defaultSize: em, fields, noteRefs: [], columnLeft, paragraphSpacing: model.paragraphSpacing, noLeading: model.noLeading, metafiles, shapes, pictures };
  }

  /** A header, footer or shape text area (areas.ts); `want`: only queued, laid out with the next one needed. */
  area(blocks: Block[] | undefined, width: number, fields: BlockContext['fields'], want = false, ahead = true): Area | undefined {
    return this.blockAreas.area(blocks, width, fields, want, ahead);
  }

  /** Footnotes at the foot of a page: laid out once per set of notes (a page's notes are measured, then drawn). */
  notesArea(ids: string[], width: number): Area {
    return this.areas.get(`notes|${width}|${ids.join(',')}`, {
      width,
      html: () => {
        const c = { ...this.ctx(), placeholderIds: { count: 0 } };
        const body = NOTE_RULE + ids.map((id) => blocksHtml(this.model.notes.get(id) ?? [], width, c)).join('');
        return { body, placeholders: c.placeholderIds.count };
      },
      height: { add: NOTE_DESCENT },
    });
  }

  /** A page's footnotes at the foot of its text area, under their rule. */
  drawNotes(target: Mupdf.Device, f: FlowFrame, notes: Area): void {
    this.areas.draw(notes, target, this.mupdf.Matrix.translate(f.flow.section.page.marginLeft, f.top + f.frameHeight - notes.height));
  }

  /**
   * Blocks laid out by MuPDF in frames of the flow's width (`frameHeight` tall, the footnote page's
   * or the flow's by default): with column-break spacers measured, blocks kept with the next moved
   * to their page, and the ids the chunk holds counted.
   */
  laidOut(f: FlowFrame, blocks: Block[], rowAnchors?: Map<Table, string>, marks?: PageMarks, frameHeight?: number): { doc: Mupdf.Document; body: string; noteRefs: string[] } {
    const page = this.footnotePages.get(blocks);
    const height = frameHeight ?? page?.frameHeight ?? f.frameHeight;
    // Keep-with-next in one-column stretches that are not paged for footnotes (see keptWithNext).
    const keepCount = !marks && f.columns === 1 ? blocks.filter((b) => keepsWithNext(b) || holdsTogether(b)).length : 0;
    const keeps = keepCount > 0 && keepCount <= MOST_KEPT_WITH_NEXT ? { depth: 0, breakBefore: new Set<number>(), breakAt: new Map<number, number>() } : undefined;
    const build = (spacers: number[]) => {
      // Column breaks count in multi-column flows (one-column ones made them page breaks). The
      // caller's marks describe the last build: they are filled again from the start.
      const columnBreaks = f.columns > 1 ? { depth: 0, count: 0, spacers } : undefined;
      if (marks) Object.assign(marks, { depth: 0, block: 0, refs: 0 }).words.length = 0;
      const headings = { index: (p: Paragraph) => this.outline.index(p), found: [] as number[] };
      const linkTargets = { index: (p: Paragraph) => this.targets.index(p), found: [] as number[] };
      const c = { ...this.ctx({}, f.flow.section.page.marginLeft), rowAnchors, linkIds: { count: 0 }, placeholderIds: { count: 0 }, marks, columnBreaks, headings, linkTargets, keeps };
      let body = blocksHtml(blocks, f.frameWidth, c);
      // Footnotes go at the foot of their page when the stretch is paged for them; otherwise after it.
      if (c.noteRefs.length && !page && !marks) body += notesHtml(c.noteRefs, this.model, f.frameWidth, c);
      return { c, body, doc: open(body) };
    };
    const open = (body: string) => openHtml(this.mupdf, htmlDocument(f.frameWidth, height, [0, 0, 0, 0], body), f.frameWidth, height, this.em);
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
    this.linkCounts.set(doc, c.linkIds.count);
    this.placeholderCounts.set(doc, c.placeholderIds.count);
    const ids = [...c.headings.found.map((k) => ({ prefix: 'hd' as const, k })), ...c.linkTargets.found.map((k) => ({ prefix: 'an' as const, k }))];
    if (ids.length) this.placedIds.set(doc, ids);
    this.htmlBytes.set(doc, body.length);
    return { doc, body, noteRefs: c.noteRefs };
  }

  /** Keeps a chunk's layout for the writing pass; false when over the budget (the caller destroys it). */
  keepLaidOut(blocks: Block[], doc: Mupdf.Document): boolean {
    const bytes = this.htmlBytes.get(doc) ?? 0;
    if (this.keptBytes + bytes > KEEP_LAID_OUT_BYTES) return false;
    this.keptBytes += bytes;
    this.kept.set(blocks, doc);
    return true;
  }

  /** Whether a chunk's layout is kept for the writing pass. */
  isKept(blocks: Block[]): boolean {
    return this.kept.has(blocks);
  }

  /** A chunk's layout: the one kept (handed over), or a new one (kept too, within the budget, when `keep`). */
  layoutChunk(f: FlowFrame, blocks: Block[], keep = false, rowAnchors?: Map<Table, string>): Mupdf.Document {
    const ready = this.kept.get(blocks);
    if (ready) {
      this.kept.delete(blocks);
      return ready;
    }
    const paged = this.footnotePages.get(blocks);
    const marks = paged?.marked ? { depth: 0, block: 0, fine: paged.marked.fine, words: [], refs: 0 } : undefined;
    const { doc } = this.laidOut(f, blocks, rowAnchors, marks);
    if (keep) this.keepLaidOut(blocks, doc);
    return doc;
  }

  /** How many frames of a chunk's layout are drawn. */
  framesOf(blocks: Block[], doc: Mupdf.Document): number {
    return Math.min(doc.countPages(), this.chunkFrames.get(blocks) ?? Infinity);
  }

  /**
   * A stretch paged by our own engine, or undefined when it fails on it: the stretch then goes to
   * MuPDF's HTML engine like any other, and the document still converts.
   */
  ownPaging(blocks: Block[], f: FlowFrame): FlowPage[] | undefined {
    try {
      const notes = this.model.notes;
      return paginate(this.blocks.blocks(blocks), f.frameWidth, f.frameHeight, this.lineContext, (id) => {
        const body = notes.get(id);
        return body && this.blocks.paragraphsOf(body);
      });
    } catch {
      return undefined;
    }
  }

  /**
   * How tall a table of header rows lays out (Infinity: more than a frame): measured by our own
   * engine where it lays the rows out, else by MuPDF (repeat-headers.ts withRepeatableHeaders).
   */
  headerRowsHeight(t: Table, f: FlowFrame): number {
    if (this.options.ownLayout !== false && laysOutItself([t], this.model)) {
      try {
        return tableRows(this.blocks.table(t), f.frameWidth, this.lineContext, new Map()).reduce((sum, row) => sum + row.height, 0);
      } catch {
        // measured by MuPDF instead
      }
    }
    // Laid out as the stretch would be, but without ids for headings and link targets (not placed from here).
    const body = blocksHtml([t], f.frameWidth, { ...this.ctx({}, f.flow.section.page.marginLeft), placeholderIds: { count: 0 } });
    const doc = openHtml(this.mupdf, htmlDocument(f.frameWidth, f.frameHeight, [0, 0, 0, 0], body), f.frameWidth, f.frameHeight, this.em);
    try {
      return doc.countPages() > 1 ? Infinity : contentHeight(doc, 0);
    } finally {
      doc.destroy();
    }
  }

  /**
   * A header or footer of plain paragraphs laid out by our own engine with the page's field values,
   * and the height MuPDF measures for it (what places a footer, and the body below a tall header).
   */
  ownArea(blocks: Block[] | undefined, width: number, fields: BlockContext['fields']) {
    if (this.options.ownLayout === false || !blocks?.length) return undefined;
    let plain = this.ownAreas.get(blocks);
    if (plain === undefined) this.ownAreas.set(blocks, (plain = laysOutArea(blocks, this.model)));
    if (!plain) return undefined;
    const measured = this.area(blocks, width, { PAGE: '1', NUMPAGES: '1', SECTIONPAGES: '1' }, false, false);
    if (!measured) return undefined;
    try {
      const lines = stackParagraphs(this.blocks.paragraphsOf(blocks), width, { ...this.lineContext, fields }).lines;
      return { lines, height: measured.height, floats: floatsOf(lines) };
    } catch {
      return undefined; // drawn as a MuPDF area instead
    }
  }

  /** Where the headings and link targets of a laid-out chunk landed (frame and y), looked up once per chunk. */
  placesIn(doc: Mupdf.Document): (PlacedId & { frame: number; y: number })[] {
    let found = this.places.get(doc);
    if (!found) {
      found = (this.placedIds.get(doc) ?? []).map(({ prefix, k }) => {
        const at = doc.resolveLinkDestination(`#${prefix}${k}`);
        return { prefix, k, frame: at.page, y: at.y };
      });
      this.places.set(doc, found);
    }
    return found;
  }

  /** The chunks as continuous-columns.ts lays them out, measures and keeps them. */
  registry(): ChunkRegistry {
    return {
      layout: (f, blocks, height, marks) => this.laidOut(f, blocks, undefined, marks, height).doc,
      relayout: (f, doc, height) => doc.layout(f.frameWidth, height, this.em),
      measure: (f, blocks) => {
        const ready = this.kept.get(blocks);
        if (ready) return { doc: ready, owned: false };
        const doc = this.layoutChunk(f, blocks, true);
        return { doc, owned: !this.kept.has(blocks) };
      },
      keep: (blocks, doc) => this.keepLaidOut(blocks, doc),
      callsNotes: (blocks) => callsNotes(blocks, this.model),
      pages: this.footnotePages,
      frames: this.chunkFrames,
      framesOf: (blocks, doc) => this.framesOf(blocks, doc),
      tops: this.sharedTops,
    };
  }

  destroy(): void {
    for (const doc of this.kept.values()) doc.destroy();
    this.areas.destroy();
    this.shapes.destroy();
  }
}
