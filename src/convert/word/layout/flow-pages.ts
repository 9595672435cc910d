/**
 * Layout's own pages painted onto the pages the writer makes (page-writer.ts): layout's display
 * list (layout/display/flow-pages.ts, layout/display/draw-lines.ts) drawn by paint (paint/display-painter.ts),
 * the text into each page's content stream (`text`, put into the PDF by pdf-finish), the links
 * reported to the writer.
 */
import type * as Mupdf from 'mupdf';
import type { DisplayItem } from '../../../contracts/display';
import { paintDisplay, type DrawPicture } from '../../../paint/display-painter';
import { PageText } from '../../../paint/page-text';
import type { ParagraphBlock } from '../../../layout/blocks/model';
import { displayLines } from '../../../layout/display/draw-lines';
import { displayFlowPage, type TextArea } from '../../../layout/display/flow-pages';
import type { FlowPage } from '../../../layout/pages/flow-page';
import type { PlacedLine } from '../../../layout/blocks/paragraph-stack';

export type { TextArea } from '../../../layout/display/flow-pages';

/** Where painting our pages reports to the writer: links (external, and to bookmarks by name) and paragraphs placed (headings, bookmarks). */
export interface FlowPageSinks {
  link(page: number, rect: Mupdf.Rect, uri: string): void;
  internalLink(page: number, rect: Mupdf.Rect, name: string): void;
  paragraphAt(p: ParagraphBlock, page: number, y: number): void;
}

export class FlowPages {
  readonly text = new PageText();

  constructor(
    private readonly mupdf: typeof Mupdf,
    private readonly drawPicture: DrawPicture,
    private readonly sinks: FlowPageSinks,
  ) {}

  /** Lines with their top-left at (left, top) of output page `page`; links reported only when `collectLinks`. */
  lines(device: Mupdf.Device, page: number, pageHeight: number, lines: PlacedLine[], left: number, top: number, collectLinks: boolean): void {
    this.paint(device, page, pageHeight, displayLines(lines, left, top, (p, y) => this.sinks.paragraphAt(p, page, y)), collectLinks);
  }

  /** A page of a stretch our engine paged: its lines in the text area, its notes at the area's foot under their rule. */
  page(device: Mupdf.Device, page: number, laid: FlowPage, area: TextArea, collectLinks: boolean): void {
    this.paint(device, page, area.pageHeight, displayFlowPage(laid, area, (p, y) => this.sinks.paragraphAt(p, page, y)), collectLinks);
  }

  private paint(device: Mupdf.Device, page: number, pageHeight: number, items: DisplayItem[], collectLinks: boolean): void {
    const { sinks } = this;
    paintDisplay(this.mupdf, device, items, this.drawPicture, {
      text: (t, x, baseline) => this.text.show(page, pageHeight, t, x, baseline),
      link: (rect, uri) => {
        if (!collectLinks) return;
        if (!uri.startsWith('#')) sinks.link(page, rect, uri);
        else if (uri.length > 1) sinks.internalLink(page, rect, uri.slice(1));
      },
    });
  }
}
