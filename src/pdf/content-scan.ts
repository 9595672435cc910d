/**
 * Where a page draws its images, read from its content streams without running them: the current
 * transformation matrix followed through q, Q and cm, and each Do of an image XObject reported
 * with the matrix it is drawn with, forms entered with their /Matrix and resources. Running the
 * page through a MuPDF device instead loads every image into MuPDF's heap (a 48 MB file took it
 * from 23 to 58 MB), and WASM memory never shrinks. Inline images and shadings are not images here.
 */
import type { PDFDocument } from './pdf';
import { decodeCapped } from './page-budget';
import { isEngineTrap } from '../lib/engine-health';
import { IDENTITY, concat, type Matrix } from './matrix';

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

function contentOf(contents: PDFObject): string {
  const parts = contents.isArray() ? Array.from({ length: contents.length }, (_, i) => contents.get(i)) : [contents];
  let text = '';
  for (const part of parts) {
    if (!part.isStream()) continue;
    try {
      const bytes = decodeCapped(part, MAX_SCANNED_CONTENT, () => {
        throw new RangeError('content stream past the scanning cap');
      });
      for (let i = 0; i < bytes.length; i += 8192) text += String.fromCharCode(...bytes.subarray(i, i + 8192));
      text += '\n';
    } catch (err) {
      if (isEngineTrap(err)) throw err;
      // a damaged content stream, or one past the cap: what it drew is not counted
    }
  }
  return text;
}

const TOKEN = /\s*(?:(%[^\r\n]*)|(\()|(<<|>>|\[|\]|\{|\})|(<[0-9A-Fa-f\s]*>)|(\/[^\s/<>\[\](){}%]*)|([+-]?(?:\d+\.?\d*|\.\d+))|([^\s/<>\[\](){}%]+))/y;

function scanContent(text: string, resources: PDFObject, base: Matrix, found: (image: PDFObject, ctm: Matrix) => void, depth: number): void {
  if (depth > 8) return;
  let ctm = base;
  const stack: Matrix[] = [];
  let numbers: number[] = [];
  let name = '';
  TOKEN.lastIndex = 0;
  for (let at = 0; at < text.length; ) {
    TOKEN.lastIndex = at;
    const m = TOKEN.exec(text);
    if (!m || m[0].length === 0) break;
    at = TOKEN.lastIndex;
    if (m[2]) {
      at = skipString(text, at);
      continue;
    }
    if (m[6]) {
      numbers.push(Number(m[6]));
      continue;
    }
    if (m[5]) {
      name = m[5].slice(1);
      continue;
    }
    const op = m[7];
    if (!op) continue;
    if (op === 'q') stack.push(ctm);
    else if (op === 'Q') ctm = stack.pop() ?? base;
    else if (op === 'cm' && numbers.length >= 6) ctm = concat(numbers.slice(-6) as Matrix, ctm);
    else if (op === 'BI') at = skipInlineImage(text, at);
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

/** Past a literal string's closing parenthesis (nested ones and escapes counted). */
function skipString(text: string, at: number): number {
  for (let depth = 1; at < text.length && depth > 0; at++) {
    const c = text[at];
    if (c === '\\') at++;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
  }
  return at;
}

/** Past an inline image's data (ID … EI). */
function skipInlineImage(text: string, at: number): number {
  const id = text.indexOf('ID', at);
  if (id < 0) return text.length;
  const ei = text.slice(id + 3).search(/\sEI(?=[\s]|$)/);
  return ei < 0 ? text.length : id + 3 + ei + 3;
}
