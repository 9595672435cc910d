// MuPDF's own share of a Word conversion, for `npm run bench:word -- --floor`: the least MuPDF
// work any conversion on its HTML engine must do. One conversion is watched: every HTML document
// whose pages are drawn as body pages (Page.run called from render.ts's drawFrames) is kept, the
// time of those draws and of the PDF save (saveToBuffer) is taken; afterwards each kept document
// is opened and laid out once more, timed. The floor is that one layout + the body draws + the
// save: it leaves out the extra layouts a document needs (keep-with-next, footnote pages),
// headers, footers, pictures and everything in JavaScript. Reading the file (the DOCX or DOC
// into the model) is timed apart, as it is ours but unavoidable too.
import { performance } from 'node:perf_hooks';

/**
 * Watches one conversion of `bytes` (`converter` from loadWordConverter) and returns milliseconds:
 * `layout` (each drawn body document parsed and laid out once), `draw` (body pages drawn), `save`
 * and `read`. `undefined` when no body draw was seen (the bundle's names changed: nothing to tell).
 */
export function measureMupdfFloor(converter, bytes) {
  const { mupdf } = converter;
  const openDocument = mupdf.Document.openDocument;
  const loadPage = mupdf.Document.prototype.loadPage;
  const layout = mupdf.Document.prototype.layout;
  const run = mupdf.Page.prototype.run;
  const save = mupdf.PDFDocument.prototype.saveToBuffer;
  const htmlOf = new WeakMap();
  const layoutOf = new WeakMap(); // the frame size a document was last laid out in
  const docOf = new WeakMap();
  const drawn = new Map(); // HTML bytes → the frame size its pages were drawn in
  const ms = { layout: 0, draw: 0, save: 0, read: 0 };
  mupdf.Document.openDocument = function (data, magic) {
    const doc = openDocument.call(this, data, magic);
    if (magic === 'application/xhtml+xml') htmlOf.set(doc, data);
    return doc;
  };
  mupdf.Document.prototype.layout = function (...args) {
    layoutOf.set(this, args);
    return layout.apply(this, args);
  };
  mupdf.Document.prototype.loadPage = function (index) {
    const page = loadPage.call(this, index);
    docOf.set(page, this);
    return page;
  };
  mupdf.Page.prototype.run = function (...args) {
    const body = /\bdrawFrames\b/.test(new Error().stack ?? '');
    const t = performance.now();
    try {
      return run.apply(this, args);
    } finally {
      if (body) {
        ms.draw += performance.now() - t;
        const doc = docOf.get(this);
        const html = htmlOf.get(doc);
        if (html) drawn.set(html, layoutOf.get(doc));
      }
    }
  };
  mupdf.PDFDocument.prototype.saveToBuffer = function (...args) {
    const t = performance.now();
    try {
      return save.apply(this, args);
    } finally {
      ms.save += performance.now() - t;
    }
  };
  try {
    converter.convert(bytes);
  } finally {
    mupdf.Document.openDocument = openDocument;
    mupdf.Document.prototype.loadPage = loadPage;
    mupdf.Document.prototype.layout = layout;
    mupdf.Page.prototype.run = run;
    mupdf.PDFDocument.prototype.saveToBuffer = save;
  }
  if (!drawn.size) return undefined;
  for (const [html, frame] of drawn) {
    const t = performance.now();
    const doc = openDocument.call(mupdf.Document, html, 'application/xhtml+xml');
    if (frame) layout.apply(doc, frame);
    doc.countPages();
    ms.layout += performance.now() - t;
    doc.destroy();
  }
  const t = performance.now();
  converter.read(bytes);
  ms.read = performance.now() - t;
  return ms;
}
