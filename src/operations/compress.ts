import { z } from 'zod';
import type * as Mupdf from 'mupdf';
import { defineOperation } from './define';
import { PDF_MIME, saveBytes, withPdf, type PDFDocument } from '../engines/pdf';
import { canRewrite, streamReachable } from '../engines/rewrite';
import { scanPageImages } from '../engines/content-scan';

type PDFObject = ReturnType<PDFDocument['getTrailer']>;

/** Target resolution and JPEG quality of each lossy level (DECISIONS: medium 150 dpi, high 100 dpi). */
const LEVELS = { medium: { dpi: 150, quality: 75 }, high: { dpi: 100, quality: 60 } } as const;
/** Images only a little above the target are left alone: resampling them saves little and costs a generation. */
const SLACK = 1.15;
/** zlib level for streams stored unfiltered (content, fonts): the smallest output zlib gives. */
const DEFLATE_LEVEL = 9;
/** The most pixels one image may have to be resampled here (24 MB of RGB): larger ones are kept as they are. */
const PIXEL_BUDGET = 8_000_000;

/**
 * Makes a PDF smaller (DECISIONS: never larger, else the original bytes). `low` is lossless: unused
 * objects dropped, unfiltered streams (content, fonts) deflated, written by our writer straight to
 * R2 (a 48 MB file took MuPDF's save to 158 MB of heap; object streams are not written). `medium`
 * and `high` also resample the images shown above 150 or 100 dpi (their effective resolution
 * measured from how the pages' content streams draw them, engines/content-scan.ts) and store them as JPEG; masked images, stencils, 1-bit,
 * indexed and CMYK images are left as they are, never broken.
 */
export default defineOperation({
  path: 'compress',
  type: 'compress_pdf',
  summary: 'Make a PDF smaller: lossless, or with images resampled to 150 or 100 dpi',
  accepts: ['pdf'],
  inputs: { kind: 'file_id' },
  params: z.object({ level: z.enum(['low', 'medium', 'high']).default('medium') }),
  engine: 'pdf',
  async run({ inputs, params, log }) {
    const original = inputs[0]!.bytes;
    return {
      ext: 'pdf',
      contentType: PDF_MIME,
      // Written to R2 as it is made: measured first by a pass that keeps nothing, so a result that
      // would not be smaller is never written, and the original goes out instead.
      produce: (write) =>
        withPdf(original, async (doc, mupdf) => {
          if (!canRewrite(doc)) {
            const out = saveBytes(doc, 'garbage=compact,compress,compress-fonts,objstms');
            await write(out.length < original.length ? out : original);
            return;
          }
          const plan = params.level === 'low' ? new Map() : resamplingPlan(mupdf, doc, LEVELS[params.level]);
          const options = { deflateLevel: DEFLATE_LEVEL, objectStreams: true, replace: (num: number) => plan.get(num)?.() };
          const size = await streamReachable(doc, async () => {}, undefined, options);
          log('compress_images', { planned: plan.size, size, input: original.length });
          if (size < original.length && doc.countPages() > 0) await streamReachable(doc, write, undefined, options);
          else await write(original);
        }),
    };
  },
});

/** The highest resolution each image is drawn at, in dots per inch, over all pages, by object number. */
function drawnDpi(doc: PDFDocument): Map<number, number> {
  const dpi = new Map<number, number>();
  scanPageImages(doc, (image, ctm) => {
    if (!image.isIndirect()) return;
    const across = Math.hypot(ctm[0], ctm[1]) / 72;
    const down = Math.hypot(ctm[2], ctm[3]) / 72;
    if (across <= 0 || down <= 0) return;
    const [w, h] = [image.get('Width').asNumber(), image.get('Height').asNumber()];
    const num = image.asIndirect();
    dpi.set(num, Math.max(dpi.get(num) ?? 0, w / across, h / down));
  });
  return dpi;
}

/**
 * The image XObjects to resample to at most `dpi` as JPEG, each as a maker of its new data, called
 * when the writer reaches it: one image is decoded at a time, and none is put back into MuPDF's
 * heap (resampled images written into the document took it from 23 to 58 MB on the bench file).
 */
