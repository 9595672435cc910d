import { z } from 'zod';
import type * as Mupdf from 'mupdf';
import { defineSpec, type RunOf, type StreamedOperationResult } from './define';
import { PDF_MIME, saveBytes, withPdf, type PDFDocument } from '../pdf/pdf';
import { canRewrite, streamReachable } from '../pdf/rewrite';
import { scanPageImages } from '../pdf/content-scan';
import { WriteInstead } from '../service/tasks/result-writer';
import { bilevel, bilevelResampled, ColourCount, componentsOf, decodedSamples, flateOf, flateParams, isJpeg, jpegOf, jpegQuality, recodable, resampled, type Resampled } from '../pdf/image-recode';

type PDFObject = ReturnType<PDFDocument['getTrailer']>;

/** Target resolution and JPEG quality of each lossy level (DECISIONS: medium 150 dpi, high 100 dpi). */
const LEVELS = { medium: { dpi: 150, monoDpi: 300, quality: 65 }, high: { dpi: 100, monoDpi: 200, quality: 50 } } as const;
/** Images only a little above the target are left alone: resampling them saves little and costs a generation. */
const SLACK = 1.15;
/** The most pixels one image may be decoded to at once (24 MB of RGB); Flate images are read a row at a time instead. */
const PIXEL_BUDGET = 8_000_000;

/**
 * Makes a PDF smaller (DECISIONS: never larger, else the original bytes). `low` is lossless: unused
 * objects dropped, the rest packed into object streams, unfiltered streams deflated and Flate ones
 * deflated again where smaller, written by our writer straight to R2 (a 48 MB file took MuPDF's
 * save to 158 MB of heap). `medium` and `high` also resample the images drawn above 150 or 100 dpi
 * (as the pages' content streams draw them, engines/content-scan.ts) with their soft masks, 1-bit
 * images and stencils above 300 or 200 dpi, and store photographs as JPEG where that is much
 * smaller (imagePlan). Indexed, CMYK, colour-keyed and 16-bit images are left as they are.
 */
export const spec = defineSpec({
  path: 'compress',
  type: 'compress_pdf',
  summary: 'Make a PDF smaller: lossless, or with images resampled to 150 or 100 dpi',
  accepts: ['pdf'],
  inputs: { kind: 'file_id' },
  params: z.object({ level: z.enum(['low', 'medium', 'high']).default('medium') }),
  engine: 'pdf',
});

export async function run({ inputs, params, log }: RunOf<typeof spec>): Promise<StreamedOperationResult> {
  const original = inputs[0]!.bytes;
  return {
    ext: 'pdf',
    contentType: PDF_MIME,
    // Written to R2 as it is made, in one pass: should it reach the input's size, the writing
    // stops and the original is stored instead (DECISIONS: never larger).
    produce: (write) =>
      withPdf(original, async (doc, mupdf) => {
        if (!canRewrite(doc)) {
          const out = saveBytes(doc, 'garbage=compact,compress,compress-fonts,objstms');
          await write(out.length < original.length ? out : original);
          return;
        }
        if (doc.countPages() === 0) throw new WriteInstead(original);
        const plan: Plan = params.level === 'low' ? new Map() : imagePlan(mupdf, doc, LEVELS[params.level]);
        let size = 0;
        const smallerOrOriginal = async (chunk: Uint8Array) => {
          size += chunk.length;
          if (size >= original.length) throw new WriteInstead(original);
          await write(chunk);
        };
        await streamReachable(doc, smallerOrOriginal, undefined, { deflate: true, objectStreams: true, replace: (num: number) => plan.get(num)?.() });
        log('compress_images', { planned: plan.size, size, input: original.length });
      }),
  };
}


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

type Level = { dpi: number; monoDpi: number; quality: number };
type Replacement = { data: Uint8Array; entries: Record<string, number | string | null> };
type Plan = Map<number, () => Replacement | undefined>;
type Size = { w: number; h: number; nw: number; nh: number };

/** A JPEG made from a JPEG replaces it when at most this share of its size (less is not worth a generation). */
const JPEG_TO_JPEG = 0.8;
/** JPEGs stored at up to this much above the level's quality are not encoded again: they would not shrink to JPEG_TO_JPEG. */
const JPEG_QUALITY_MARGIN = 10;
/** A JPEG made from a losslessly stored photograph replaces it when at most this share of its size. */
const JPEG_TO_LOSSLESS = 0.5;

/**
 * What to write instead of the pages' images, each as a maker of its new data called when the
 * writer reaches it: one image is decoded at a time, and none is put back into MuPDF's heap
 * (resampled images written into the document took it from 23 to 58 MB on the bench file).
 * Images drawn above the level's dpi are resampled to it, with their soft masks (to the same size,
 * losslessly); photographs are stored as JPEG at the level's quality when that is much smaller;
 * 1-bit images and stencils drawn above the level's mono dpi are resampled to it.
 */
