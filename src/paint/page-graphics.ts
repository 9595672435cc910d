/**
 * The filled boxes and plain shapes of our own engine's pages written as content-stream operators
 * directly (`re f`, `m l S`), in a stream put before what the page device drew: a spreadsheet's
 * page is thousands of border and fill boxes, and MuPDF's PDF device formats each coordinate with
 * printf and writes a stream the finisher then scans for glyphs and deflates again (florida's 261
 * pages: a quarter of the conversion). The painter hands boxes here only until the device has
 * drawn something on the page, so the order things cover each other in is kept.
 */
import type * as Mupdf from 'mupdf';
import { deflateSync } from 'node:zlib';
import type { FilledBox, ShapeItem } from '../contracts/display';
import { latin1Bytes } from '../lib/latin1';

/** zlib level of the streams: as page-text.ts's, rules and boxes repeat as text does. */
const DEFLATE_LEVEL = 2;

/**
 * A coordinate in hundredths of a point: the stream starts with `0.01 0 0 0.01 0 0 cm`, so every
 * number it writes is an integer (a double's shortest form cost a fifth of writing the boxes).
 */
const num = (n: number): string => String(Math.round(n * 100));
/** A colour component: two decimals at most. */
const part = (n: number): string => String(Math.round(n * 100) / 100);

/** rrggbb as the three components of `rg`/`RG`; black when not a colour. */
function components(hex: string | undefined): string {
  const n = hex && /^[0-9a-fA-F]{6}$/.test(hex) ? parseInt(hex, 16) : 0;
  return `${part((n >> 16) / 255)} ${part(((n >> 8) & 255) / 255)} ${part((n & 255) / 255)}`;
}

interface PageContent {
  height: number;
  parts: string[];
  fill?: string;
  stroke?: string;
  width?: number;
  /** Boxes of the current colour written since the last `f`: a run is one path, filled once. */
  openBoxes?: boolean;
}

export class PageGraphics {
  private readonly pages = new Map<number, PageContent>();
  /** Deflated streams per page, in order. */
  private readonly sealed = new Map<number, Uint8Array[]>();

  /** Fills the box on page `pageIndex`, `pageHeight` tall (coordinates top-down, as the display list's). */
  fill(pageIndex: number, pageHeight: number, box: FilledBox): void {
    const page = this.pageOf(pageIndex, pageHeight);
    // A run of boxes of one colour is one path filled once (one winding): overlapping rules (a
    // cell's right border over the next one's left) then cover their pixels once, as the device's
    // one path did, not twice over at the edges where a rasteriser shades them.
    if (page.fill !== components(box.color)) this.fillColor(page, box.color);
    page.openBoxes = true;
    const [x0, x1] = box.x0 <= box.x1 ? [box.x0, box.x1] : [box.x1, box.x0];
    const [y0, y1] = box.y0 <= box.y1 ? [box.y0, box.y1] : [box.y1, box.y0];
    const [left, bottom] = [Math.round(x0 * 100), Math.round((pageHeight - y1) * 100)];
    page.parts.push(`${left} ${bottom} ${Math.round(x1 * 100) - left} ${Math.round((pageHeight - y0) * 100) - bottom} re`);
  }

  /** A closed polygon filled, and/or an open polyline stroked with butt ends and round joins (as display-painter.ts strokes them). */
  shape(pageIndex: number, pageHeight: number, shape: ShapeItem): void {
    if (shape.points.length < 2) return;
    const page = this.pageOf(pageIndex, pageHeight);
    this.closeBoxes(page);
    const path = shape.points.map(([x, y], i) => `${num(x)} ${num(pageHeight - y)} ${i ? 'l' : 'm'}`).join(' ');
    if (shape.fill) {
      this.fillColor(page, shape.fill);
      page.parts.push(`${path} h f`);
    }
    if (shape.stroke) {
      const color = components(shape.stroke.color);
      if (page.stroke !== color) page.parts.push(`${(page.stroke = color)} RG`);
      if (page.width !== shape.stroke.width) page.parts.push(`${num((page.width = shape.stroke.width))} w`);
      page.parts.push(`${path} S`);
    }
  }

  private fillColor(page: PageContent, hex: string | undefined): void {
    const color = components(hex);
    if (page.fill === color) return;
    this.closeBoxes(page);
    page.parts.push(`${(page.fill = color)} rg`);
  }

  private closeBoxes(page: PageContent): void {
    if (!page.openBoxes) return;
    page.parts.push('f');
    page.openBoxes = false;
  }

  private pageOf(pageIndex: number, height: number): PageContent {
    let page = this.pages.get(pageIndex);
    if (!page) this.pages.set(pageIndex, (page = { height, parts: ['q 0.01 0 0 0.01 0 0 cm 0 J 1 j 10 M'] }));
    return page;
  }

  /** Deflates a finished page's operators now, so a long workbook's are not all held as strings. */
  seal(pageIndex: number): void {
    const page = this.pages.get(pageIndex);
    if (!page) return;
    this.pages.delete(pageIndex);
    this.closeBoxes(page);
    const bytes = deflateSync(latin1Bytes(`${page.parts.join('\n')}\nQ\n`), { level: DEFLATE_LEVEL });
    const list = this.sealed.get(pageIndex);
    if (list) list.push(bytes);
    else this.sealed.set(pageIndex, [bytes]);
  }

  /** Puts each page's streams before its own content; returns their object numbers (they show no text: the font subsetter skips them). */
  writeInto(pdf: Mupdf.PDFDocument): Set<number> {
    const written = new Set<number>();
    for (const index of [...this.pages.keys()]) this.seal(index);
    for (const [index, streams] of this.sealed) {
      const pageObj = pdf.findPage(index);
      const list = pdf.newArray();
      for (const bytes of streams) {
        const stream = pdf.addRawStream(bytes, { Filter: pdf.newName('FlateDecode') });
        written.add(stream.asIndirect());
        list.push(stream);
      }
      const contents = pageObj.get('Contents');
      if (contents.isArray()) contents.forEach((part) => list.push(part));
      else if (!contents.isNull()) list.push(contents);
      pageObj.put('Contents', list);
    }
    this.sealed.clear();
    return written;
  }
}
