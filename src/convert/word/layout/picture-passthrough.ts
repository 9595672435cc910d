/** Raster pictures on the HTML path: placeholders while drawing, the pictures put into the PDF at the end, their compressed data kept where PDF can carry it as it is. */
import type * as Mupdf from 'mupdf';
import { PICTURE_MAGIC, placeholderIndex, placeholderPng, placeholderUrl } from './placeholders';
import { deflateSync } from 'node:zlib';
import { latin1String } from '../../../lib/latin1';
import { pngAlpha } from '../../../codecs/png-alpha';
import { inflateKnownSize } from '../../../codecs/native-zlib';
import { jpegInfo, type JpegInfo } from './jpeg-info';
import { putPngImageEntries, readPng, type PassThrough } from '../../../codecs/png-parts';
import { ignoreProblems, type ProblemSink } from '../../problems';
import { deinterlace } from '../../../codecs/png-interlace';
import { deflateUnfilteredStream } from '../../../pdf/finish/stream-deflate';
import type { PictureCrop } from '../model/index';
import type { ShapeContent } from './shape-content';
import { contentForm, croppedForm } from './picture-forms';

/** ICC profiles bigger than this are not embedded (sRGB's is 3 KB; camera and print profiles reach hundreds). */
const MAX_ICC_BYTES = 1024 * 1024;

type MupdfModule = typeof Mupdf;

/** A picture behind a placeholder: its bytes, for a PNG that can be written without MuPDF its parts, and the part shown. */
interface Entry {
  data: Uint8Array;
  png?: PassThrough;
  crop?: PictureCrop;
  /** Not a picture: a shape's operators, whose form replaces the placeholder (shape-content.ts). */
  content?: ShapeContent;
}

const NO_DATA = new Uint8Array(0);

/**
 * Pictures kept out of MuPDF's HTML engine: the HTML gets a placeholder picture
 * (../placeholders.ts) carrying the picture's number, and once the PDF is written each
 * placeholder's image object is replaced. Pictures in the HTML cost a base64 encoding in
 * JavaScript, a decoding in MuPDF and the HTML parser reading every character of it (a fifth
 * of a picture-heavy document's time), and MuPDF decoded every PNG to deflate its pixels again.
 * - 8-bit greyscale, RGB and palette PNGs without transparency or interlacing get their own
 *   compressed data with the PNG predictor declared: never decoded.
 * - 8-bit grey+alpha and RGBA PNGs (screenshots mostly, and mostly opaque) keep their compressed
 *   data too, read through a DeviceN colour space whose tint transform drops the alpha component
 *   (PDF has no colour space with alpha); the alpha samples alone are inflated, by the runtime's
 *   zlib, for a soft mask when some pixel is not opaque (png-alpha.ts). MuPDF decoding,
 *   premultiplying and deflating every pixel was half a picture-heavy document's time.
 * - Interlaced 8-bit PNGs are decoded here (png-interlace.ts: the runtime's zlib, unfiltered in
 *   JavaScript) and their samples deflated, with a soft mask unless every pixel is opaque.
 * - Every other picture is handed to MuPDF's image writer, which keeps a JPEG's data as it is
 *   and decodes the rest (transparency becomes a soft mask).
 * - A picture MuPDF cannot read is left out: its space stays blank, the document converts.
 */
export class PicturePassThrough {
  /**
   * Large JPEGs kept out of MuPDF's heap, by the object number of their image: the document's
   * writer puts these bytes there (pdf-finish.ts). A 47 MB DOCX of photos took the heap to 157 MB
   * when MuPDF held them (and doubled its save buffer around them).
   */
  readonly deferred = new Map<number, Uint8Array>();
  private list: Entry[] = [];
  /** Placeholders by picture bytes, then by the part shown ('' for the whole picture). */
  private byData = new WeakMap<Uint8Array, Map<string, { index: number; url?: string }>>();
  /** ICC colour spaces written so far, by the profile's compressed bytes (one object for many pictures). */
  private profiles = new Map<string, Mupdf.PDFObject | null>();
  /** DeviceN spaces that drop an alpha component, by the colour space they pass the colours to. */
  private alphaIgnoring = new Map<Mupdf.PDFObject | string, Mupdf.PDFObject>();

  constructor(
    private readonly mupdf: MupdfModule,
    /** Told of each picture no decoder reads (it is left blank). */
    private readonly problems: ProblemSink = ignoreProblems,
  ) {}

  /** The placeholder's data URI for a picture, or undefined when there is no room for more. */
  placeholder(data: Uint8Array, crop?: PictureCrop): string | undefined {
    const entry = this.entryOf(data, crop);
    // The magic pixel tells a placeholder from a real 2×1 picture of the document.
    if (entry) entry.url ??= placeholderUrl(PICTURE_MAGIC, entry.index);
    return entry?.url;
  }

