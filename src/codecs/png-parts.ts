/**
 * The parts of a PNG a PDF can use as they are: an 8-bit PNG's IDAT data is one zlib stream of
 * filtered scanlines, which PDF's FlateDecode with the PNG predictor reads without decoding here.
 * Used by the Word converter's pictures and by jpg-to-pdf.
 */
import type * as Mupdf from 'mupdf';

/**
 * The largest ICC profile kept from an iCCP chunk, compressed or not: sRGB's is 3 KB, Display
 * P3's half a KB; the multi-megabyte profiles are printers' CMYK ones, which a PNG cannot use.
 * A larger one is left out (the picture is shown in the device space, as sRGB).
 */
export const MAX_ICC_BYTES = 1024 * 1024;

/** What a PNG's own compressed data needs to become a PDF image as it is (FlateDecode with PNG predictors). */
export interface PassThrough {
  width: number;
  height: number;
  colors: 1 | 3;
  /** The concatenated IDAT chunks: one zlib stream of filtered scanlines, which PDF's Flate filter reads. */
  idat: Uint8Array;
  /** Palette bytes (RGB triples) for an indexed PNG. */
  palette?: Uint8Array;
  /** The scanlines also carry an alpha sample per pixel (grey+alpha, RGBA): read through a space that ignores it, and taken out for the soft mask (png-alpha.ts). */
  alpha?: boolean;
  /** The zlib-compressed ICC profile of an iCCP chunk. */
  icc?: Uint8Array;
  /** Adam7-interlaced: decoded here (png-interlace.ts), its samples written deflated. */
  interlaced?: boolean;
}

/**
 * The parts of a PNG that can pass through, or undefined when it does not qualify (or does not
 * read). Whether its data can hold the pixels it declares is pngProblem's (image-header.ts), which
 * the image operations check first: undefined here sends a picture to a decoder.
 */
export function readPng(b: Uint8Array): PassThrough | undefined {
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (b.length < 33 || signature.some((x, i) => b[i] !== x)) return undefined;
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  let width = 0;
  let height = 0;
  let colors: 1 | 3 = 3;
  let palette: Uint8Array | undefined;
  let indexed = false;
  let alpha = false;
  let icc: Uint8Array | undefined;
  let interlaced = false;
  const idat: Uint8Array[] = [];
  for (let at = 8; at + 12 <= b.length; ) {
    const length = view.getUint32(at);
    const type = String.fromCharCode(b[at + 4]!, b[at + 5]!, b[at + 6]!, b[at + 7]!);
    const data = b.subarray(at + 8, at + 8 + length);
    if (data.length !== length) return undefined; // truncated
    if (type === 'IHDR') {
      width = view.getUint32(at + 8);
      height = view.getUint32(at + 12);
      const [depth, colorType, , , interlace] = [b[at + 16], b[at + 17], b[at + 18], b[at + 19], b[at + 20]];
      if (depth !== 8 || (interlace !== 0 && interlace !== 1) || ![0, 2, 3, 4, 6].includes(colorType!)) return undefined;
      interlaced = interlace === 1;
      colors = colorType === 2 || colorType === 6 ? 3 : 1;
      indexed = colorType === 3;
      alpha = colorType === 4 || colorType === 6;
    } else if (type === 'PLTE') palette = data;
    else if (type === 'iCCP') {
      const nameEnd = data.indexOf(0);
      if (nameEnd > 0 && data[nameEnd + 1] === 0 && data.length - nameEnd - 2 <= MAX_ICC_BYTES) icc = data.subarray(nameEnd + 2); // compression method 0: zlib
    }
    else if (type === 'tRNS') return undefined; // transparency needs a soft mask: decoded the usual way
    else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') break;
    at += 12 + length;
  }
  if (!width || !height || !idat.length || (indexed && !palette)) return undefined;
  const joined = new Uint8Array(idat.reduce((n, d) => n + d.length, 0));
  let at = 0;
  for (const d of idat) {
    joined.set(d, at);
    at += d.length;
  }
  return { width, height, colors, idat: joined, palette: indexed ? palette : undefined, alpha, icc, interlaced };
}


/**
 * The image entries for a PNG's rows in `obj` (its stream data set elsewhere): size, colour space
 * (a palette as Indexed over DeviceRGB, else `colorSpace`), FlateDecode and, for the PNG's own
 * filtered rows (`predicted`), the PNG predictor; entries of an earlier image removed.
 */
export function putPngImageEntries(pdf: Mupdf.PDFDocument, obj: Mupdf.PDFObject, png: PassThrough, colorSpace: Mupdf.PDFObject, predicted = true): void {
  obj.put('Width', png.width);
  obj.put('Height', png.height);
  obj.put('BitsPerComponent', 8);
  if (png.palette) {
    const indexed = pdf.newArray();
    indexed.push(pdf.newName('Indexed'));
    indexed.push(pdf.newName('DeviceRGB'));
    indexed.push(png.palette.length / 3 - 1);
    indexed.push(pdf.newByteString(png.palette));
    obj.put('ColorSpace', indexed);
  } else obj.put('ColorSpace', colorSpace);
  obj.put('Filter', pdf.newName('FlateDecode'));
  for (const key of ['SMask', 'Decode', 'ImageMask', 'Mask', 'DecodeParms']) obj.delete(key);
  // Decoded samples (an interlaced PNG's) are deflated as they are; a PNG's own data is filtered rows.
  if (!predicted) return;
  const parms = pdf.newDictionary();
  parms.put('Predictor', 15);
  parms.put('Colors', png.colors + (png.alpha ? 1 : 0));
  parms.put('BitsPerComponent', 8);
  parms.put('Columns', png.width);
  obj.put('DecodeParms', parms);
}
