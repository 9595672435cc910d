/**
 * What drawing or reading a page will cost, measured from its content before MuPDF runs it, and
 * refused past a budget. MuPDF draws a page in one synchronous call that nothing can interrupt (its
 * JS API has no cookie to abort with): 100,000 full-page strokes in a 4.8 KB PDF drew for 134 s,
 * 30 nested forms each drawn twice (2^30 calls, 5.8 KB) kept text extraction busy for minutes, and
 * a content stream that inflates to 2 GB took the heap with it. So the page's content streams, its
 * forms and its annotations' appearances are walked here first, in JavaScript:
 * - streams are inflated by fflate with a cap on the output, never by MuPDF;
 * - each form's cost is worked out once and multiplied by its calls, so 2^30 calls cost 30 walks;
 * - painting operators are counted, and the page areas they cover (their paths' boxes through the
 *   current matrix), which is what rasterising costs (a diagonal stroke spans every row);
 * - shown text is counted in bytes; a Type 3 font's glyphs are content streams of their own (a
 *   glyph of 20,000 strokes shown 2,000 times is 40 million operators), so each glyph shown costs
 *   what the font's dearest glyph costs, walked once per font.
 * Past a budget the task fails with LimitExceeded naming it, refunded and not retried.
 */
import { Inflate, Unzlib } from 'fflate';
import type { PDFDocument } from './pdf';
import { LimitExceeded } from '../lib/limits';
import { isEngineTrap } from '../lib/engine-health';
import { IDENTITY, concat, type Matrix } from './matrix';
import { scanContentCost, unitSquareArea, type FormCost } from './content-cost';

type PDFObject = ReturnType<PDFDocument['getTrailer']>;

export const PAGE_BUDGET = {
  /** Operators run for one page, forms' included as often as they are called. */
  operators: 2_000_000,
  /** Page areas painted: the sum over painting operators of the part of the page their box covers. */
  pageAreas: 2_000,
  /** Bytes of text shown. */
  textBytes: 4_000_000,
  /** Form XObjects run (calls, counted through nesting). */
  formCalls: 100_000,
  /** Forms within forms. */
  formDepth: 32,
  /**
   * Decoded bytes of content streams read for the page (each form once). Inflating them holds
   * about 1.6 times this (fflate's working buffers), beside MuPDF's heap (38 MB on a deflate bomb):
   * 24 MB keeps an engine isolate under 128 MB where 32 MB reached an estimated 129 MiB.
   */
  contentBytes: 24_000_000,
};

export interface PageCost {
  operators: number;
  pageAreas: number;
  textBytes: number;
  formCalls: number;
  contentBytes: number;
}


class Walk {
  readonly cost: PageCost = { operators: 0, pageAreas: 0, textBytes: 0, formCalls: 0, contentBytes: 0 };
  private readonly forms = new Map<number, FormCost>();
  private readonly active = new Set<number>();
  private readonly type3 = new Map<number, FormCost | null>();

  constructor(
    private readonly page: number,
    private readonly pageArea: number,
  ) {}

  check(): void {
    const c = this.cost;
    const b = PAGE_BUDGET;
    const n = (v: number) => Math.round(v).toLocaleString('en-US');
    if (c.operators > b.operators) throw new LimitExceeded('page_operators', `page ${this.page} runs ${n(c.operators)} drawing operators or more; at most ${n(b.operators)} are run for one page`);
    if (c.pageAreas > b.pageAreas) throw new LimitExceeded('page_paint', `page ${this.page} paints its own area ${n(c.pageAreas)} times over or more; at most ${n(b.pageAreas)} times are drawn for one page`);
    if (c.textBytes > b.textBytes) throw new LimitExceeded('page_text', `page ${this.page} shows ${n(c.textBytes)} bytes of text or more; at most ${n(b.textBytes)} are read for one page`);
    if (c.formCalls > b.formCalls) throw new LimitExceeded('page_form_calls', `page ${this.page} draws its forms (XObjects) ${n(c.formCalls)} times or more; at most ${n(b.formCalls)} are drawn for one page`);
  }

  /** Adds one form call's cost `times` over, checking the budget as it grows. */
  add(f: FormCost, times = 1): void {
    this.cost.operators += f.operators * times;
    this.cost.pageAreas += f.pageAreas * times;
    this.cost.textBytes += f.textBytes * times;
    this.cost.formCalls += f.formCalls * times;
    this.check();
  }

  /** The decoded bytes of a content stream, inflated here with the page's remaining byte budget as the cap. */
  streamBytes(stream: PDFObject): Uint8Array {
    const left = PAGE_BUDGET.contentBytes - this.cost.contentBytes;
    const bytes = decodeCapped(stream, left, () => {
      throw new LimitExceeded('page_content_size', `page ${this.page}'s content streams unpack to more than ${PAGE_BUDGET.contentBytes / 1e6} MB; at most that much is read for one page`);
    });
    this.cost.contentBytes += bytes.length;
    return bytes;
  }

