/**
 * Drawing onto existing pages as a reader sees them: page numbers, watermarks, visual signatures.
 * Positions are in the page's visible frame (points from the top-left of the crop box, after the
 * page's /Rotate), which MuPDF's page transform maps from the PDF's own coordinates; its inverse,
 * put before what we draw, makes the text upright and in place on rotated pages and on pages
 * whose boxes do not start at 0,0. Text is real text (an Identity-H face with a ToUnicode map, cut
 * to the glyphs used by our subsetter), so it can be found and copied. What a page already had
 * is wrapped in q … Q so its graphics state cannot leak into ours.
 */
import type * as Mupdf from 'mupdf';
import type { FontFiles } from '../fonts/catalog';
import { subsetTrueType } from '../fonts/truetype-subset';
import type { PDFDocument } from './pdf';

type MupdfModule = typeof Mupdf;
type PDFObject = ReturnType<PDFDocument['getTrailer']>;
type Matrix = [number, number, number, number, number, number];

/** A face with Cyrillic for page numbers and watermarks (Arial's metrics). */
export const SANS = '@expo-google-fonts/arimo/400Regular/Arimo_400Regular.ttf';

/** A page as a reader sees it: its size after rotation, and the matrix from that frame to the PDF's. */
export interface VisiblePage {
  width: number;
  height: number;
  /** Visible frame (x right, y down, points) → PDF user space. */
  toPdf: Matrix;
}

export function visiblePage(page: Mupdf.PDFPage): VisiblePage {
  const [x0, y0, x1, y1] = page.getBounds();
  return { width: x1 - x0, height: y1 - y0, toPdf: invert(page.getTransform() as Matrix) };
}

function invert([a, b, c, d, e, f]: Matrix): Matrix {
  const det = a * d - b * c;
  return [d / det, -b / det, -c / det, a / det, (c * f - d * e) / det, (b * e - a * f) / det];
}

/**
 * A face loaded into the document once, and how wide a text is in it. Its bytes come from the
 * faces a run has loaded (`fonts`: RunContext.faces.load([file]), the PDF Worker's FONTS assets).
 */
export class StampFont {
  /** Glyph id → the text it shows, for the ToUnicode map. */
  private readonly gids = new Map<number, string>();
  private ref?: PDFObject;
  private readonly font: Mupdf.Font;

  private readonly bytes: Uint8Array;

  constructor(
    private readonly mupdf: MupdfModule,
    file: string,
    fonts: FontFiles,
  ) {
    const bytes = fonts(file);
    if (!bytes) throw new Error(`font ${file} was not loaded before stamping`);
    this.bytes = bytes;
    this.font = new mupdf.Font('StampFace', bytes);
  }

  /** Width of `text` at `size` points. */
  width(text: string, size: number): number {
    let w = 0;
    for (const ch of text) w += this.font.advanceGlyph(this.font.encodeCharacter(ch.codePointAt(0)!));
    return w * size;
  }

  /** The TJ operand of `text`: glyph ids as hex, noted for the subset. */
  glyphs(text: string): string {
    let hex = '';
    for (const ch of text) {
      const gid = this.font.encodeCharacter(ch.codePointAt(0)!);
      if (!this.gids.has(gid)) this.gids.set(gid, ch);
      hex += gid.toString(16).padStart(4, '0');
    }
    return `<${hex}>`;
  }

  /** The font object, added once: the face cut to the glyphs drawn so far (call after drawing). */
  reference(doc: PDFDocument): PDFObject {
    if (this.ref) return this.ref;
    const bytes = this.bytes;
    const cut = subsetTrueType(bytes, [0, ...this.gids.keys()]) ?? bytes;
    const face = new this.mupdf.Font('StampFace', cut);
    this.ref = doc.addFont(face);
    face.destroy();
    // The cut face keeps no character map to build one from: the text we drew says what each glyph is.
    this.ref.put('ToUnicode', doc.addStream(toUnicodeCMap(this.gids), doc.newDictionary()));
    return this.ref;
  }