  /**
   * The placeholder as an image for a device to draw (floating pictures are drawn by the page
   * device, shape-pictures.ts), or undefined when there is no room for more. Drawn as itself,
   * a picture would be decoded by MuPDF and its pixels deflated again when the page is written
   * (GASU.docx: 90 ms for three RGBA screenshots).
   */
  placeholderImage(data: Uint8Array, crop?: PictureCrop): Mupdf.Image | undefined {
    const entry = this.entryOf(data, crop);
    return entry && new this.mupdf.Image(placeholderPng(PICTURE_MAGIC, entry.index));
  }

  /**
   * A placeholder for a shape's operators, to be drawn over the unit square at the page's origin
   * (identity matrix): the form that replaces it maps page space onto that square. The same
   * operators get the same placeholder, which MuPDF's writer keeps as one image object: a shape
   * drawn on every page (a header's) is one form.
   */
  contentImage(content: ShapeContent): Mupdf.Image | undefined {
    let index = this.contents.get(content);
    if (index === undefined) {
      if (this.list.length > 0xffffff) return undefined;
      index = this.list.push({ data: NO_DATA, content }) - 1;
      this.contents.set(content, index);
    }
    return new this.mupdf.Image(placeholderPng(PICTURE_MAGIC, index));
  }
  private contents = new WeakMap<ShapeContent, number>();

  /** The picture's place in the list (added now if new), or undefined when there is no room for more. */
  private entryOf(data: Uint8Array, crop?: PictureCrop): { index: number; url?: string } | undefined {
    let byCrop = this.byData.get(data);
    if (!byCrop) this.byData.set(data, (byCrop = new Map()));
    const key = crop ? `${crop.left},${crop.top},${crop.right},${crop.bottom}` : '';
    let entry = byCrop.get(key);
    if (!entry && this.list.length <= 0xffffff) {
      entry = { index: this.list.push({ data, png: readPng(data), crop }) - 1 };
      byCrop.set(key, entry);
    }
    return entry;
  }

  get size(): number {
    return this.list.length;
  }

  /** Puts each picture into the image objects the placeholders became. */
  replaceIn(pdf: Mupdf.PDFDocument): void {
    if (!this.list.length) return;
    // Placeholder object → the object that replaces it in resources (null: rewritten in place).
    const replaced = new Map<number, Mupdf.PDFObject | null>();
    const forms = new Set<number>();
    const visit = (xobjects: Mupdf.PDFObject) => {
      const swaps: [string | number, Mupdf.PDFObject][] = [];
      xobjects.forEach((ref, key) => {
        if (!ref.isIndirect()) return;
        const num = ref.asIndirect();
        if (!replaced.has(num) && !forms.has(num)) {
          // Everything through the indirect reference: a resolved wrapper of a stream object can lose
          // the stream when the wrapper is released (seen with mupdf.js 1.28: the saved object had no data).
          const subtype = ref.get('Subtype');
          if (subtype.isName() && subtype.asName() === 'Form') {
            forms.add(num);
            const inner = ref.get('Resources', 'XObject');
            if (inner.isDictionary()) visit(inner);
            return;
          }
          if (!subtype.isName() || subtype.asName() !== 'Image' || ref.get('Width').asNumber() !== 2 || ref.get('Height').asNumber() !== 1) return;
          const stream = ref.readStream();
          const index = placeholderIndex(stream.asUint8Array(), 3, PICTURE_MAGIC);
          stream.destroy();
          const entry = index === undefined ? undefined : this.list[index];
          if (!entry) return;
          if (entry.content) replaced.set(num, contentForm(pdf, entry.content));
          else {
            const image = this.replace(pdf, ref, entry, index!);
            replaced.set(num, entry.crop ? croppedForm(pdf, image ?? ref, entry.crop) : image);
          }
        }
        const by = replaced.get(num);
        if (by) swaps.push([key, by]);
      });
      for (const [key, by] of swaps) xobjects.put(key, by);
    };
    for (let i = 0; i < pdf.countPages(); i++) {
      const xobjects = pdf.findPage(i).get('Resources').get('XObject');
      if (xobjects.isDictionary()) visit(xobjects);
    }
  }