function resamplingPlan(mupdf: typeof Mupdf, doc: PDFDocument, level: { dpi: number; quality: number }): Map<number, () => Replacement | undefined> {
  const plan = new Map<number, () => Replacement | undefined>();
  const drawn = drawnDpi(doc);
  for (const ref of pageImages(doc)) {
    // The reference itself reads the dictionary: a resolved wrapper of a borrowed object, once
    // collected, dropped it from under the document (the file saved without its images).
    const dict = ref;
    const [w, h] = [dict.get('Width').asNumber(), dict.get('Height').asNumber()];
    const dpi = drawn.get(ref.asIndirect());
    if (!dpi || dpi <= level.dpi * SLACK || w * h > PIXEL_BUDGET || !resamplable(dict)) continue;
    const scale = level.dpi / dpi;
    const [nw, nh] = [Math.max(1, Math.round(w * scale)), Math.max(1, Math.round(h * scale))];
    // Made again by the writing pass rather than kept from the measuring one: held, the resampled
    // images would add up to most of the output in memory. JPEG encoding gives the same bytes again.
    plan.set(ref.asIndirect(), () => {
      const jpeg = resampledJpeg(mupdf, ref, dict, w, h, nw, nh, level.quality);
      const raw = ref.readRawStream();
      const before = raw.getLength();
      raw.destroy();
      mupdf.emptyStore();
      return jpeg && jpeg.length < before ? { data: jpeg, entries: { Width: nw, Height: nh, BitsPerComponent: 8, Filter: '/DCTDecode', DecodeParms: null } } : undefined;
    });
  }
  return plan;
}

type Replacement = { data: Uint8Array; entries: Record<string, number | string | null> };

/**
 * The image XObjects the pages use, through their resources and their forms' resources. Only
 * these are touched: loading every object of a damaged file can make MuPDF repair it, and the
 * repaired file saved without its images (ocrmypdf's c02-22, the Vicksburg OCR sample).
 */
function pageImages(doc: PDFDocument): PDFObject[] {
  const images = new Map<number, PDFObject>();
  const seen = new Set<number>();
  const visit = (resources: PDFObject, depth: number) => {
    const xobjects = resources.get('XObject');
    if (!xobjects.isDictionary() || depth > 8) return;
    xobjects.forEach((ref) => {
      if (!ref.isIndirect() || seen.has(ref.asIndirect())) return;
      seen.add(ref.asIndirect());
      const subtype = ref.get('Subtype');
      if (!subtype.isName()) return;
      if (subtype.asName() === 'Image' && ref.isStream()) images.set(ref.asIndirect(), ref);
      else if (subtype.asName() === 'Form') visit(ref.get('Resources'), depth + 1);
    });
  };
  for (let i = 0; i < doc.countPages(); i++) visit(doc.findPage(i).getInheritable('Resources'), 0);
  return [...images.values()];
}

/** Whether an image can be resampled as JPEG and look the same: 8-bit grey or RGB, no stencil, no mask, no Decode. */
function resamplable(dict: PDFObject): boolean {
  if (dict.get('ImageMask').isBoolean() && dict.get('ImageMask').asBoolean()) return false;
  if (dict.get('BitsPerComponent').asNumber() !== 8) return false;
  // A mask of the old size over a resampled image is not drawn the same (freeculture's cover lost
  // its red title): masked images are left as they are, like colour-keyed ones.
  if (!dict.get('Mask').isNull() || !dict.get('SMask').isNull() || !dict.get('Decode').isNull()) return false;
  const filter = dict.get('Filter');
  const filters = filter.isArray() ? Array.from({ length: filter.length }, (_, i) => filter.get(i).asName()) : filter.isName() ? [filter.asName()] : [];
  if (filters.some((f) => f === 'JBIG2Decode' || f === 'CCITTFaxDecode' || f === 'JPXDecode')) return false;
  return componentsOf(dict.get('ColorSpace')) !== undefined;
}