function imagePlan(mupdf: typeof Mupdf, doc: PDFDocument, level: Level): Plan {
  const plan: Plan = new Map();
  const drawn = drawnDpi(doc);
  const images = pageImages(doc);
  const maskUsers = new Map<number, number>();
  for (const image of images) {
    const mask = image.get('SMask');
    if (mask.isIndirect()) maskUsers.set(mask.asIndirect(), (maskUsers.get(mask.asIndirect()) ?? 0) + 1);
  }
  for (const ref of images) {
    // The reference itself reads the dictionary: a resolved wrapper of a borrowed object, once
    // collected, dropped it from under the document (the file saved without its images).
    const [w, h] = [ref.get('Width').asNumber(), ref.get('Height').asNumber()];
    const dpi = drawn.get(ref.asIndirect());
    if (!dpi || !(w > 0 && h > 0)) continue;
    const sized = (target: number) => {
      // An image that would still be over the pixel budget at the target (a poster-sized page)
      // goes below it, to the budget: it is the most one image may take in memory.
      const scale = Math.min(dpi > target * SLACK ? target / dpi : 1, Math.sqrt(PIXEL_BUDGET / (w * h)));
      return { w, h, nw: Math.max(1, Math.round(w * scale)), nh: Math.max(1, Math.round(h * scale)) };
    };
    if (bilevel(ref)) {
      const size = sized(level.monoDpi);
      if (size.nw !== w) plan.set(ref.asIndirect(), () => newBilevel(mupdf, doc, ref, size));
      continue;
    }
    if (!recodable(ref)) continue;
    const mask = ref.get('SMask');
    const maskFits = mask.isNull() || (mask.isIndirect() && maskUsers.get(mask.asIndirect()) === 1 && recodable(mask, 1) && flateParams(mask) !== undefined);
    const size = maskFits ? sized(level.dpi) : { w, h, nw: w, nh: h };
    // Made again by the writing pass rather than kept from the measuring one: held, the new
    // images would add up to most of the output in memory. Encoding gives the same bytes again.
    plan.set(ref.asIndirect(), () => newImage(mupdf, doc, ref, size, level.quality));
    if (size.nw !== w && mask.isIndirect()) plan.set(mask.asIndirect(), () => resampledMask(mupdf, doc, mask, size.nw, size.nh));
  }
  return plan;
}

/**
 * The image resampled to nw × nh (when that differs from w × h), stored as JPEG when it is a
 * photograph and that is smaller, else losslessly; undefined keeps the original. A resampled image
 * is always replaced when its soft mask is, so that both stay the same size.
 */
function newImage(mupdf: typeof Mupdf, doc: PDFDocument, ref: PDFObject, size: Size, quality: number): Replacement | undefined {
  const { w, h, nw, nh } = size;
  const n = componentsOf(ref.get('ColorSpace'))!;
  const resampling = nw !== w || nh !== h;
  // A JPEG stored at about our quality or below would not come out smaller: not decoded at all.
  if (!resampling && isJpeg(ref) && (storedJpegQuality(ref) ?? 100) <= quality + JPEG_QUALITY_MARGIN) return undefined;
  const image = resampling ? resampled(mupdf, doc, ref, size, n, PIXEL_BUDGET) : sameSize(mupdf, ref, w, h, n);
  if (!image) return undefined;
  const before = rawLength(ref);
  const fromJpeg = isJpeg(ref);
  const jpeg = image.photographic ? jpegOf(mupdf, image.pixels, nw, nh, n, quality) : undefined;
  mupdf.emptyStore();
  const entries = { Width: nw, Height: nh, BitsPerComponent: 8, DecodeParms: null, ...(image.deviceSpace ? { ColorSpace: n === 1 ? '/DeviceGray' : '/DeviceRGB', Decode: null } : {}) };
  const share = (before * nw * nh) / (w * h);
  if (jpeg && jpeg.length <= share * (fromJpeg ? JPEG_TO_JPEG : JPEG_TO_LOSSLESS)) return { data: jpeg, entries: { ...entries, Filter: '/DCTDecode' } };
  if (!resampling) return undefined;
  const flate = flateOf(image.pixels);
  const best = jpeg && jpeg.length < flate.length ? { data: jpeg, entries: { ...entries, Filter: '/DCTDecode' } } : { data: flate, entries: { ...entries, Filter: '/FlateDecode' } };
  return best.data.length < before || ref.get('SMask').isIndirect() ? best : undefined;
}

/** The image's own samples (within the pixel budget), for storing at the same size as JPEG. */
function sameSize(mupdf: typeof Mupdf, ref: PDFObject, w: number, h: number, n: number): Resampled | undefined {
  if (w * h > PIXEL_BUDGET) return undefined;
  const pixels = decodedSamples(mupdf, ref, w, h, n);
  if (!pixels) return undefined;
  const colours = new ColourCount(n);
  colours.add(pixels);
  return { pixels, photographic: isJpeg(ref) || colours.photographic, deviceSpace: false };
}

/** A soft mask resampled to the new size of its image, losslessly (its edges are the image's outline). */
function resampledMask(mupdf: typeof Mupdf, doc: PDFDocument, mask: PDFObject, nw: number, nh: number): Replacement | undefined {
  const [w, h] = [mask.get('Width').asNumber(), mask.get('Height').asNumber()];
  const image = resampled(mupdf, doc, mask, { w, h, nw, nh }, 1, PIXEL_BUDGET);
  if (!image) return undefined;
  return { data: flateOf(image.pixels), entries: { Width: nw, Height: nh, BitsPerComponent: 8, Filter: '/FlateDecode', DecodeParms: null } };
}

/** A 1-bit image or stencil at its new size, when that is smaller than it was. */
function newBilevel(mupdf: typeof Mupdf, doc: PDFDocument, ref: PDFObject, size: Size): Replacement | undefined {
  const bits = bilevelResampled(mupdf, doc, ref, size.nw, size.nh);
  if (!bits) return undefined;
  const data = flateOf(bits);
  if (data.length >= rawLength(ref)) return undefined;
  return { data, entries: { Width: size.nw, Height: size.nh, BitsPerComponent: 1, Filter: '/FlateDecode', DecodeParms: null, Decode: null } };
}

function storedJpegQuality(ref: PDFObject): number | undefined {
  const raw = ref.readRawStream();
  try {
    return jpegQuality(raw.asUint8Array().subarray(0, 4096));
  } finally {
    raw.destroy();
  }
}

function rawLength(ref: PDFObject): number {
  const raw = ref.readRawStream();
  const length = raw.getLength();
  raw.destroy();
  return length;
}

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
