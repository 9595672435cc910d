/** The text of our own engine's pages as content-stream operators in the faces we embed (embedded-faces.ts), put into the finished PDF beside what the page device drew. */
import type * as Mupdf from 'mupdf';
import { deflateSync } from 'node:zlib';
import type { ShownText } from '../contracts/display';
import { embedFace } from './embedded-faces';
import { latin1Bytes } from '../lib/latin1';
import { slotOf, TABLE_SLOTS } from '../fonts/glyph-slots';

/** Resource names of our faces in a page's /Font dictionary: apart from the writer's own (F0, F1…). */
const NAME_PREFIX = 'FL';
/** zlib level of the text streams: stress008's 1.9 MB of text took 18 ms at level 2 for 455 KB, 26 ms at 4 for 400 KB, 58 ms at 6 for 362 KB. */
const DEFLATE_LEVEL = 2;

/** A byte in a literal string: the delimiters and backslash escaped, and the line ends (a reader would normalise them). */
const byteChar = (b: number): string => (b === 0x28 || b === 0x29 || b === 0x5c ? `\\${String.fromCharCode(b)}` : b === 0x0d ? '\\r' : b === 0x0a ? '\\n' : String.fromCharCode(b));
/**
 * Each 2-byte code as literal-string characters (one per byte, written as Latin-1): half the bytes
 * of hex, which deflating and building the stream pay for (stress008: 1.9 MB of text as hex).
 */
const CODE: string[] = [];
/** A glyph id's code, made once (faces have a few thousand glyphs: the table is filled as they are met). */
const code = (gid: number): string => (CODE[gid] ??= byteChar(gid >> 8) + byteChar(gid & 0xff));
/** A number as content-stream syntax: two decimals at most. */
const num = (n: number): string => String(Math.round(n * 100) / 100);

/** A page's text so far: operators, the faces they name, the state they leave, and the TJ being written. */
interface PageContent {
  parts: string[];
  /** Text already sealed (seal): deflated content streams, in order. */
  sealed: Uint8Array[];
  /** The first of `sealed` that lies over the page's second layer of graphics (over). */
  overFrom?: number;
  fonts: Set<Mupdf.Font>;
  font?: Mupdf.Font;
  size?: number;
  color?: string;
  open?: { baseline: number; end: number; items: string[] };
}

/**
 * The text of the pages our own engine laid out, written as content-stream operators directly
 * (glyph ids in the faces we embed, Identity-H, as literal strings) and put into the finished PDF beside
 * what the page device drew: MuPDF's PDF device formats each glyph apart, which cost as much as
 * laying the text out. Headers, footers, pictures and rules still go through the device.
 */
/** Streams of a second layer on pages that had no text to go between: after the page's content. */
function appendLeft(pdf: Mupdf.PDFDocument, over: Map<number, Mupdf.PDFObject[]> | undefined): void {
  for (const [index, upper] of over ?? []) {
    const pageObj = pdf.findPage(index);
    const contents = pageObj.get('Contents');
    const list = pdf.newArray();
    if (contents.isArray()) contents.forEach((part) => list.push(part));
    else if (!contents.isNull()) list.push(contents);
    for (const stream of upper) list.push(stream);
    pageObj.put('Contents', list);
  }
  over?.clear();
}