  /**
   * The colour space for a PNG: its embedded ICC profile (iCCP) when there is a sound one, so
   * that colours from a wide-gamut screen (Display P3 screenshots) print as they looked; else
   * the device space, which viewers treat as sRGB.
   */
  private colorSpace(pdf: Mupdf.PDFDocument, png: PassThrough): Mupdf.PDFObject {
    const device = pdf.newName(png.colors === 3 ? 'DeviceRGB' : 'DeviceGray');
    if (!png.icc || png.palette) return device; // an indexed picture's palette is plain RGB here
    const key = `${png.colors}|${latin1String(png.icc)}`;
    let space = this.profiles.get(key);
    if (space === undefined) {
      space = null;
      if (iccProfileFits(png.icc, png.colors)) {
        const stream = pdf.newDictionary();
        stream.put('N', png.colors);
        stream.put('Alternate', device);
        stream.put('Filter', pdf.newName('FlateDecode'));
        space = pdf.newArray();
        space.push(pdf.newName('ICCBased'));
        space.push(pdf.addRawStream(png.icc, stream));
      }
      this.profiles.set(key, space);
    }
    return space ?? device;
  }

  /**
   * A colour space for samples with alpha (grey+alpha, RGBA) that shows their colours as the
   * PNG's colour space does and ignores the alpha: DeviceN with the colour components named and
   * the alpha one named None (never marks the page), whose tint transform (a PostScript calculator
   * function, `pop`) hands the colours to the PNG's space. One object per space in a document.
   */
  private alphaIgnoringSpace(pdf: Mupdf.PDFDocument, png: PassThrough): Mupdf.PDFObject {
    const base = this.colorSpace(pdf, png);
    const key = base.isName() ? base.asName() : base;
    let space = this.alphaIgnoring.get(key);
    if (!space) {
      const names = pdf.newArray();
      for (const name of png.colors === 3 ? ['Red', 'Green', 'Blue'] : ['Grey']) names.push(pdf.newName(name));
      names.push(pdf.newName('None'));
      const unit = (n: number) => {
        const range = pdf.newArray();
        for (let i = 0; i < n; i++) (range.push(0), range.push(1));
        return range;
      };
      const drop = pdf.newDictionary();
      drop.put('FunctionType', 4);
      drop.put('Domain', unit(png.colors + 1));
      drop.put('Range', unit(png.colors));
      space = pdf.newArray();
      space.push(pdf.newName('DeviceN'));
      space.push(names);
      space.push(base);
      space.push(pdf.addRawStream('{ pop }', drop));
      space = pdf.addObject(space);
      this.alphaIgnoring.set(key, space);
    }
    return space;
  }

  /**
   * Writes an interlaced PNG into the placeholder's object: its pixels decoded here, the colour
   * samples deflated by the runtime's zlib, the alpha samples a soft mask unless all opaque.
   * False when the data does not decode (MuPDF's decoder gets it).
   */
  private writeInterlaced(pdf: Mupdf.PDFDocument, obj: Mupdf.PDFObject, png: PassThrough): boolean {
    const pixels = deinterlace(png.idat, png.width, png.height, png.colors, !!png.alpha);
    if (!pixels) return false;
    const { samples } = pixels;
    let alpha = pixels.alpha;
    if (alpha) {
      let all = 0xff;
      for (let i = 0; i < alpha.length && all === 0xff; i++) all &= alpha[i]!;
      if (all === 0xff) alpha = undefined;
    }
    writeImage(pdf, obj, { ...png, idat: deflateSync(samples, { level: RAW_PICTURE_LEVEL }), alpha: false }, this.colorSpace(pdf, png), false);
    if (alpha) obj.put('SMask', pdf.addRawStream(deflateSync(alpha, { level: RAW_PICTURE_LEVEL }), softMask(pdf, png)));
    return true;
  }

  /** Writes a PNG into the placeholder's object (null), or returns the image object MuPDF made. */
  private replace(pdf: Mupdf.PDFDocument, placeholder: Mupdf.PDFObject, entry: Entry, index: number): Mupdf.PDFObject | null {
    const png = entry.png;
    if (png?.interlaced) {
      if (this.writeInterlaced(pdf, placeholder, png)) return null;
    } else if (png) {
      if (!png.alpha) {
        writeImage(pdf, placeholder, png, this.colorSpace(pdf, png));
        return null;
      }
      const taken = pngAlpha(png.idat, png.width, png.height, png.colors);
      if (taken) {
        writeImage(pdf, placeholder, png, this.alphaIgnoringSpace(pdf, png));
        if (taken.alpha) placeholder.put('SMask', pdf.addRawStream(taken.alpha, softMask(pdf, png)));
        return null;
      }
      // Damaged or too big to split here: MuPDF's decoder reads what it can.
    }
    if (!png && entry.data.length >= DEFER_JPEG_BYTES && placeholder.isIndirect()) {
      const jpeg = jpegInfo(entry.data);
      if (jpeg) {
        writeJpeg(pdf, placeholder, jpeg);
        this.deferred.set(placeholder.asIndirect(), entry.data);
        return null;
      }
    }
    let image: Mupdf.Image | undefined;
    try {
      image = new this.mupdf.Image(entry.data);
      const added = pdf.addImage(image);
      // MuPDF stored a GIF's, a BMP's or an odd PNG's decoded samples: deflated natively, not by the save.
      deflateUnfilteredStream(pdf, added, RAW_PICTURE_LEVEL);
      deflateUnfilteredStream(pdf, added.get('SMask'), RAW_PICTURE_LEVEL);
      return added;
    } catch (e) {
      this.problems({ part: `picture ${index + 1} (${entry.data.length} bytes)`, reason: `no decoder reads it (${(e as Error).message}): left blank` });
      writeNothing(pdf, placeholder);
      return null;
    } finally {
      image?.destroy();
    }
  }
}

