/**
 * A PDF of pages our own engine laid out as display lists: each page's layers painted in turn by
 * the display painter (paint/display-painter.ts) into MuPDF's DocumentWriter, its boxes and PNGs
 * written by page-graphics.ts, its text by page-text.ts in the faces we embed (a later layer's
 * boxes and text over an earlier layer's text), and the file finished by the one finisher. The
 * spreadsheet and slide converters print through it.
 */
import type * as Mupdf from 'mupdf';
import type { DisplayItem } from '../contracts/display';
import type { FontBook } from '../layout/text/font-book';
import { finishPdf, type PageLink } from '../pdf/finish';
import { paintDisplay, type DisplaySinks, type DrawPicture, type UnderSink } from './display-painter';
import { METAFILE, playMetafile } from './metafile';
import { MupdfPainter } from './mupdf-painter';
import { PageGraphics } from './page-graphics';
import { PageText } from './page-text';

/** One page: its size in points and its display lists, bottom layer first. */
export interface DisplayPage {
  width: number;
  height: number;
  layers: DisplayItem[][];
}

/**
 * Pictures as MuPDF reads them (PNG, JPEG, GIF, BMP, TIFF), and EMF and WMF played as vectors and
 * text (paint/metafile.ts) in the book's faces; a picture that does not decode is left out, a
 * metafile that breaks keeps what it drew.
 */
const drawPictureWith = (mupdf: typeof Mupdf, fonts: FontBook): DrawPicture => (device, data, contentType, ctm, look = {}) => {
  const { crop, opacity = 1 } = look;
  if (METAFILE.test(contentType)) {
    const painter = new MupdfPainter(mupdf, device, ctm, fonts);
    try {
      playMetafile(data, contentType, painter);
    } finally {
      try {
        painter.end();
      } catch {
        // The device is past saving for this picture; the page goes on without it.
      }
    }
    return;
  }
  let image: Mupdf.Image;
  try {
    image = new mupdf.Image(data);
  } catch {
    return;
  }
  try {
    if (look.grayscale) image = greyed(mupdf, image);
    if (crop) drawCropped(mupdf, device, image, ctm, crop, opacity);
    else device.fillImage(image, ctm, opacity);
  } catch {
    // Its data is damaged past its header (MuPDF decodes it only when drawing): left out, as one that does not open.
  } finally {
    image.destroy();
  }
};

/** The picture in greys (its pixels converted to DeviceGray, an alpha channel kept); the colour one is let go. */
function greyed(mupdf: typeof Mupdf, image: Mupdf.Image): Mupdf.Image {
  const pixels = image.toPixmap();
  const grey = pixels.convertToColorSpace(mupdf.ColorSpace.DeviceGray, true);
  pixels.destroy();
  const out = new mupdf.Image(grey);
  grey.destroy();
  image.destroy();
  return out;
}

/** The shown part of a cropped picture stretched over the unit square `ctm` maps: the whole picture drawn larger, clipped to the square. */
function drawCropped(mupdf: typeof Mupdf, device: Mupdf.Device, image: Mupdf.Image, ctm: Mupdf.Matrix, crop: { left: number; top: number; right: number; bottom: number }, opacity: number): void {
  const sx = 1 / Math.max(0.01, 1 - crop.left - crop.right);
  const sy = 1 / Math.max(0.01, 1 - crop.top - crop.bottom);
  const square = new mupdf.Path();
  square.moveTo(0, 0);
  square.lineTo(1, 0);
  square.lineTo(1, 1);
  square.lineTo(0, 1);
  square.closePath();
  device.clipPath(square, false, ctm);
  try {
    device.fillImage(image, mupdf.Matrix.concat([sx, 0, 0, sy, -crop.left * sx, -crop.top * sy], ctm), opacity);
  } finally {
    device.popClip();
    square.destroy();
  }
}

/** The PDF of `pages` (made one at a time, as they are asked for), in the chunks it is written in; no pages make one blank Letter page. */
export function writeDisplayPdf(mupdf: typeof Mupdf, fonts: FontBook, pages: Iterable<DisplayPage>): Uint8Array[] {
  const out = new mupdf.Buffer();
  const writer = new mupdf.DocumentWriter(out, 'pdf', '');
  const text = new PageText();
  const graphics = new PageGraphics();
  const drawPicture = drawPictureWith(mupdf, fonts);
  const links: PageLink[] = [];
  let index = 0;
  for (const page of pages) {
    const device = writer.beginPage([0, 0, page.width, page.height]);
    const [at, height] = [index++, page.height];
    const under: UnderSink = {
      fill: (box) => graphics.fill(at, height, box),
      shape: (shape) => graphics.shape(at, height, shape),
      takes: (picture) => graphics.takes(picture),
      picture: (picture) => graphics.picture(at, height, picture),
      clip: (rect) => graphics.clip(at, height, rect),
      unclip: () => graphics.unclip(at),
    };
    const sinks: DisplaySinks = { text: (t, x, baseline, angle) => text.show(at, height, t, x, baseline, angle), link: (rect, uri) => links.push({ page: at, rect, uri }), clip: (rect) => text.clip(at, height, rect), unclip: () => text.unclip(at), under };
    page.layers.forEach((items, k) => {
      if (k > 0 && !items.length) return;
      // A later layer covers the text under it (a sheet's text box over its cells).
      if (k > 0) text.over(at), graphics.over(at);
      paintDisplay(mupdf, device, items, drawPicture, sinks);
    });
    writer.endPage();
    text.seal(at);
    graphics.seal(at);
    device.destroy();
  }
  if (!index) {
    const blank = writer.beginPage([0, 0, 612, 792]);
    writer.endPage();
    blank.destroy();
  }
  writer.close();
  writer.destroy();
  try {
    return finishPdf(mupdf, out, {
      links,
      write: (pdf) => {
        // The boxes go first, so that the text's q/Q takes them in with the device's content.
        const over = new Map<number, Mupdf.PDFObject[]>();
        const boxes = graphics.writeInto(pdf, over);
        const own = text.writeInto(pdf, (font) => fonts.bytesOf(font), over);
        return { fonts: own.fonts, streams: new Set([...own.streams, ...boxes]) };
      },
    });
  } finally {
    out.destroy();
  }
}
