/**
 * A page rendered and encoded as JPEG a band of rows at a time (to-jpg): MuPDF records the page
 * once as a display list and draws it into one band pixmap after another; each band goes to the
 * JPEG encoder and is dropped. A 300-dpi A4 page never exists whole (26 MB as RGB), in MuPDF's
 * heap or in JavaScript.
 */
import type * as Mupdf from 'mupdf';
import type { PDFDocument } from './pdf';
import { JpegBandEncoder } from '../codecs/jpeg-encoder';
import { packedPixels } from './image-recode';
import { scanImagesOfPage } from './content-scan';
import { TaskError } from '../contracts/failures';
import { checkPageBudget } from './page-budget';
import { LimitExceeded } from '../lib/limits';

/**
 * The most bytes of one band's pixels: a 150-dpi A4 page (6.5 MB) is drawn whole, a 300-dpi one
 * (26 MB) in 4 bands. Each band replays the page's display list (its pictures scaled again): in the
 * Worker, 512-row bands had a 150-dpi page drawn in 22 ms, one band in 13 ms.
 */
const MAX_BAND_BYTES = 8_000_000;

/** The most pixels one page is drawn with: an A0 sheet at 300 dpi is 139 million. */
export const MAX_PAGE_PIXELS = 150_000_000;

/**
 * Page `index` (0-based) at `dpi` as a JPEG, its chunks handed to `emit` as they are made. The page
 * as a viewer shows it: crop box, /Rotate, annotations and form fields drawn, on white.
 */
export async function renderPageJpeg(mupdf: typeof Mupdf, doc: PDFDocument, index: number, dpi: number, quality: number, emit: (chunk: Uint8Array) => Promise<void>): Promise<{ width: number; height: number }> {
  checkPageBudget(doc, index);
  assertImagesDrawable(doc, index);
  const page = doc.loadPage(index);
  const list = page.toDisplayList(true);
  try {
    const ctm = mupdf.Matrix.scale(dpi / 72, dpi / 72);
    // Rounded outwards as MuPDF rounds a page's pixmap (fz_round_rect): a 200 pt side at 300 dpi is 834 pixels.
    const [fx0, fy0, fx1, fy1] = mupdf.Rect.transform(page.getBounds(), ctm);
    const [x0, y0, x1, y1] = [Math.floor(fx0 + 0.001), Math.floor(fy0 + 0.001), Math.ceil(fx1 - 0.001), Math.ceil(fy1 - 0.001)];
    const [width, height] = [Math.max(1, x1 - x0), Math.max(1, y1 - y0)];
    // Drawn in bands, a page of any size fits in memory, but not in time: 30000 × 30000 pixels
    // (a 14,400 pt page at 150 dpi) is ~20 s of drawing and encoding.
    if (width * height > MAX_PAGE_PIXELS) {
      throw new LimitExceeded('page_pixels', `page ${index + 1} is ${Math.round(((x1 - x0) * 72) / dpi)} × ${Math.round(((y1 - y0) * 72) / dpi)} pt: ${width} × ${height} pixels at ${dpi} dpi; at most ${MAX_PAGE_PIXELS / 1e6} million pixels are drawn for one page (ask for a lower dpi)`);
    }
    const encoder = new JpegBandEncoder(width, height, 3, quality, dpi);
    const bands = Math.ceil((width * height * 3) / MAX_BAND_BYTES);
    // Equal bands of whole 16-row MCU rows.
    const bandRows = Math.ceil(height / bands / encoder.bandRows) * encoder.bandRows;
    for (let top = 0; top < height; top += bandRows) {
      const rows = Math.min(bandRows, height - top);
      drawBand(mupdf, list, ctm, [x0, y0 + top, x0 + width, y0 + top + rows], (samples) => encoder.addRows(samples, rows));
      for (const chunk of encoder.take()) await emit(chunk);
      // A turn of the event loop between bands: the API shares this isolate, and without it a
      // POST waited 45 s for its 202 while 40 pages were drawn at 300 dpi.
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    return { width, height };
  } finally {
    list.destroy();
    page.destroy();
  }
}

/**
 * The display list drawn into a white RGB pixmap covering `bbox` (device pixels), its rows packed
 * handed to `use`: a view of MuPDF's memory when rows have no padding (no copy), valid only during the call.
 */
function drawBand(mupdf: typeof Mupdf, list: Mupdf.DisplayList, ctm: Mupdf.Matrix, bbox: [number, number, number, number], use: (samples: Uint8Array) => void): void {
  const pix = new mupdf.Pixmap(mupdf.ColorSpace.DeviceRGB, bbox, false);
  const device = new mupdf.DrawDevice(mupdf.Matrix.identity, pix);
  try {
    pix.clear(255);
    list.run(device, ctm);
    device.close();
    const px = pix.getPixels();
    use(pix.getStride() === pix.getWidth() * 3 ? new Uint8Array(px.buffer, px.byteOffset, px.length) : packedPixels(pix));
  } finally {
    device.destroy();
    pix.destroy();
  }
}

/**
 * The most bytes one picture of a page may take decoded. MuPDF decodes a Flate, LZW or unfiltered
 * picture whole before scaling it to the page (a 9000 × 9000 one in ocrmypdf's multipage.pdf took
 * its heap to 177 MB at 150 dpi); JPEGs it decodes at a reduced scale, CCITT and JBIG2 in bands.
 */
const MAX_DECODED_PICTURE_BYTES = 40_000_000;

type PDFObject = ReturnType<PDFDocument['getTrailer']>;

/** Fails the task, with what to do instead, when page `index` draws a picture too large to decode here. */
function assertImagesDrawable(doc: PDFDocument, index: number): void {
  scanImagesOfPage(doc, index, (image) => {
    const bytes = decodedBytes(image);
    if (bytes <= MAX_DECODED_PICTURE_BYTES) return;
    const [w, h] = [image.get('Width').asNumber(), image.get('Height').asNumber()];
    throw new TaskError({
      reason: 'document_unreadable',
      message: `Page ${index + 1} holds a ${w} × ${h} picture that takes ${Math.round(bytes / 1e6)} MB to draw: more than this service draws at once. Make its pictures smaller with POST /v1/pdf/compress (level "high"), then convert the compressed file (the payment was returned).`,
    });
  });
}

/** What MuPDF holds decoding the picture whole: 0 for JPEGs and bilevel codings, which it decodes scaled or in bands. */
function decodedBytes(image: PDFObject): number {
  const filter = image.get('Filter');
  const names = filter.isArray() ? Array.from({ length: filter.length }, (_, i) => filter.get(i).asName()) : filter.isName() ? [filter.asName()] : [];
  if (names.some((n) => n === 'DCTDecode' || n === 'JPXDecode' || n === 'CCITTFaxDecode' || n === 'JBIG2Decode')) return 0;
  const stencil = image.get('ImageMask').isBoolean() && image.get('ImageMask').asBoolean();
  const space = image.get('ColorSpace');
  const name = space.isName() ? space.asName() : space.isArray() ? space.get(0).asName() : '';
  const components = stencil || name === 'DeviceGray' || name === 'CalGray' || name === 'Indexed' ? 1 : name === 'DeviceCMYK' ? 4 : 3;
  return image.get('Width').asNumber() * image.get('Height').asNumber() * components;
}