/** 1 or 3 for grey and RGB spaces (device, calibrated or ICC), undefined for the rest. */
function componentsOf(space: PDFObject): 1 | 3 | undefined {
  const name = space.isName() ? space.asName() : space.isArray() ? space.get(0).asName() : '';
  if (name === 'DeviceGray' || name === 'CalGray') return 1;
  if (name === 'DeviceRGB' || name === 'CalRGB') return 3;
  if (name === 'ICCBased') {
    const n = space.get(1).get('N').asNumber();
    return n === 1 || n === 3 ? n : undefined;
  }
  return undefined;
}

/** The image's samples, area-averaged down to nw × nh and encoded as JPEG. */
function resampledJpeg(mupdf: typeof Mupdf, ref: PDFObject, dict: PDFObject, w: number, h: number, nw: number, nh: number, quality: number): Uint8Array | undefined {
  const n = componentsOf(dict.get('ColorSpace'))!;
  const samples = decodedSamples(mupdf, ref, dict, w, h, n);
  if (!samples) return undefined;
  const pix = new mupdf.Pixmap(n === 1 ? mupdf.ColorSpace.DeviceGray : mupdf.ColorSpace.DeviceRGB, [0, 0, nw, nh], false);
  try {
    areaAverage(samples, w, h, n, pix.getPixels(), nw, nh, pix.getStride());
    return pix.asJPEG(quality).slice();
  } finally {
    pix.destroy();
  }
}

/** 8-bit samples, `n` per pixel, rows packed: a JPEG's decoded by MuPDF, other filters' as the stream reads. */
function decodedSamples(mupdf: typeof Mupdf, ref: PDFObject, dict: PDFObject, w: number, h: number, n: number): Uint8Array | undefined {
  const filter = dict.get('Filter');
  const isJpeg = (filter.isName() && filter.asName() === 'DCTDecode') || (filter.isArray() && filter.length === 1 && filter.get(0).asName() === 'DCTDecode');
  if (isJpeg) {
    const raw = ref.readRawStream();
    let image: Mupdf.Image | undefined;
    let pix: Mupdf.Pixmap | undefined;
    try {
      image = new mupdf.Image(raw.asUint8Array().slice());
      pix = image.toPixmap();
      if (pix.getNumberOfComponents() !== n || pix.getAlpha() || pix.getWidth() !== w || pix.getHeight() !== h) return undefined;
      const stride = pix.getStride();
      const px = pix.getPixels();
      const out = new Uint8Array(w * h * n);
      for (let y = 0; y < h; y++) out.set(px.subarray(y * stride, y * stride + w * n), y * w * n);
      return out;
    } catch {
      return undefined;
    } finally {
      pix?.destroy();
      image?.destroy();
      raw.destroy();
    }
  }
  try {
    const buf = ref.readStream();
    const data = buf.asUint8Array().slice();
    buf.destroy();
    return data.length >= w * h * n ? data : undefined;
  } catch {
    return undefined;
  }
}

/** Box-filter downsampling: each new pixel the mean of the source pixels it covers. */
function areaAverage(src: Uint8Array, w: number, h: number, n: number, dst: Uint8ClampedArray, nw: number, nh: number, stride: number): void {
  const sums = new Float64Array(nw * n);
  const counts = new Float64Array(nw);
  const column = Uint32Array.from({ length: w }, (_, x) => Math.min(nw - 1, Math.floor((x * nw) / w)));
  let row = 0;
  for (let y = 0; y <= h; y++) {
    const target = y < h ? Math.min(nh - 1, Math.floor((y * nh) / h)) : nh;
    if (target !== row) {
      for (let x = 0; x < nw; x++) for (let c = 0; c < n; c++) dst[row * stride + x * n + c] = counts[x] ? sums[x * n + c]! / counts[x]! : 255;
      sums.fill(0);
      counts.fill(0);
      row = target;
      if (y === h) break;
    }
    const base = y * w * n;
    for (let x = 0; x < w; x++) {
      const t = column[x]!;
      counts[t]!++;
      for (let c = 0; c < n; c++) sums[t * n + c] = sums[t * n + c]! + src[base + x * n + c]!;
    }
  }
}
