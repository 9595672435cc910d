/**
 * Pass 2 of render.ts: each flow's chunks laid out (or taken as kept), drawn page by page with
 * their headers, footers, footnotes, page borders and floating objects, and freed before the next.
 */
import type * as Mupdf from 'mupdf';
import type { Block, PageGeometry, Section } from '../model/index';
import { drawPageBorders, showsPageBorders } from './page-borders';
import { shapeApart } from './inline-shapes';
import type { PageFrame } from './shape-pictures';
import type { Flow, FlowFrame } from './flows';
import { framesWithIds } from './html-doc';
import type { Area } from './areas';
import type { FlowPage, PlacedFloat } from '../../../layout/pages/flow-page';
import type { DocumentLayouts } from './document-layouts';
import type { PageWriter } from './page-writer';

type Fields = { PAGE: string; NUMPAGES: string; SECTIONPAGES: string };
type OwnArea = NonNullable<ReturnType<DocumentLayouts['ownArea']>>;

/** A chunk being drawn: its layout (MuPDF's) or its pages (our own engine's), and which of its frames show links and stand-ins. */
interface Chunk {
  f: FlowFrame;
  doc: Mupdf.Document | undefined;
  ownPaged: FlowPage[] | undefined;
  frameCount: number;
  linkFrames: Set<number>;
  placeholderFrames: Set<number>;
  footnotePage: { notes: string[] } | undefined;
  /** This flow's last page is drawn with the next flow's shapes and metafiles on it (a continuous section). */
  lastShares: boolean;
}

/** One page of a chunk: its frames, headers and footers (MuPDF areas, or our own engine's lines), and its notes. */
interface PageContent {
  i: number;
  g: PageGeometry;
  pageFrames: number[];
  header?: Area;
  footer?: Area;
  ownHeader?: OwnArea;
  ownFooter?: OwnArea;
  notes?: Area;
}

export class FlowDrawer {
  /** The page within its section (the first page of a continuous section may be behind it, on the page before). */
  private sectionPage = 0;

  constructor(
    private readonly d: DocumentLayouts,
    private readonly w: PageWriter,
    private readonly frames: FlowFrame[],
    private readonly flowPages: Map<Flow, number>,
    /** All the document's pages, when counted (0: not). */
    private readonly total: number,
  ) {}

  drawAll(): void {
    this.frames.forEach((f, flowIndex) => this.drawFlow(f, flowIndex));
  }

  private drawFlow(f: FlowFrame, flowIndex: number): void {
    const { d, w } = this;
    const s = f.flow.section;
    if (s.pageNumberStart !== undefined) w.pageNumber = s.pageNumberStart - 1;
    // A section that starts on an odd (even) page gets a blank page before it when needed, as in print.
    if (w.written > 0 && ((s.start === 'oddPage' && w.pageNumber % 2 === 1) || (s.start === 'evenPage' && w.pageNumber % 2 === 0))) {
      w.endPage();
      w.blankPage(s.page);
    }
    // Shapes and metafiles of a continuous section drawn on this flow's last page need its device.
    const nextShares = !!this.frames[flowIndex + 1]?.flow.continues && (d.metafiles.size > 0 || d.shapes.size > 0);
    // A continuous section that could not start on the page before still began there: its first page is behind it.
    this.sectionPage = f.flow.continues === false ? 1 : 0;
    f.flow.chunks.forEach((blocks, chunkIndex) => this.drawChunk(f, blocks, nextShares && chunkIndex === f.flow.chunks.length - 1));
  }

