/**
 * A PDF of one image per page, built in a fresh MuPDF document and written by our writer: a JPEG's
 * bytes, and an 8-bit opaque PNG's compressed rows, go from the upload into the output as they are
 * (never into MuPDF's heap, never decoded); other images are added by MuPDF (a PNG's transparency
 * becomes a soft mask).
 */
import type * as Mupdf from 'mupdf';
import { PDF_MIME, type PDFDocument } from './pdf';
import { loadMupdf } from './mupdf';
import type { StreamedOperationResult } from '../contracts/operation';
import { jpegHeader, pngHeader, pngProblem, type Orientation } from '../codecs/image-header';
import { deviceImageMatrix, num, pdfImageMatrix } from './image-placement';
import { streamReachable } from './rewrite';
import { webpToPngOrFail } from './webp-input';
import { drawnPixels } from './image-recode';
import { putPngImageEntries, readPng, type PassThrough } from '../codecs/png-parts';
import { TaskError } from '../contracts/failures';
import type { FileKind } from '../lib/detect';
import { MAX_DECODED_PIXELS } from '../codecs/image-header';

type PDFObject = ReturnType<PDFDocument['getTrailer']>;

/**
 * The most pixels an image MuPDF must decode may have: the one limit of image-header.ts. JPEGs
 * are never decoded here, whatever their size.
 */
export { MAX_DECODED_PIXELS };

/** An image added to the document: its object, its stored size and how it must be turned to stand upright. */
export interface PlacedImage {
  ref: PDFObject;
  width: number;
  height: number;
  orientation: Orientation;
  /** Resolution the file declares, if any. */
  dpi?: number;
}

const EMPTY = new Uint8Array(0);

/** A PDF result made of image pages: `build` adds them to a fresh document, which is then written to R2 and freed. */
export async function imagePagesResult(build: (pages: ImagePages) => Promise<void>): Promise<StreamedOperationResult> {
  const mupdf = await loadMupdf();
  return {
    ext: 'pdf',
    contentType: PDF_MIME,
    produce: async (write) => {
      const pages = new ImagePages(mupdf, new mupdf.PDFDocument());
      try {
        await build(pages);
        await pages.write(write);
      } finally {
        pages.doc.destroy();
      }
    },
  };
}

/** Builds image pages and writes them; JPEG bytes are handed to the writer when it reaches their objects. */
export class ImagePages {
  /** Stream data the writer takes from the uploads when it reaches these objects: JPEGs, PNGs' rows. */
  private readonly streamData = new Map<number, Uint8Array>();

  constructor(
    readonly mupdf: typeof Mupdf,
    readonly doc: PDFDocument,
  ) {}

  /** Adds one uploaded image (`name` says which in messages); fails the task with a message when it cannot be read. */
  async add(bytes: Uint8Array, kind: FileKind, name: string): Promise<PlacedImage> {
    if (kind === 'jpg') {
      const header = jpegHeader(bytes);
      if (!header) throw unreadable(name, 'its JPEG headers do not read');
      if (header.plain) return { ...header, ref: this.addJpeg(bytes, header.width, header.height, header.components, header.adobe) };
      // 12-bit, arithmetic-coded or lossless JPEG: not every reader's DCTDecode reads it, so MuPDF decodes it.
      return { ...this.addDecoded(bytes, name, header.width, header.height), orientation: header.orientation, dpi: header.dpi };
    }
    const png = kind === 'webp' ? await webpToPngOrFail(bytes, name, 'upload it as PNG or JPG') : bytes;
    const header = pngHeader(png);
    if (!header) throw unreadable(name, pngProblem(png) ?? 'its PNG header does not read');
    const parts = kind === 'png' ? readPng(png) : undefined;
    // An 8-bit PNG without transparency or interlacing keeps its own compressed rows: never decoded, any size.
    if (parts && !parts.alpha && !parts.interlaced) return { ref: this.addPngRows(parts), width: parts.width, height: parts.height, orientation: 1, dpi: header.dpi };
    return { ...this.addDecoded(png, name, header.width, header.height), orientation: 1, dpi: header.dpi };
  }

  /** Adds a page of `size` points drawing `image` upright into the box (x, y, w, h) in PDF space. */
  addPage(image: PlacedImage, size: readonly [number, number], box: { x: number; y: number; w: number; h: number }): void {
    const m = pdfImageMatrix(image.orientation, box.x, box.y, box.w, box.h).map(num).join(' ');
    const page = this.doc.addPage([0, 0, size[0], size[1]], 0, { XObject: { Im0: image.ref } }, `q ${m} cm /Im0 Do Q`);
    this.doc.insertPage(-1, page);
  }

