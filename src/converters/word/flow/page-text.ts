import type * as Mupdf from 'mupdf';
import { deflateSync } from 'node:zlib';
import type { PlacedText } from './paragraph-lines';

/** Resource names of our faces in a page's /Font dictionary: apart from the writer's own (F0, F1…). */
const NAME_PREFIX = 'FL';
/** zlib level of the text streams: level 4 was within 2% of MuPDF's save at effort 45 for pictures, at a fraction of its time. */
const DEFLATE_LEVEL = 4;

const HEX: string[] = Array.from({ length: 0x10000 }, (_, i) => i.toString(16).padStart(4, '0'));
/** A number as content-stream syntax: two decimals at most. */
const num = (n: number): string => String(Math.round(n * 100) / 100);

/** A page's text so far: operators, the faces they name, the state they leave, and the TJ being written. */
interface PageContent {
  parts: string[];
  fonts: Set<Mupdf.Font>;
  font?: Mupdf.Font;
  size?: number;
  color?: string;
  open?: { baseline: number; end: number; items: string[] };
}

/**
 * The text of the pages our own engine laid out, written as content-stream operators directly
 * (glyph ids in the faces MuPDF's writer embeds, Identity-H) and put into the finished PDF beside
 * what the page device drew: MuPDF's PDF device formats each glyph apart, which cost as much as
 * laying the text out. Headers, footers, pictures and rules still go through the device.
 */
export class PageText {
  private readonly names = new Map<Mupdf.Font, string>();
  private readonly glyphIds = new Map<Mupdf.Font, Int32Array>();
  /** Content per output page: operators, and the faces they name. */
  private readonly pages = new Map<number, PageContent>();

  get size(): number {
    return this.pages.size;
  }

  /**
   * Shows `t` with its baseline at page y `baseline` (top-down) on a page `pageHeight` tall. Text
   * on one baseline in one face, size and colour goes into one TJ, the gaps between the pieces
   * (spaces, justification) as its displacements, as MuPDF's writer puts a line.
   */
  show(pageIndex: number, pageHeight: number, t: PlacedText, x: number, baseline: number): void {
    let page = this.pages.get(pageIndex);
    if (!page) this.pages.set(pageIndex, (page = { parts: [], fonts: new Set() }));
    const color = t.look.color ?? '000000';
    const open = page.open;
    if (open && open.baseline === baseline && page.font === t.font && page.size === t.size && page.color === color && x >= open.end - 0.01) {
      const gap = x - open.end;
      open.items.push(Math.abs(gap) > 0.005 ? `${num((-gap * 1000) / t.size)}<${this.hexOf(t.font, t.text)}>` : `<${this.hexOf(t.font, t.text)}>`);
      open.end = x + t.width;
      return;
    }
    this.close(page);
    const parts = page.parts;
    if (page.font !== t.font || page.size !== t.size) {
      parts.push(`/${this.nameOf(t.font)} ${num(t.size)} Tf`);
      page.fonts.add(t.font);
      page.font = t.font;
      page.size = t.size;
    }
    if (page.color !== color) {
      const n = parseInt(color, 16) || 0;
      parts.push(`${num((n >> 16) / 255)} ${num(((n >> 8) & 255) / 255)} ${num((n & 255) / 255)} rg`);
      page.color = color;
    }
    page.open = { baseline, end: x + t.width, items: [`1 0 0 1 ${num(x)} ${num(pageHeight - baseline)} Tm [<${this.hexOf(t.font, t.text)}>`] };
  }

  /** Ends the TJ being written on a page. */
  private close(page: PageContent): void {
    if (!page.open) return;
    page.parts.push(`${page.open.items.join('')}] TJ`);
    page.open = undefined;
  }

  /** Puts each page's text into the PDF: a content stream after the page's own (kept apart by q/Q), its faces in the page's resources. */
  writeInto(pdf: Mupdf.PDFDocument): void {
    const fontObjects = new Map<Mupdf.Font, Mupdf.PDFObject>();
    const save = pdf.addStream('q\n', {});
    const restore = pdf.addStream('\nQ\n', {});
    for (const [index, page] of this.pages) {
      this.close(page);
      const pageObj = pdf.findPage(index);
      let resources = pageObj.get('Resources');
      if (!resources.isDictionary()) pageObj.put('Resources', (resources = pdf.newDictionary()));
      let fonts = resources.get('Font');
      if (!fonts.isDictionary()) resources.put('Font', (fonts = pdf.newDictionary()));
      for (const font of page.fonts) {
        let obj = fontObjects.get(font);
        if (!obj) fontObjects.set(font, (obj = pdf.addFont(font)));
        fonts.put(this.nameOf(font), obj);
      }
      const text = `BT\n${page.parts.join('\n')}\nET\n`;
      const stream = pdf.addRawStream(deflateSync(new TextEncoder().encode(text), { level: DEFLATE_LEVEL }), { Filter: pdf.newName('FlateDecode') });
      const contents = pageObj.get('Contents');
      const list = pdf.newArray();
      list.push(save);
      if (contents.isArray()) contents.forEach((part) => list.push(part));
      else if (!contents.isNull()) list.push(contents);
      list.push(restore);
      list.push(stream);
      pageObj.put('Contents', list);
    }
  }

  private nameOf(font: Mupdf.Font): string {
    let name = this.names.get(font);
    if (!name) this.names.set(font, (name = `${NAME_PREFIX}${this.names.size}`));
    return name;
  }

  /** The text as 2-byte glyph ids of the face (its codes under Identity-H), each looked up once per face. */
  private hexOf(font: Mupdf.Font, text: string): string {
    let ids = this.glyphIds.get(font);
    if (!ids) this.glyphIds.set(font, (ids = new Int32Array(0x10000).fill(-1)));
    let hex = '';
    for (let i = 0; i < text.length; i++) {
      let cp = text.charCodeAt(i);
      if (cp >= 0xd800 && cp < 0xdc00 && i + 1 < text.length) {
        cp = text.codePointAt(i)!;
        i++;
        hex += HEX[font.encodeCharacter(cp) & 0xffff];
        continue;
      }
      let gid = ids[cp]!;
      if (gid < 0) ids[cp] = gid = Math.max(0, font.encodeCharacter(cp)) & 0xffff;
      hex += HEX[gid];
    }
    return hex;
  }
}