  private drawChunk(f: FlowFrame, blocks: Block[], lastShares: boolean): void {
    const { d, w } = this;
    const ownPaged = d.ownPages.get(blocks);
    const doc = ownPaged ? undefined : d.layoutChunk(f, blocks);
    const frameCount = doc ? d.framesOf(blocks, doc) : ownPaged!.length;
    const linkFrames = doc ? framesWithIds(doc, 'xl', d.linkCounts.get(doc) ?? 0, true) : new Set<number>();
    const sharedTop = d.sharedTops.get(blocks);
    if (sharedTop !== undefined && w.open && doc) {
      // The start of a continuous section, below the text of the page before.
      w.drawFrames(w.open.device, f, doc, Array.from({ length: Math.min(frameCount, f.columns) }, (_, k) => k), 0, sharedTop, linkFrames);
      // Its notes at the page's foot (one-column sections paged for their notes).
      const notes = d.footnotePages.get(blocks)?.notes;
      if (notes?.length) d.drawNotes(w.open.device, f, d.notesArea(notes, f.frameWidth));
      this.sectionPage++;
      doc.destroy();
      return;
    }
    const placeholderFrames = doc ? framesWithIds(doc, 'ph', d.placeholderCounts.get(doc) ?? 0) : new Set<number>();
    // The text of the shapes this chunk placed is laid out with the first area needed (areas.ts).
    const ahead = this.fields(w.pageNumber + 1, this.sectionPage + 1, f.flow);
    for (const text of d.shapes.textsAhead()) d.area(text.blocks, text.width, ahead, true);
    const chunk: Chunk = { f, doc, ownPaged, frameCount, linkFrames, placeholderFrames, footnotePage: d.footnotePages.get(blocks), lastShares };
    const pages = Math.ceil(frameCount / f.columns);
    for (let i = 0; i < pages; i++) this.drawPage(chunk, i, i === pages - 1);
    doc?.destroy();
    d.mupdf.emptyStore();
  }

  /** The field values of a page: its number, the document's pages, its section's pages (counted, or as far as known). */
  private fields(page: number, sectionPage: number, flow: Flow): Fields {
    return { PAGE: String(page), NUMPAGES: String(this.total || page), SECTIONPAGES: String(this.flowPages.get(flow) ?? sectionPage) };
  }

  /** Page `i` of a chunk (`last`: of the chunk), drawn on a new page of the writer's. */
  private drawPage(chunk: Chunk, i: number, last: boolean): void {
    const { d, w } = this;
    const { f, ownPaged } = chunk;
    const s = f.flow.section;
    const g = s.page;
    w.endPage();
    w.pageNumber++;
    this.sectionPage++;
    const fields = this.fields(w.pageNumber, this.sectionPage, f.flow);
    const page = this.pageContent(chunk, s, i, fields);
    // Floating objects our own engine anchored, on the page (frame) and in its header and footer.
    const onPage = (list: PlacedFloat[], top: number) => list.map((fl) => ({ ...fl, x: g.marginLeft + fl.x, y: top + fl.y }));
    const { ownHeader, ownFooter, header, footer, notes } = page;
    const floats = [
      ...onPage(ownPaged?.[i]!.floats ?? [], f.top),
      ...(ownHeader ? onPage(ownHeader.floats, g.header) : []),
      ...(ownFooter ? onPage(ownFooter.floats, g.height - g.footer - ownFooter.height) : []),
    ];
    // A page that shows metafiles or shapes goes through a device that draws them in place of their
    // stand-ins (and first through one that finds floating shapes); other pages skip it, as each
    // drawing call through it is a call into JavaScript.
    const drawsItself = page.pageFrames.some((frame) => chunk.placeholderFrames.has(frame)) || [header, footer, notes].some((a) => a?.drawsItself) || (last && chunk.lastShares) || floats.length > 0;
    const pageDevice = w.beginPage(g);
    if (s.pageBorders && showsPageBorders(s.pageBorders, this.sectionPage)) drawPageBorders(d.mupdf, pageDevice, s.pageBorders, g, !!(header ?? ownHeader), !!(footer ?? ownFooter));
    const open = (w.open = { index: w.written++, pageDevice, device: drawsItself ? d.metafiles.wrap(pageDevice, d.fonts, d.shapes.handler('rest')) : pageDevice });
    const pageFrame: PageFrame = { ...g, columns: Array.from({ length: f.columns }, (_, col) => ({ left: g.marginLeft + col * (f.frameWidth + f.gap), width: f.frameWidth })) };
    d.shapes.beginPage(pageDevice, pageFrame, (b, width) => {
      const laid = d.area(b, width, fields);
      return laid && { height: laid.height, draw: (device, matrix) => d.areas.draw(laid, device, matrix) };
    });
    // Drawn before the text with those the finding pass finds.
    for (const fl of floats) d.shapes.anchorAt(shapeApart(d.blocks.floatAt(fl.ref), d.shapes), fl.x, fl.y, fl.cellWidth);
    if (d.shapes.hasFloating && drawsItself) {
      // Floating shapes: a pass that draws nothing finds their anchors; they are drawn before the text.
      const finder = d.metafiles.wrap(undefined, d.fonts, d.shapes.handler('find'));
      this.drawContent(chunk, page, finder, undefined, false);
      finder.close();
      finder.destroy();
      d.shapes.drawFound();
    }
    this.drawContent(chunk, page, open.device, pageDevice, true);
  }

