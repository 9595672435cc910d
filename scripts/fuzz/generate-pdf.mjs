// Hostile and normal PDFs for the poison suite, written object by object (offsets and xref
// computed here): a huge MediaBox, a picture whose declared size is far past its data, form
// XObjects nested N deep each drawn twice, many strokes, a 14,400 pt page. Node (node:zlib).
import { deflateSync } from 'node:zlib';
import { PDFDocument, StandardFonts } from 'pdf-lib';

const enc = new TextEncoder();

/**
 * A PDF from object bodies (strings or { dict, stream } with dict text without /Length); object
 * 1 is the catalog. Returns a Buffer.
 */
export function buildPdf(objects) {
  const parts = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let at = parts[0].length;
  const offsets = [];
  objects.forEach((obj, i) => {
    offsets.push(at);
    let piece;
    if (typeof obj === 'string') piece = Buffer.from(`${i + 1} 0 obj\n${obj}\nendobj\n`, 'latin1');
    else {
      const data = Buffer.isBuffer(obj.stream) ? obj.stream : Buffer.from(obj.stream, 'latin1');
      piece = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n<< ${obj.dict} /Length ${data.length} >>\nstream\n`, 'latin1'), data, Buffer.from('\nendstream\nendobj\n', 'latin1')]);
    }
    parts.push(piece);
    at += piece.length;
  });
  const xref = [`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`, ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`)].join('');
  parts.push(Buffer.from(`${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${at}\n%%EOF\n`, 'latin1'));
  return Buffer.concat(parts);
}

const FONT = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>';

/** A one-page PDF: objects 1 catalog, 2 pages, 3 page, 4 font, 5 content, then `extra` objects (6...). */
function onePage({ mediaBox = [0, 0, 595, 842], content, resources = '/Font << /F1 4 0 R >>', extra = [] }) {
  return buildPdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [${mediaBox.join(' ')}] /Resources << ${resources} >> /Contents 5 0 R >>`,
    FONT,
    { dict: '/Filter /FlateDecode', stream: deflateSync(Buffer.from(content, 'latin1')) },
    ...extra,
  ]);
}

/** A small ordinary PDF of `pages` pages with text on each (pdf-lib). */
export async function normalPdf(pages = 2, tag = 'CANARY') {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 0; i < pages; i++) {
    const page = doc.addPage([595, 842]);
    page.drawText(`${tag} page ${i + 1}`, { x: 50, y: 780, size: 18, font });
    page.drawText('An ordinary line of text.', { x: 50, y: 750, size: 12, font });
  }
  return Buffer.from(await doc.save());
}

/** A page whose MediaBox declares side × side points (PDF's own limit is 14,400). */
export function hugeMediaBoxPdf(side) {
  return onePage({ mediaBox: [0, 0, side, side], content: `BT /F1 24 Tf 20 20 Td (page of ${side} pt) Tj ET 0 0 m ${side} ${side} l S` });
}

/** A page drawing one picture XObject that declares width × height RGB samples over ~1 KB of data. */
export function declaredImagePdf(width, height) {
  const data = deflateSync(Buffer.alloc(1 << 20), { level: 9 }).subarray(0, 1024);
  return onePage({
    content: `q 500 0 0 700 50 70 cm /Im1 Do Q BT /F1 12 Tf 50 800 Td (picture declared ${width} x ${height}) Tj ET`,
    resources: '/Font << /F1 4 0 R >> /XObject << /Im1 6 0 R >>',
    extra: [{ dict: `/Type /XObject /Subtype /Image /Width ${width} /Height ${height} /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /FlateDecode`, stream: data }],
  });
}

/** Form XObjects nested `depth` deep, each drawing the next twice: 2^depth draws of the text at the bottom. */
export function nestedFormsPdf(depth) {
  const first = 6;
  const forms = [];
  for (let i = 0; i < depth; i++) {
    const last = i === depth - 1;
    const content = last ? 'BT /F1 10 Tf 0 0 Td (deep form) Tj ET' : `q 0.7 0 0 0.7 0 0 cm /X Do Q q 0.7 0 0 0.7 30 30 cm /X Do Q`;
    const resources = last ? '/Font << /F1 4 0 R >>' : `/XObject << /X ${first + i + 1} 0 R >>`;
    forms.push({ dict: `/Type /XObject /Subtype /Form /BBox [0 0 500 500] /Resources << ${resources} >>`, stream: content });
  }
  return onePage({ content: `q 1 0 0 1 50 200 cm /X Do Q q 1 0 0 1 60 210 cm /X Do Q`, resources: `/Font << /F1 4 0 R >> /XObject << /X ${first} 0 R >>`, extra: forms });
}

/** One page with `count` separate stroked lines (issue 40: 100k strokes for to-jpg). */
export function manyStrokesPdf(count, seed = 1) {
  let s = seed >>> 0 || 1;
  const next = () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) % 5950) / 10;
  const ops = ['0.2 w'];
  for (let i = 0; i < count; i++) ops.push(`${next().toFixed(1)} ${(next() * 1.4).toFixed(1)} m ${next().toFixed(1)} ${(next() * 1.4).toFixed(1)} l S`);
  return onePage({ content: ops.join('\n') });
}

/**
 * A Type 3 font whose one glyph is `strokes` full-size strokes, shown `shown` times: the content
 * stream holds one text operator, the glyphs run strokes × shown operators (issue 40).
 */
export function heavyType3Pdf(strokes, shown) {
  const glyph = `1000 0 0 0 1000 1000 d1\n${'0 0 m 1000 1000 l S\n'.repeat(strokes)}`;
  return onePage({
    content: `BT /T3 12 Tf 40 700 Td (${'a'.repeat(shown)}) Tj ET`,
    resources: '/Font << /F1 4 0 R /T3 6 0 R >>',
    extra: [
      '<< /Type /Font /Subtype /Type3 /FontBBox [0 0 1000 1000] /FontMatrix [0.001 0 0 0.001 0 0] /CharProcs << /a 7 0 R >> /Encoding << /Type /Encoding /Differences [97 /a] >> /FirstChar 97 /LastChar 97 /Widths [1000] >>',
      { dict: '/Filter /FlateDecode', stream: deflateSync(Buffer.from(glyph, 'latin1')) },
    ],
  });
}

export { enc };
