// Test PDFs for the benchmark, made with MuPDF in Node and cached under bench-out/.
//
// Each page has a few lines of text (Helvetica) and one unique RGB JPEG: a colour gradient with
// seeded random noise on top, so the images do not compress to nothing and no two pages share an
// image. Image sizes are adjusted page by page so that the file lands close to a byte target.
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import * as mupdf from 'mupdf';

const PAGE = [0, 0, 595, 842]; // A4 in points
const JPEG_QUALITY = 75;
const NOISE = 160; // amplitude of the noise over the gradient (0..255)
const PAGE_OVERHEAD = 1300; // bytes per page besides the image data (page, content stream, image dict, xref row)
const FILE_OVERHEAD = 10_000; // font, catalog, page tree, trailer
const ASPECT = 4 / 3;

const WORDS = (
  'throughput latency isolate heap memory stream object xref trailer catalog page tree resource ' +
  'content image font glyph rotate merge split extract compress incremental update queue worker ' +
  'durable storage bucket database task account balance invoice contract report quarterly annual'
).split(' ');

/** xorshift32: cheap, seeded, good enough to defeat JPEG's entropy coder. */
export function rng(seed) {
  let s = seed >>> 0 || 0x9e3779b9;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return s >>> 0;
  };
}

export function jpegFor(pageIndex, width, height, next) {
  const pix = new mupdf.Pixmap(mupdf.ColorSpace.DeviceRGB, [0, 0, width, height], false);
  try {
    const px = pix.getPixels();
    const stride = pix.getStride();
    const hue = (pageIndex * 37) % 256;
    for (let y = 0; y < height; y++) {
      const row = y * stride;
      const gy = (y * 255) / Math.max(1, height - 1);
      for (let x = 0; x < width; x++) {
        const gx = (x * 255) / Math.max(1, width - 1);
        const r = next();
        const at = row + x * 3;
        px[at] = ((gx + hue) & 0xff) + ((r & 0xff) % NOISE) - NOISE / 2;
        px[at + 1] = gy + (((r >>> 8) & 0xff) % NOISE) - NOISE / 2;
        px[at + 2] = ((255 - gx + hue) & 0xff) + (((r >>> 16) & 0xff) % NOISE) - NOISE / 2;
      }
    }
    return pix.asJPEG(JPEG_QUALITY);
  } finally {
    pix.destroy();
  }
}

const pdfString = (s) => s.replace(/[\\()]/g, (c) => `\\${c}`);

function contentFor(pageIndex, pages, next) {
  const lines = [`Benchmark document - page ${pageIndex + 1} of ${pages}`];
  for (let l = 0; l < 6; l++) {
    const words = [];
    for (let w = 0; w < 11; w++) words.push(WORDS[next() % WORDS.length]);
    lines.push(words.join(' '));
  }
  let ops = 'q 495 0 0 371 50 300 cm /Im0 Do Q\n';
  ops += 'BT /F1 16 Tf 50 790 Td 18 TL\n';
  lines.forEach((line, i) => {
    if (i === 1) ops += '/F1 11 Tf 14 TL\n';
    ops += `(${pdfString(line)}) Tj T*\n`;
  });
  ops += 'ET\n';
  ops += `BT /F1 9 Tf 280 40 Td (- ${pageIndex + 1} -) Tj ET\n`;
  return ops;
}

/**
 * Writes a PDF of `pages` pages whose size is close to `targetBytes` (within a few per cent) to
 * `path`; returns { path, bytes, pages }. Throws when the result exceeds `maxBytes`.
 */
export function generatePdf(path, { pages, targetBytes, maxBytes = Infinity, seed = 1 }) {
  const next = rng(seed);
  const doc = new mupdf.PDFDocument();
  try {
    const font = doc.addSimpleFont(new mupdf.Font('Helvetica'));
    let imageBytes = 0;
    let pixels = 0;
    let bytesPerPixel = 1.0; // refined from the images made so far
    const imageBudget = Math.max(0, targetBytes - FILE_OVERHEAD - pages * PAGE_OVERHEAD);
    for (let i = 0; i < pages; i++) {
      const budget = Math.max(2_000, (imageBudget - imageBytes) / (pages - i));
      const area = Math.max(256, budget / bytesPerPixel);
      const width = Math.max(16, Math.round(Math.sqrt(area * ASPECT)));
      const height = Math.max(12, Math.round(width / ASPECT));
      const jpeg = jpegFor(i, width, height, next);
      imageBytes += jpeg.length;
      pixels += width * height;
      bytesPerPixel = imageBytes / pixels;
      const image = new mupdf.Image(jpeg);
      const imageRef = doc.addImage(image);
      image.destroy();
      const resources = { Font: { F1: font }, XObject: { Im0: imageRef } };
      const page = doc.addPage(PAGE, 0, resources, contentFor(i, pages, next));
      doc.insertPage(-1, page);
    }
    const buf = doc.saveToBuffer('compress=yes');
    try {
      const bytes = buf.asUint8Array();
      if (bytes.length > maxBytes) throw new Error(`generated ${path} is ${bytes.length} bytes, above the ${maxBytes} cap`);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(`${path}.tmp`, bytes);
      renameSync(`${path}.tmp`, path);
      return { path, bytes: bytes.length, pages };
    } finally {
      buf.destroy();
    }
  } finally {
    doc.destroy();
  }
}

/** Page count of PDF bytes or a file, read with MuPDF. */
export function countPages(bytesOrPath) {
  const bytes = typeof bytesOrPath === 'string' ? readFileSync(bytesOrPath) : bytesOrPath;
  const doc = mupdf.Document.openDocument(bytes, 'application/pdf');
  try {
    return doc.countPages();
  } finally {
    doc.destroy();
  }
}

/** /Rotate of a page (0-based index), inherited values included. */
export function pageRotation(bytes, index) {
  const doc = new mupdf.PDFDocument(bytes);
  try {
    const value = doc.findPage(index).getInheritable('Rotate');
    return value.isNumber() ? value.asNumber() : 0;
  } finally {
    doc.destroy();
  }
}

/**
 * A cached generated PDF: regenerated when missing or when its page count is not the expected one.
 * The cache name carries the parameters, so changing them makes a new file.
 */
export function cachedPdf(dir, name, opts, log = () => {}) {
  const path = `${dir}/${name}.pdf`;
  if (existsSync(path)) {
    try {
      const size = statSync(path).size;
      if (size <= (opts.maxBytes ?? Infinity) && countPages(path) === opts.pages) return { path, bytes: size, pages: opts.pages, cached: true };
    } catch {
      // unreadable: make it again
    }
  }
  const t0 = performance.now();
  log(`generating ${path} (${opts.pages} pages, ~${(opts.targetBytes / 1e6).toFixed(1)} MB)...`);
  const made = generatePdf(path, opts);
  log(`  ${made.bytes} bytes in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return { ...made, cached: false };
}
