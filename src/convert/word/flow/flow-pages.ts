/** Our own engine's pages drawn onto the writer's pages (render.ts): lines, table cells, footnotes under their separator, and the text put into the PDF. */
import type * as Mupdf from 'mupdf';
import type { Paragraph } from '../model/index';
import { drawLines, drawRule, fillRects, type DrawPicture } from './draw-lines';
import { NOTE_SEPARATOR, type FlowPage } from './flow-page';
import type { PlacedLine } from './paragraph-stack';
import { PageText } from './page-text';

type MupdfModule = typeof Mupdf;

/** Where drawing our pages reports to render.ts: links (external, and to bookmarks by name) and paragraphs placed (headings, bookmarks). */
export interface FlowPageSinks {
  link(page: number, rect: Mupdf.Rect, uri: string): void;
  internalLink(page: number, rect: Mupdf.Rect, name: string): void;
  paragraphAt(p: Paragraph, page: number, y: number): void;
}

/** The part of a page our own engine fills: its text area (left, top, width, height) on a page `pageHeight` tall. */
export interface TextArea {
  left: number;
  top: number;
  width: number;
  height: number;
  pageHeight: number;
}

/**
 * Draws what our own engine laid out (flow/) onto the pages render.ts writes: lines of the body,
 * footnotes under their separator, headers and footers. The text goes into each page's content
 * stream (`text`, put into the PDF by pdf-finish); rules, shading and pictures through the device.
 */
export class FlowPages {
  readonly text = new PageText();

  constructor(
    private readonly mupdf: MupdfModule,
    private readonly drawPicture: DrawPicture,
    private readonly sinks: FlowPageSinks,
  ) {}

  /** Lines with their top-left at (left, top) of output page `page`; links reported only when `collectLinks`. */
  lines(device: Mupdf.Device, page: number, pageHeight: number, lines: PlacedLine[], left: number, top: number, collectLinks: boolean): void {
    const { sinks } = this;
    drawLines(this.mupdf, device, lines, left, top, this.drawPicture, {
      text: (t, x, baseline) => this.text.show(page, pageHeight, t, x, baseline),
      link: (rect, uri) => {
        if (!collectLinks) return;
        if (!uri.startsWith('#')) sinks.link(page, rect, uri);
        else if (uri.length > 1) sinks.internalLink(page, rect, uri.slice(1));
      },
      paragraphAt: (p, y) => sinks.paragraphAt(p, page, y),
    });
  }

  /** A page of a stretch our engine paged: its lines in the text area, its notes at the area's foot under their rule. */
  page(device: Mupdf.Device, page: number, laid: FlowPage, area: TextArea, collectLinks: boolean): void {
    // Table cells' shading, then their borders, under the text.
    if (laid.rects.length) fillRects(this.mupdf, device, laid.rects.map((r) => ({ x0: area.left + r.x0, y0: area.top + r.y0, x1: area.left + r.x1, y1: area.top + r.y1, color: r.color })));
    this.lines(device, page, area.pageHeight, laid.lines, area.left, area.top, collectLinks);
    const notes = laid.notesArea;
    if (!notes) return;
    const top = area.top + area.height - notes.height;
    drawRule(this.mupdf, device, area.left, top + NOTE_SEPARATOR.above, Math.min(NOTE_SEPARATOR.width, area.width), NOTE_SEPARATOR.thickness);
    this.lines(device, page, area.pageHeight, notes.lines, area.left, top, collectLinks);
  }
}
