/**
 * Headers, footers, footnote areas and shapes' text: each laid out on its own in a tall scratch
 * frame, measured, then drawn where it goes. Opening a MuPDF document costs about a millisecond
 * whatever its size (its style sheet, fonts and boxes are set up each time), and a long document
 * needs hundreds of these areas (a footer per page number, a text box per diagram label: 443 in
 * GASU.docx), so they are laid out many to a document, each on a page of its own: the areas asked
 * for ahead (`want`) go into the document of the next one that is needed (`get`).
 */
import type * as Mupdf from 'mupdf';
import type { Block, Shape } from '../model/index';
import { contentHeight, htmlDocument, openHtml } from './html-doc';

type MupdfModule = typeof Mupdf;

/** A laid-out area: page `page` of `doc`, the bottom of its content `height` (plus what was asked). */
export interface Area {
  doc: Mupdf.Document;
  page: number;
  height: number;
  /** It shows metafiles or shapes (placeholders): it is drawn through the device that draws them. */
  drawsItself: boolean;
}

/** What an area is made of, asked for when it is laid out. */
export interface AreaSource {
  width: number;
  html(): { body: string; placeholders: number };
  /** Added to the measured height (the notes' descent), or the height itself when already known. */
  height?: { add: number } | { known: number };
}

const SCRATCH_HEIGHT = 2000;
/**
 * Ahead of each area: after a page break MuPDF drops the top margin of the first block on the new
 * page, which a header's spacing before would lose. An element before it keeps the margin; a
 * transparent border makes it an element (an empty div is dropped) that draws nothing and takes no room.
 */
const KEEP_MARGIN_HEIGHT = 0.001;
const KEEP_MARGIN = `<div style="border-top:${KEEP_MARGIN_HEIGHT}pt solid transparent"></div>`;
/** Areas laid out together at most (their HTML is parsed at once). */
const MOST_PER_DOCUMENT = 200;

export class AreaLayouts {
  private readonly laid = new Map<string, Area>();
  private readonly wanted = new Map<string, AreaSource>();
  private readonly docs: Mupdf.Document[] = [];

  constructor(
    private readonly mupdf: MupdfModule,
    private readonly em: number,
  ) {}

  /** Whether the area is laid out already. */
  has(key: string): boolean {
    return this.laid.has(key);
  }

  /** Queues an area to be laid out with the next one needed (nothing when it is laid out or queued). */
  want(key: string, source: AreaSource): void {
    if (!this.laid.has(key) && this.wanted.size < MOST_PER_DOCUMENT) this.wanted.set(key, source);
  }

  /** The area, laid out now with those queued unless it was before. */
  get(key: string, source: AreaSource): Area {
    const known = this.laid.get(key);
    if (known) return known;
    this.wanted.delete(key);
    const batch: [string, AreaSource][] = [[key, source], ...this.wanted];
    this.wanted.clear();
    const parts = batch.map(([, s]) => ({ source: s, ...s.html() }));
    const frame = Math.max(...parts.map((p) => p.source.width));
    // Each area a page of its own (a page break after each but the last), in a div of its width.
    const body = parts.map((p, i) => `<div style="width:${p.source.width}pt${i < parts.length - 1 ? ';page-break-after:always' : ''}">${KEEP_MARGIN}${p.body}</div>`).join('');
    const doc = openHtml(this.mupdf, htmlDocument(frame, SCRATCH_HEIGHT, [0, 0, 0, 0], body), frame, SCRATCH_HEIGHT, this.em);
    this.docs.push(doc);
    // A page per area, unless an area overran its scratch page (absurdly tall): then pages are not
    // areas, and each area is laid out on its own.
    const aligned = doc.countPages() === parts.length;
    batch.forEach(([k, s], i) => {
      if (!aligned && i > 0) return this.wanted.set(k, s);
      const h = s.height;
      const height = h && 'known' in h ? h.known : contentHeight(doc, i) + (h?.add ?? 0);
      this.laid.set(k, { doc, page: i, height, drawsItself: parts[i]!.placeholders > 0 });
    });
    return this.laid.get(key)!;
  }

  /** Draws an area with its top-left corner where `matrix` puts the origin. */
  draw(area: Area, device: Mupdf.Device, matrix: Mupdf.Matrix): void {
    const page = area.doc.loadPage(area.page);
    try {
      page.run(device, this.mupdf.Matrix.concat(this.mupdf.Matrix.translate(0, -KEEP_MARGIN_HEIGHT), matrix));
    } finally {
      page.destroy();
    }
  }