/**
 * zlib level for decoded pictures (an interlaced PNG's samples, a GIF's, a BMP's): level 2 took a
 * third less time than 4 on diploma.docx's 1282 × 713 screenshot (20 against 28 ms) for 6% more
 * bytes (593 against 561 KB); PNG filters made it neither smaller nor faster.
 */
const RAW_PICTURE_LEVEL = 2;

/** JPEGs from this size on stay out of MuPDF (see deferred); smaller ones cost nothing to copy. */
const DEFER_JPEG_BYTES = 64 * 1024;

/** The image dictionary of a JPEG whose bytes the writer adds (the stream holds none meanwhile). */
function writeJpeg(pdf: Mupdf.PDFDocument, obj: Mupdf.PDFObject, jpeg: JpegInfo): void {
  obj.writeRawStream(new Uint8Array(0));
  obj.put('Width', jpeg.width);
  obj.put('Height', jpeg.height);
  obj.put('BitsPerComponent', 8);
  obj.put('ColorSpace', pdf.newName(jpeg.components === 1 ? 'DeviceGray' : 'DeviceRGB'));
  obj.put('Filter', pdf.newName('DCTDecode'));
  for (const key of ['SMask', 'Decode', 'ImageMask', 'Mask', 'DecodeParms']) obj.delete(key);
}

/** Makes an image object draw nothing: a 1×1 stencil mask whose one sample leaves the page as it is. */
function writeNothing(pdf: Mupdf.PDFDocument, obj: Mupdf.PDFObject): void {
  obj.writeRawStream(new Uint8Array([0xff]));
  for (const key of ['SMask', 'Decode', 'Mask', 'ColorSpace', 'Filter', 'DecodeParms']) obj.delete(key);
  obj.put('Width', 1);
  obj.put('Height', 1);
  obj.put('BitsPerComponent', 1);
  obj.put('ImageMask', true);
}

/** The dictionary of a soft mask made of a PNG's alpha samples (deflated, unfiltered). */
function softMask(pdf: Mupdf.PDFDocument, png: PassThrough): Mupdf.PDFObject {
  const mask = pdf.newDictionary();
  mask.put('Type', pdf.newName('XObject'));
  mask.put('Subtype', pdf.newName('Image'));
  mask.put('Width', png.width);
  mask.put('Height', png.height);
  mask.put('ColorSpace', pdf.newName('DeviceGray'));
  mask.put('BitsPerComponent', 8);
  mask.put('Filter', pdf.newName('FlateDecode'));
  return mask;
}

/**
 * Makes the placeholder's object the PNG's picture: its IDAT data as it is, filtered scanlines
 * which the PNG predictor undoes (with the alpha samples, if any, which `colorSpace` ignores);
 * or, not `predicted`, deflated samples.
 */
function writeImage(pdf: Mupdf.PDFDocument, obj: Mupdf.PDFObject, png: PassThrough, colorSpace: Mupdf.PDFObject, predicted = true): void {
  obj.writeRawStream(png.idat);
  putPngImageEntries(pdf, obj, png, colorSpace, predicted);
}

/** Whether an iCCP chunk's compressed profile inflates to an ICC profile for this many colours. */
function iccProfileFits(compressed: Uint8Array, colors: 1 | 3): boolean {
  let profile: Uint8Array;
  try {
    profile = inflateKnownSize(compressed, MAX_ICC_BYTES);
  } catch {
    return false;
  }
  if (profile.length < 128 || latin1String(profile.subarray(36, 40)) !== 'acsp') return false;
  const space = latin1String(profile.subarray(16, 20));
  return colors === 3 ? space === 'RGB ' : space === 'GRAY';
}
