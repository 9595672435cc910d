/**
 * Where a page draws its images, read from its content streams without running them: the current
 * transformation matrix followed through q, Q and cm, and each Do of an image XObject reported
 * with the matrix it is drawn with, forms entered with their /Matrix and resources. Running the
 * page through a MuPDF device instead loads every image into MuPDF's heap (a 48 MB file took it
 * from 23 to 58 MB), and WASM memory never shrinks. Inline images and shadings are not images here.
 * The streams are read as tokens by the content lexer (content-lexer.ts), from their bytes.
 */
import type { PDFDocument } from './pdf';
import { decodeCapped } from './page-budget';
import { isEngineTrap } from '../lib/engine-health';
import { IDENTITY, concat, type Matrix } from './matrix';
import { ContentLexer, Token } from './content-lexer';

type PDFObject = ReturnType<PDFDocument['getTrailer']>;

/** Calls `found(image, ctm)` for each image XObject each page draws (ctm maps its unit square to points). */
export function scanPageImages(doc: PDFDocument, found: (image: PDFObject, ctm: Matrix) => void): void {
  for (let i = 0; i < doc.countPages(); i++) scanImagesOfPage(doc, i, found);
}

/** scanPageImages for page `index` (0-based) alone. */
export function scanImagesOfPage(doc: PDFDocument, index: number, found: (image: PDFObject, ctm: Matrix) => void): void {
  const page = doc.findPage(index);
  scanContent(contentOf(page.get('Contents')), page.getInheritable('Resources'), IDENTITY, found, 0);
}

/**
 * Content streams are read decoded up to this many bytes each (by fflate, never in MuPDF's heap: a
 * 1 MB stream that inflates to 1 GB took MuPDF to 1.5 GB here): a stream past it is not scanned,
 * so the pictures it draws are left as they are.
 */
const MAX_SCANNED_CONTENT = 32_000_000;

/** The page's (or form's) content streams, decoded and joined by line feeds: one stream for the syntax. */
function contentOf(contents: PDFObject): Uint8Array {
  const parts = contents.isArray() ? Array.from({ length: contents.length }, (_, i) => contents.get(i)) : [contents];
  const decoded: Uint8Array[] = [];
  for (const part of parts) {
    if (!part.isStream()) continue;
    try {
      decoded.push(
        decodeCapped(part, MAX_SCANNED_CONTENT, () => {
          throw new RangeError('content stream past the scanning cap');
        }),
      );
    } catch (err) {
      if (isEngineTrap(err)) throw err;
      // a damaged content stream, or one past the cap: what it drew is not counted
    }
  }
  const out = new Uint8Array(decoded.reduce((n, p) => n + p.length + 1, 0));
  let at = 0;
  for (const p of decoded) {
    out.set(p, at);
    out[at + p.length] = 0x0a;
    at += p.length + 1;
  }
  return out;
}

function scanContent(bytes: Uint8Array, resources: PDFObject, base: Matrix, found: (image: PDFObject, ctm: Matrix) => void, depth: number): void {
  if (depth > 8) return;
  let ctm = base;
  const stack: Matrix[] = [];
  let numbers: number[] = [];
  let name = '';
  const lexer = new ContentLexer(bytes);
  for (let token = lexer.next(); token !== Token.End; token = lexer.next()) {
    if (token === Token.LiteralString) lexer.skipLiteralString();
    else if (token === Token.HexString) lexer.skipHexString();
    else if (token === Token.Number) numbers.push(Number(latin1(bytes, lexer.start, lexer.end)));
    else if (token === Token.Name) name = latin1(bytes, lexer.start, lexer.end);
    if (token !== Token.Operator) continue;
    const op = latin1(bytes, lexer.start, lexer.end);
    if (op === 'q') stack.push(ctm);
    else if (op === 'Q') ctm = stack.pop() ?? base;
    else if (op === 'cm' && numbers.length >= 6) ctm = concat(numbers.slice(-6) as Matrix, ctm);
    else if (op === 'BI') lexer.skipInlineImage();
    else if (op === 'Do') {
      const xobject = resources.get('XObject').get(name);
      const subtype = xobject.get('Subtype');
      if (subtype.isName() && subtype.asName() === 'Image') found(xobject, ctm);
      else if (subtype.isName() && subtype.asName() === 'Form' && xobject.isStream()) {
        const matrix = xobject.get('Matrix');
        const fm: Matrix = matrix.isArray() && matrix.length === 6 ? (Array.from({ length: 6 }, (_, i) => matrix.get(i).asNumber()) as Matrix) : IDENTITY;
        const inner = xobject.get('Resources');
        scanContent(contentOf(xobject), inner.isDictionary() ? inner : resources, concat(fm, ctm), found, depth + 1);
      }
    }
    numbers = [];
  }
}

function latin1(bytes: Uint8Array, from: number, to: number): string {
  let s = '';
  for (let i = from; i < to; i++) s += String.fromCharCode(bytes[i]!);
  return s;
}