  /** The cost of running `content` (streams) with `resources` under `ctm`, one call. */
  run(streams: PDFObject[], resources: PDFObject, ctm: Matrix, depth: number): FormCost {
    const own: FormCost = { operators: 0, pageAreas: 0, textBytes: 0, formCalls: 0 };
    for (const s of streams) {
      if (!s.isStream()) continue;
      scanContentCost(
        this.streamBytes(s),
        ctm,
        own,
        this.pageArea,
        { xobject: (name, at) => this.form(resources, name, at, depth, own), glyph: (font, size, at) => this.glyphCost(resources, font, size, at, depth) },
        () => this.checkWith(own),
      );
    }
    return own;
  }

  private checkWith(partial: FormCost): void {
    const c = this.cost;
    if (c.operators + partial.operators > PAGE_BUDGET.operators || c.pageAreas + partial.pageAreas > PAGE_BUDGET.pageAreas || c.textBytes + partial.textBytes > PAGE_BUDGET.textBytes) {
      this.add(partial); // throws with the figures
    }
  }

  /**
   * What one glyph of font `name` costs when its font is Type 3 (null for other fonts): the dearest
   * of its glyph procedures, each run under the font's matrix at `size`, walked once per font.
   */
  private glyphCost(resources: PDFObject, name: string, size: number, ctm: Matrix, depth: number): FormCost | null {
    const font = resources.get('Font').get(name);
    if (!font.isDictionary()) return null;
    const subtype = font.get('Subtype');
    if (!(subtype.isName() && subtype.asName() === 'Type3')) return null;
    const id = font.isIndirect() ? font.asIndirect() : -1;
    if (id >= 0 && this.type3.has(id)) return this.type3.get(id)!;
    if (depth >= PAGE_BUDGET.formDepth) throw new LimitExceeded('page_form_depth', `page ${this.page} nests forms (XObjects) more than ${PAGE_BUDGET.formDepth} deep; at most ${PAGE_BUDGET.formDepth} are drawn`);
    if (id >= 0) this.type3.set(id, null); // a glyph that shows its own font: not walked again
    const fm = font.get('FontMatrix');
    const fontMatrix: Matrix = fm.isArray() && fm.length === 6 ? (Array.from({ length: 6 }, (_, i) => fm.get(i).asNumber()) as Matrix) : [0.001, 0, 0, 0.001, 0, 0];
    const at = concat(concat(fontMatrix, [size, 0, 0, size, 0, 0]), ctm);
    const own = font.get('Resources');
    const dearest: FormCost = { operators: 0, pageAreas: 0, textBytes: 0, formCalls: 0 };
    font.get('CharProcs').forEach((proc) => {
      if (!proc.isStream()) return;
      const c = this.run([proc], own.isDictionary() ? own : resources, at, depth + 1);
      dearest.operators = Math.max(dearest.operators, c.operators);
      dearest.pageAreas = Math.max(dearest.pageAreas, c.pageAreas);
      dearest.textBytes = Math.max(dearest.textBytes, c.textBytes);
      dearest.formCalls = Math.max(dearest.formCalls, c.formCalls);
    });
    if (id >= 0) this.type3.set(id, dearest);
    return dearest;
  }

  /** A `Do`: an image's area, or a form's cost (walked once, memoised by object number) added to `into`. */
  private form(resources: PDFObject, name: string, ctm: Matrix, depth: number, into: FormCost): void {
    const xobject = resources.get('XObject').get(name);
    if (!xobject.isStream()) return;
    const subtype = xobject.get('Subtype');
    if (subtype.isName() && subtype.asName() === 'Image') {
      into.operators += 1;
      into.pageAreas += unitSquareArea(ctm, this.pageArea);
      return;
    }
    if (!(subtype.isName() && subtype.asName() === 'Form')) return;
    if (depth >= PAGE_BUDGET.formDepth) throw new LimitExceeded('page_form_depth', `page ${this.page} nests forms (XObjects) more than ${PAGE_BUDGET.formDepth} deep; at most ${PAGE_BUDGET.formDepth} are drawn`);
    const id = xobject.isIndirect() ? xobject.asIndirect() : -1;
    let cost = id >= 0 ? this.forms.get(id) : undefined;
    if (!cost) {
      if (id >= 0 && this.active.has(id)) return; // a form that calls itself: MuPDF stops such a cycle
      if (id >= 0) this.active.add(id);
      const matrix = xobject.get('Matrix');
      const fm: Matrix = matrix.isArray() && matrix.length === 6 ? (Array.from({ length: 6 }, (_, i) => matrix.get(i).asNumber()) as Matrix) : IDENTITY;
      const inner = xobject.get('Resources');
      cost = this.run([xobject], inner.isDictionary() ? inner : resources, concat(fm, ctm), depth + 1);
      cost.formCalls += 1;
      if (id >= 0) (this.active.delete(id), this.forms.set(id, cost));
    }
    into.operators += cost.operators;
    into.pageAreas += cost.pageAreas;
    into.textBytes += cost.textBytes;
    into.formCalls += cost.formCalls;
    if (into.formCalls > PAGE_BUDGET.formCalls) this.add({ operators: 0, pageAreas: 0, textBytes: 0, formCalls: into.formCalls });
  }
}