export class PageText {
  private readonly names = new Map<Mupdf.Font, string>();
  private readonly glyphIds = new Map<Mupdf.Font, Int32Array>();
  /** Per face, the glyphs shown and the character each shows (the first met). */
  private readonly used = new Map<Mupdf.Font, Map<number, number>>();
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
  show(pageIndex: number, pageHeight: number, t: ShownText, x: number, baseline: number, angle = 0): void {
    const page = this.pageOf(pageIndex);
    const color = t.color ?? '000000';
    const open = page.open;
    // Right-to-left text comes in drawing order, reversed by layout (its kerning left out: layout/blocks/fragments.ts).
    const shown = t.text;
    if (!angle && open && open.baseline === baseline && page.font === t.font && page.size === t.size && page.color === color && x >= open.end - 0.01) {
      const gap = x - open.end;
      open.items.push(Math.abs(gap) > 0.005 ? `${num((-gap * 1000) / t.size)}(${this.codesOf(t.font, shown, t.kerns)})` : `(${this.codesOf(t.font, shown, t.kerns)})`);
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
    // Turned text starts a run of its own, never joined to the next (its baseline is not a line of the page).
    const [cos, sin] = angle ? [Math.cos((angle * Math.PI) / 180), Math.sin((angle * Math.PI) / 180)] : [1, 0];
    const matrix = angle ? `${num(cos)} ${num(sin)} ${num(-sin)} ${num(cos)}` : '1 0 0 1';
    page.open = { baseline: angle ? NaN : baseline, end: x + t.width, items: [`${matrix} ${num(x)} ${num(pageHeight - baseline)} Tm [(${this.codesOf(t.font, shown, t.kerns)})`] };
  }

  /**
   * The text shown next, until unclip, shows only within `rect` (top-down page points): the text
   * object ends, the clip is set in a saved graphics state, and a new text object starts in it.
   * The faces and colour are named again after each (the state they lived in is restored).
   */
  clip(pageIndex: number, pageHeight: number, [x0, y0, x1, y1]: [number, number, number, number]): void {
    const page = this.pageOf(pageIndex);
    this.close(page);
    page.parts.push(`ET q ${num(x0)} ${num(pageHeight - y1)} ${num(x1 - x0)} ${num(y1 - y0)} re W n BT`);
    page.font = page.size = page.color = undefined;
  }

  unclip(pageIndex: number): void {
    const page = this.pageOf(pageIndex);
    this.close(page);
    page.parts.push('ET Q BT');
    page.font = page.size = page.color = undefined;
  }

  private pageOf(pageIndex: number): PageContent {
    let page = this.pages.get(pageIndex);
    if (!page) this.pages.set(pageIndex, (page = { parts: [], sealed: [], fonts: new Set() }));
    return page;
  }

  /**
   * Deflates a finished page's text now (render.ts, as the page ends): a long document's
   * operators are not all kept as strings until the PDF is finished (stress008 three times over,
   * 355 pages: it needed 80–88 MB of JavaScript heap before).
   */
  seal(pageIndex: number): void {
    const page = this.pages.get(pageIndex);
    if (!page?.parts.length && !page?.open) return;
    this.close(page);
    page.sealed.push(deflateSync(latin1Bytes(`BT\n${page.parts.join('\n')}\nET\n`), { level: DEFLATE_LEVEL }));
    page.parts = [];
    // A later stream starts from no text state of its own.
    page.font = page.size = page.color = undefined;
  }

  /** Text shown from now on lies over what is drawn after this (PageGraphics.over): the text so far is sealed under it. */
  over(pageIndex: number): void {
    this.seal(pageIndex);
    const page = this.pageOf(pageIndex);
    page.overFrom = page.sealed.length;
  }

  /** Ends the TJ being written on a page. */
  private close(page: PageContent): void {
    if (!page.open) return;
    page.parts.push(`${page.open.items.join('')}] TJ`);
    page.open = undefined;
  }

  /**
   * Puts each page's text into the PDF: a content stream after the page's own (kept apart by q/Q),
   * its faces in the page's resources, each embedded once, cut to the glyphs shown (`bytesOf`: the
   * face's file). Returns the object numbers of those streams and fonts, which the subsetter and
   * the ToUnicode rewriting leave alone.
   */
  writeInto(pdf: Mupdf.PDFDocument, bytesOf: (font: Mupdf.Font) => Uint8Array | undefined, over?: Map<number, Mupdf.PDFObject[]>): { streams: Set<number>; fonts: Set<number> } {
    const written = { streams: new Set<number>(), fonts: new Set<number>() };
    if (!this.pages.size) return appendLeft(pdf, over), written;
    const fontObjects = new Map<Mupdf.Font, Mupdf.PDFObject>();
    const faceObject = (font: Mupdf.Font) => {
      let obj = fontObjects.get(font);
      if (!obj) {
        const bytes = bytesOf(font);
        obj = bytes ? embedFace(pdf, font, bytes, this.used.get(font) ?? new Map()) : pdf.addFont(font);
        fontObjects.set(font, obj);
        if (bytes) written.fonts.add(obj.asIndirect());
      }
      return obj;
    };
    const save = pdf.addStream('q\n', {});
    const restore = pdf.addStream('\nQ\n', {});
    for (const [index, page] of this.pages) {
      this.seal(index);
      const pageObj = pdf.findPage(index);
      let resources = pageObj.get('Resources');
      if (!resources.isDictionary()) pageObj.put('Resources', (resources = pdf.newDictionary()));
      let fonts = resources.get('Font');
      if (!fonts.isDictionary()) resources.put('Font', (fonts = pdf.newDictionary()));
      for (const font of page.fonts) fonts.put(this.nameOf(font), faceObject(font));
      const contents = pageObj.get('Contents');
      const list = pdf.newArray();
      list.push(save);
      if (contents.isArray()) contents.forEach((part) => list.push(part));
      else if (!contents.isNull()) list.push(contents);
      list.push(restore);
      // The second layer's graphics (over) go between the text under them and the text over them.
      page.sealed.forEach((bytes, k) => {
        if (k === page.overFrom) for (const upper of over?.get(index) ?? []) list.push(upper);
        const stream = pdf.addRawStream(bytes, { Filter: pdf.newName('FlateDecode') });
        written.streams.add(stream.asIndirect());
        list.push(stream);
      });
      if (page.overFrom === undefined || page.overFrom >= page.sealed.length) for (const upper of over?.get(index) ?? []) list.push(upper);
      over?.delete(index);
      page.sealed = [];
      pageObj.put('Contents', list);
    }
    appendLeft(pdf, over);
    return written;
  }

  private nameOf(font: Mupdf.Font): string {
    let name = this.names.get(font);
    if (!name) this.names.set(font, (name = `${NAME_PREFIX}${this.names.size}`));
    return name;
  }

  /**
   * The text as 2-byte glyph ids of the face (its codes under Identity-H) in a literal string's
   * syntax, each looked up once per face; pair kerning (`kerns`: index, em) as displacements
   * between them (`(…)-12(…)` in a TJ).
   */
  private codesOf(font: Mupdf.Font, text: string, kerns?: number[]): string {
    if (kerns?.length) {
      let out = '';
      let from = 0;
      for (let k = 0; k < kerns.length; k += 2) {
        const at = kerns[k]!;
        out += `${this.codesOf(font, text.slice(from, at))})${num(-kerns[k + 1]! * 1000)}(`;
        from = at;
      }
      return out + this.codesOf(font, text.slice(from));
    }
    let ids = this.glyphIds.get(font);
    if (!ids) this.glyphIds.set(font, (ids = new Int32Array(TABLE_SLOTS).fill(-1)));
    let used = this.used.get(font);
    if (!used) this.used.set(font, (used = new Map()));
    let codes = '';
    for (let i = 0; i < text.length; i++) {
      let cp = text.charCodeAt(i);
      if (cp >= 0xd800 && cp < 0xdc00 && i + 1 < text.length) {
        cp = text.codePointAt(i)!;
        i++;
      }
      const slot = slotOf(cp);
      if (slot < 0) {
        // Rare (symbol fonts' private-use characters, beyond the BMP): asked of the face each time.
        const other = Math.max(0, font.encodeCharacter(cp)) & 0xffff;
        if (!used.has(other)) used.set(other, cp);
        codes += code(other);
        continue;
      }
      let gid = ids[slot]!;
      if (gid < 0) {
        ids[slot] = gid = Math.max(0, font.encodeCharacter(cp)) & 0xffff;
        if (!used.has(gid)) used.set(gid, cp);
      }
      codes += code(gid);
    }
    return codes;
  }
}