  destroy(): void {
    this.font.destroy();
  }
}

/** A ToUnicode CMap of two-byte glyph ids (Identity-H) to the characters they show. */
function toUnicodeCMap(gids: ReadonlyMap<number, string>): string {
  const hex4 = (v: number) => v.toString(16).padStart(4, '0');
  const utf16 = (s: string) => Array.from({ length: s.length }, (_, i) => hex4(s.charCodeAt(i))).join('');
  const entries = [...gids].sort((a, b) => a[0] - b[0]).map(([gid, ch]) => `<${hex4(gid)}> <${utf16(ch)}>`);
  const blocks: string[] = [];
  // At most 100 entries per bfchar block (ISO 32000-1, 9.10.3).
  for (let i = 0; i < entries.length; i += 100) blocks.push(`${entries.slice(i, i + 100).length} beginbfchar\n${entries.slice(i, i + 100).join('\n')}\nendbfchar`);
  return (
    '/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n' +
    '/CMapName /Adobe-Identity-UCS def\n/CMapType 2 def\n1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n' +
    `${blocks.join('\n')}\nendcmap\nCMapName currentdict /CIDInit /ProcSet findresource defineresource pop\nend\nend\n`
  );
}

/** PDF number syntax: short, no exponent. */
export const n = (v: number): string => (Math.abs(v) < 1e-6 ? '0' : Number(v.toFixed(3)).toString());
export const matrix = (m: readonly number[]): string => m.map(n).join(' ');

/**
 * Appends `content` (operators in the visible frame) to the page, with `resources` (name → object,
 * by kind: Font, XObject, ExtGState) added to the page's resources.
 */
export function appendToPage(doc: PDFDocument, page: Mupdf.PDFPage, visible: VisiblePage, content: string, resources: Record<string, Record<string, PDFObject>>): void {
  const dict = page.getObject();
  let res = dict.get('Resources');
  if (res.isNull()) {
    const inherited = dict.getInheritable('Resources');
    res = inherited.isNull() ? doc.newDictionary() : inherited;
    dict.put('Resources', res);
  }
  for (const [kind, entries] of Object.entries(resources)) {
    let group = res.get(kind);
    if (group.isNull()) {
      group = doc.newDictionary();
      res.put(kind, group);
    }
    for (const [name, obj] of Object.entries(entries)) group.put(name, obj);
  }
  const before = doc.addStream('q\n', doc.newDictionary());
  const after = doc.addStream(`Q\nq ${matrix(visible.toPdf)} cm\n${content}\nQ\n`, doc.newDictionary());
  const contents = dict.get('Contents');
  const list = doc.newArray();
  list.push(before);
  if (contents.isArray()) for (let i = 0; i < contents.length; i++) list.push(contents.get(i));
  else if (!contents.isNull()) list.push(contents);
  list.push(after);
  dict.put('Contents', list);
}

/** An ExtGState object for this opacity (fill and stroke). */
export function opacityState(doc: PDFDocument, opacity: number): PDFObject {
  const gs = doc.newDictionary();
  gs.put('Type', doc.newName('ExtGState'));
  gs.put('ca', opacity);
  gs.put('CA', opacity);
  return doc.addObject(gs);
}

/** `text` drawn at the visible point (x, baseline y), turned `angle` degrees counter-clockwise about it. */
export function textAt(font: StampFont, fontName: string, text: string, size: number, x: number, y: number, angle = 0, rgb: [number, number, number] = [0, 0, 0]): string {
  const r = (angle * Math.PI) / 180;
  const [cos, sin] = [Math.cos(r), Math.sin(r)];
  // The visible frame is y-down: the text matrix flips y back so the glyphs stand upright.
  const tm: Matrix = [cos, -sin, -sin, -cos, x, y];
  return `BT /${fontName} ${n(size)} Tf ${rgb.map(n).join(' ')} rg ${matrix(tm)} Tm ${font.glyphs(text)} Tj ET`;
}