/**
 * Measures page `index` (0-based) of `doc` and throws LimitExceeded past PAGE_BUDGET; returns the
 * cost. `annotations`: whether the page's annotation appearances are drawn too (to-jpg draws them).
 */
export function checkPageBudget(doc: PDFDocument, index: number, annotations = true): PageCost | undefined {
  try {
    return measurePage(doc, index, annotations);
  } catch (err) {
    // A page tree or content MuPDF would repair, or objects of the wrong type: not measurable here,
    // so MuPDF's own reading decides (damaged files are its business); only the budget is thrown.
    if (err instanceof LimitExceeded || isEngineTrap(err)) throw err;
    return undefined;
  }
}

function measurePage(doc: PDFDocument, index: number, annotations: boolean): PageCost {
  const page = doc.findPage(index);
  const box = page.getInheritable('MediaBox');
  const side = (i: number) => (box.isArray() && box.length === 4 ? Math.abs(box.get(i + 2).asNumber() - box.get(i).asNumber()) : 612);
  const walk = new Walk(index + 1, Math.max(1, side(0) * side(1)));
  const contents = page.get('Contents');
  const streams = contents.isArray() ? Array.from({ length: contents.length }, (_, i) => contents.get(i)) : [contents];
  walk.add(walk.run(streams, page.getInheritable('Resources'), IDENTITY, 0));
  if (annotations) {
    const annots = page.get('Annots');
    for (let i = 0; annots.isArray() && i < annots.length; i++) {
      const normal = annots.get(i).get('AP').get('N');
      const ap = normal.isStream() ? normal : normal.isDictionary() ? firstStream(normal) : undefined;
      if (ap) {
        const resources = ap.get('Resources');
        const cost = walk.run([ap], resources, IDENTITY, 1);
        walk.add({ ...cost, formCalls: cost.formCalls + 1 });
      }
    }
  }
  return walk.cost;
}

function firstStream(dict: PDFObject): PDFObject | undefined {
  let found: PDFObject | undefined;
  dict.forEach((value) => {
    if (!found && value.isStream()) found = value;
  });
  return found;
}

/** The bytes of a stream decoded, `cap` at most: Flate by fflate, unfiltered as they are, other filters by MuPDF when small. */
export function decodeCapped(stream: PDFObject, cap: number, over: () => never): Uint8Array {
  const filter = stream.get('Filter');
  const names = filter.isArray() ? Array.from({ length: filter.length }, (_, i) => filter.get(i).asName()) : filter.isName() ? [filter.asName()] : [];
  const rawBuf = stream.readRawStream();
  const raw = rawBuf.asUint8Array().slice();
  rawBuf.destroy();
  if (names.length === 0) return raw.length > cap ? over() : raw;
  if (names.length === 1 && (names[0] === 'FlateDecode' || names[0] === 'Fl') && !stream.get('DecodeParms').isDictionary()) return inflateCapped(raw, cap, over);
  // LZW, ASCII85, predictors: MuPDF decodes them, only from raw data too small to unpack past the
  // cap (LZW unpacks at most ~2,700:1), after the flate part, if any, was sized here.
  if (names.includes('FlateDecode') || names.includes('Fl')) inflateCapped(raw, cap, over);
  else if (raw.length * 2700 > cap) over();
  const buf = stream.readStream();
  try {
    const out = buf.asUint8Array();
    return out.length > cap ? over() : out.slice();
  } finally {
    buf.destroy();
  }
}

function inflateCapped(raw: Uint8Array, cap: number, over: () => never): Uint8Array {
  const parts: Uint8Array[] = [];
  let size = 0;
  const take = (chunk: Uint8Array) => {
    size += chunk.length;
    if (size > cap) over();
    parts.push(chunk);
  };
  // PDF's Flate is zlib's format (RFC 1950); some writers leave out the two-byte header, as MuPDF tolerates.
  const zlibHeader = raw.length > 2 && (raw[0]! & 0x0f) === 8 && ((raw[0]! << 8) | raw[1]!) % 31 === 0;
  const inflate = zlibHeader ? new Unzlib(take) : new Inflate(take);
  try {
    // 4 KB at a time: a slice inflates to at most about 4 MB (deflate packs at most 1,032:1), so
    // the cap is passed by that much at most (a 64 KB slice of a bomb inflated to 66 MB at once).
    for (let at = 0; at < raw.length; at += 4096) inflate.push(raw.subarray(at, at + 4096), at + 4096 >= raw.length);
  } catch (err) {
    if (err instanceof LimitExceeded) throw err;
    // A damaged stream: what inflated before the damage is what MuPDF draws too.
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) (out.set(p, at), (at += p.length));
  return out;
}