  destroy(): void {
    for (const doc of this.docs) doc.destroy();
    this.docs.length = 0;
    this.laid.clear();
    this.wanted.clear();
  }
}

/** Header and footer areas laid out ahead for the page numbers after the one asked for. */
const PAGES_AHEAD = 12;

type Fields = Partial<Record<'PAGE' | 'NUMPAGES' | 'SECTIONPAGES', string>>;

/**
 * Areas of blocks (headers, footers, shapes' text), one per distinct HTML: a header differs from
 * page to page only by its numbers, so its height is measured once (per width), and when a page
 * number's area is missing the next pages' are laid out with it.
 */
export class BlockAreas {
  private readonly heights = new WeakMap<Block[], Map<number, number>>();
  /** The fields each set of blocks shows, and its HTML by width and their values: made once for each. */
  private readonly made = new WeakMap<Block[], { shown: FieldName[]; html: Map<string, { body: string; placeholders: number }> }>();

  constructor(
    private readonly areas: AreaLayouts,
    private readonly html: (blocks: Block[], width: number, fields: Fields) => { body: string; placeholders: number },
  ) {}

  /**
   * The area of `blocks` laid out `width` wide with these field values; `want`: only queued;
   * `ahead`: the next pages' versions are queued with it (false where only a height is wanted:
   * measuring each section's header at page 1 queued 12 versions no page would draw, 18 sections'
   * worth in stress004.docx).
   */
  area(blocks: Block[] | undefined, width: number, fields: Fields, want = false, ahead = true): Area | undefined {
    if (!blocks?.length) return undefined;
    const own = this.htmlOf(blocks, width, fields);
    let heights = this.heights.get(blocks);
    if (!heights) this.heights.set(blocks, (heights = new Map()));
    const known = heights.get(width);
    const source = { width, html: () => own, height: known !== undefined ? { known } : undefined };
    const key = `${width}|${own.body}`;
    if (want) return void this.areas.want(key, source);
    if (ahead && !this.areas.has(key)) {
      for (let n = 1; n <= PAGES_AHEAD && fields.PAGE; n++) {
        const next = this.htmlOf(blocks, width, { ...fields, PAGE: String(Number(fields.PAGE) + n) });
        if (next.body === own.body) break; // the numbers show nowhere
        this.areas.want(`${width}|${next.body}`, { ...source, html: () => next });
      }
    }
    const laid = this.areas.get(key, source);
    if (known === undefined) heights.set(width, laid.height);
    return { ...laid, height: heights.get(width)! };
  }

  /**
   * The HTML of `blocks` at `width` with these field values, made again only when a field they show
   * changes: a header without page numbers was written anew for every page (and for the pages
   * ahead), a tenth of a 114-page document's time (stress004.docx).
   */
  private htmlOf(blocks: Block[], width: number, fields: Fields): { body: string; placeholders: number } {
    let made = this.made.get(blocks);
    if (!made) this.made.set(blocks, (made = { shown: [...fieldsShown(blocks)], html: new Map() }));
    const key = `${width}|${made.shown.map((name) => fields[name]).join('|')}`;
    let html = made.html.get(key);
    if (!html) made.html.set(key, (html = this.html(blocks, width, fields)));
    return html;
  }
}

type FieldName = keyof Fields;

/** The fields (PAGE, NUMPAGES, SECTIONPAGES) that blocks show, in their paragraphs, tables, text boxes and shapes. */
export function fieldsShown(blocks: Block[] | undefined, into = new Set<FieldName>()): Set<FieldName> {
  for (const b of blocks ?? []) {
    if (b.kind === 'table') for (const r of b.rows) for (const c of r.cells) fieldsShown(c.blocks, into);
    else for (const i of b.inlines) {
      if (i.kind === 'field') into.add(i.field);
      else if (i.kind === 'textbox') fieldsShown(i.blocks, into);
      else if (i.kind === 'shape') shapeFields(i, into);
    }
  }
  return into;
}
const shapeFields = (s: Shape, into: Set<FieldName>): void => {
  fieldsShown(s.blocks, into);
  for (const m of s.members ?? []) shapeFields(m, into);
};