  /** Writes the document; the JPEGs' bytes go straight from their uploads into the output. */
  write(write: (chunk: Uint8Array) => Promise<void>): Promise<number> {
    // MuPDF stores a decoded image's samples unfiltered (a 16 KB WEBP became 3 MB): deflated on the way.
    return streamReachable(this.doc, write, undefined, { deflate: true, replace: (n) => (this.streamData.has(n) ? { data: this.streamData.get(n)!, entries: {} } : undefined) });
  }

  /** An image dictionary for a JPEG shown as it is; an Adobe CMYK JPEG stores inverted samples, which /Decode turns back. */
  addJpeg(bytes: Uint8Array, width: number, height: number, components: 1 | 3 | 4, adobe: boolean): PDFObject {
    const { doc } = this;
    const dict = doc.newDictionary();
    dict.put('Type', doc.newName('XObject'));
    dict.put('Subtype', doc.newName('Image'));
    dict.put('Width', width);
    dict.put('Height', height);
    dict.put('BitsPerComponent', 8);
    dict.put('ColorSpace', doc.newName(components === 1 ? 'DeviceGray' : components === 3 ? 'DeviceRGB' : 'DeviceCMYK'));
    dict.put('Filter', doc.newName('DCTDecode'));
    if (components === 4 && adobe) {
      const decode = doc.newArray();
      for (let i = 0; i < 4; i++) (decode.push(1), decode.push(0));
      dict.put('Decode', decode);
    }
    const ref = doc.addRawStream(EMPTY, dict);
    this.streamData.set(ref.asIndirect(), bytes);
    return ref;
  }

  /** An image dictionary for a PNG's IDAT data as it is: FlateDecode with the PNG predictor; a palette as an Indexed space. */
  private addPngRows(png: PassThrough): PDFObject {
    const { doc } = this;
    const dict = doc.newDictionary();
    dict.put('Type', doc.newName('XObject'));
    dict.put('Subtype', doc.newName('Image'));
    const ref = doc.addRawStream(EMPTY, dict);
    putPngImageEntries(doc, ref, png, doc.newName(png.colors === 1 ? 'DeviceGray' : 'DeviceRGB'));
    this.streamData.set(ref.asIndirect(), png.idat);
    return ref;
  }


  /** An image MuPDF decodes and stores (deflated, alpha as a soft mask), within the pixel budget. */
  private addDecoded(bytes: Uint8Array, name: string, width: number, height: number): { ref: PDFObject; width: number; height: number } {
    if (width * height > MAX_DECODED_PIXELS) {
      throw new TaskError({
        reason: 'document_unreadable',
        message: `${name} is ${width} × ${height} pixels: more than the ${MAX_DECODED_PIXELS / 1e6} million this service decodes. Scale it down or save it as JPEG (JPEGs of any size are embedded as they are) and try again (the payment was returned).`,
      });
    }
    let image: Mupdf.Image | undefined;
    try {
      image = new this.mupdf.Image(bytes);
      return { ref: this.doc.addImage(image), width: image.getWidth(), height: image.getHeight() };
    } catch (e) {
      throw unreadable(name, (e as Error).message);
    } finally {
      image?.destroy();
    }
  }
}

/** The most pixels a JPEG drawn smaller may have: MuPDF decodes it at 1/2, 1/4 or 1/8 of its size, never below the target. */
export const MAX_JPEG_PIXELS = 100_000_000;

/**
 * An uploaded picture (JPEG, PNG, or WEBP as PNG) drawn upright by MuPDF into a white nw × nh
 * pixmap, grey or RGB: EXIF orientation applied, transparency over white, resampled by MuPDF's
 * scaler (a JPEG decoded at a reduced scale when that is still at least nw × nh). Packed samples.
 */
export function uprightPixels(mupdf: typeof Mupdf, bytes: Uint8Array, orientation: Orientation, nw: number, nh: number, grey: boolean, name: string): Uint8Array {
  let image: Mupdf.Image | undefined;
  try {
    image = new mupdf.Image(bytes);
    return drawnPixels(mupdf, image, deviceImageMatrix(orientation, nw, nh), nw, nh, grey ? mupdf.ColorSpace.DeviceGray : mupdf.ColorSpace.DeviceRGB);
  } catch (e) {
    throw unreadable(name, (e as Error).message);
  } finally {
    image?.destroy();
    mupdf.emptyStore();
  }
}

function unreadable(name: string, why: string): TaskError {
  return new TaskError({ reason: 'document_unreadable', message: `${name} could not be read as an image (${why}): check the file and upload it again (the payment was returned).` });
}