  /**
   * What page `i` shows besides its frames' text. Headers and footers of plain paragraphs are laid
   * out by our own engine for each page (placed by the height MuPDF measures for them, once per
   * width); others are MuPDF areas. A footnote page's notes sit at the foot of the text area, under their rule.
   */
  private pageContent(chunk: Chunk, s: Section, i: number, fields: Fields): PageContent {
    const { d } = this;
    const { f } = chunk;
    const g = s.page;
    const width = g.width - g.marginLeft - g.marginRight;
    const kind = s.titlePage && this.sectionPage === 1 ? 'first' : s.evenAndOdd && this.w.pageNumber % 2 === 0 ? 'even' : 'default';
    const ownHeader = d.ownArea(s.headers[kind], width, fields);
    const ownFooter = d.ownArea(s.footers[kind], width, fields);
    const header = ownHeader ? undefined : d.area(s.headers[kind], width, fields);
    const footer = ownFooter ? undefined : d.area(s.footers[kind], width, fields);
    const footnotePage = chunk.footnotePage;
    const notes = footnotePage?.notes.length && i === 0 ? d.notesArea(footnotePage.notes, f.frameWidth) : undefined;
    const pageFrames = Array.from({ length: f.columns }, (_, col) => i * f.columns + col).filter((frame) => frame < chunk.frameCount);
    return { i, g, pageFrames, header, footer, ownHeader, ownFooter, notes };
  }

  /**
   * Only the frames and areas that show placeholders go through the drawing device (`wrapped`);
   * the rest are drawn straight onto the page (`plain`), or skipped by the finding pass
   * (stress004: its header rules made every page's text go through JavaScript twice).
   */
  private drawContent(chunk: Chunk, page: PageContent, wrapped: Mupdf.Device, plain: Mupdf.Device | undefined, collectLinks: boolean): void {
    const { d, w } = this;
    const { f, doc, ownPaged } = chunk;
    const { i, g, header, footer, ownHeader, ownFooter, notes } = page;
    const index = w.open!.index;
    const pick = (drawsItself: boolean) => (drawsItself ? wrapped : plain);
    if (doc) w.drawFrames((frame) => pick(chunk.placeholderFrames.has(frame)), f, doc, page.pageFrames, i * f.columns, f.top, collectLinks ? chunk.linkFrames : undefined);
    else if (plain) w.ownDrawing.page(plain, index, ownPaged![i]!, { left: g.marginLeft, top: f.top, width: f.frameWidth, height: f.frameHeight, pageHeight: g.height }, collectLinks);
    const notesDevice = notes && pick(notes.drawsItself);
    if (notes && notesDevice) d.drawNotes(notesDevice, f, notes);
    const run = (area: Area, top: number) => {
      const device = pick(area.drawsItself);
      if (device) d.areas.draw(area, device, d.mupdf.Matrix.translate(g.marginLeft, top));
    };
    if (header) run(header, g.header);
    if (footer) run(footer, g.height - g.footer - footer.height);
    if (plain && ownHeader) w.ownDrawing.lines(plain, index, g.height, ownHeader.lines, g.marginLeft, g.header, collectLinks);
    if (plain && ownFooter) w.ownDrawing.lines(plain, index, g.height, ownFooter.lines, g.marginLeft, g.height - g.footer - ownFooter.height, collectLinks);
  }
}
