import { z } from 'zod';
import { defineSpec, type RunOf } from './define';
import { ImagePages, MAX_DECODED_PIXELS, MAX_JPEG_PIXELS, imagePagesResult, uprightPixels } from '../pdf/image-pages';
import { jpegHeader, pngHeader, type ImageHeader, type JpegHeader } from '../codecs/image-header';
import { A4, MARGIN_PT, fitCentred, swapsSides } from '../pdf/image-placement';
import { webpToPngOrFail } from '../pdf/webp-input';
import { lumaOf, scanLook } from '../pdf/scan-look';
import { rotated, skewAngle } from '../pdf/deskew';
import { encodeJpeg } from '../codecs/jpeg-encoder';
import { TaskError } from '../contracts/failures';
import type { InputFile } from './define';

/** DECISIONS: photos are downscaled to at most 200 dpi at the size they are shown. */
const MAX_DPI = 200;
/** JPEG quality of the pages: photos keep their detail; scans are mostly white paper and dark strokes. */
const QUALITY = { photo: 80, scan: 75 } as const;

/**
 * Photos to a PDF of A4 pages (DECISIONS photo-to-pdf): each image on its own page, landscape
 * when it is wider than tall, fitted and centred inside 10 mm margins, EXIF orientation applied,
 * downscaled to at most 200 dpi at that size (never enlarged), stored as JPEG. `grayscale` drops
 * the colour; `mode: scan` makes a photographed page read like a scan (engines/scan-look.ts) and
 * turns back a page photographed a few degrees askew (engines/deskew.ts).
 */
export const spec = defineSpec({
  path: 'photo-to-pdf',
  type: 'photo_to_pdf',
  summary: 'Photos to a PDF of A4 pages, optionally cleaned up like a document scan',
  accepts: ['jpg', 'png', 'webp'],
  inputs: { kind: 'file_ids', min: 1, max: 10 },
  params: z.object({
    mode: z.enum(['photo', 'scan']).default('photo'),
    grayscale: z.boolean().default(false),
  }),
  engine: 'pdf',
});

export function run({ inputs, params, progress }: RunOf<typeof spec>) {
  return imagePagesResult(async (pages) => {
    for (const [i, input] of inputs.entries()) {
      await addPhoto(pages, input, `Image ${i + 1} (${input.file.filename})`, params);
      progress(i + 1, inputs.length);
    }
  });
}


type Params = { mode: 'photo' | 'scan'; grayscale: boolean };

/** One photo on its own A4 page, as the parameters ask. */
async function addPhoto(pages: ImagePages, input: { file: InputFile; bytes: Uint8Array }, name: string, params: Params): Promise<void> {
  const bytes = input.file.kind === 'webp' ? await webpToPngOrFail(input.bytes, name, 'upload it as PNG or JPG') : input.bytes;
  const header = headerOf(bytes, input.file, name);
  const [w, h] = swapsSides(header.orientation) ? [header.height, header.width] : [header.width, header.height];
  const size = w > h ? ([A4[1], A4[0]] as const) : A4;
  const box = fitCentred(w, h, MARGIN_PT, MARGIN_PT, size[0] - 2 * MARGIN_PT, size[1] - 2 * MARGIN_PT);
  const scale = Math.min(1, ((box.w / 72) * MAX_DPI) / w);
  const [nw, nh] = [Math.max(1, Math.round(w * scale)), Math.max(1, Math.round(h * scale))];
  const grey = params.grayscale;
  if ('plain' in header && header.plain && scale === 1 && !grey && params.mode === 'photo') {
    // Already within 200 dpi: the photo goes in as it is, its orientation applied by the page.
    pages.addPage({ ref: pages.addJpeg(bytes, header.width, header.height, header.components, header.adobe), width: header.width, height: header.height, orientation: header.orientation }, size, box);
    return;
  }
  let pixels = uprightPixels(pages.mupdf, bytes, header.orientation, nw, nh, grey, name);
  if (params.mode === 'scan') {
    scanLook(pixels, nw, nh, grey ? 1 : 3);
    const angle = skewAngle(lumaOf(pixels, grey ? 1 : 3), nw, nh);
    if (angle) pixels = rotated(pixels, nw, nh, grey ? 1 : 3, -angle);
  }
  // Our encoder, in JavaScript: MuPDF's asJPEG writes progressive JPEG, holding every coefficient
  // in its heap (a 1496 × 1936 page took it from 43 to 99.5 MB; WASM memory never shrinks).
  const jpeg = encodeJpeg(pixels, nw, nh, grey ? 1 : 3, QUALITY[params.mode], MAX_DPI);
  pages.addPage({ ref: pages.addJpeg(jpeg, nw, nh, grey ? 1 : 3, false), width: nw, height: nh, orientation: 1 }, size, box);
}

/** The picture's header, refused with a message when it is unreadable or larger than can be decoded. */
function headerOf(bytes: Uint8Array, file: InputFile, name: string): ImageHeader | JpegHeader {
  const header = file.kind === 'jpg' ? jpegHeader(bytes) : pngHeader(bytes);
  if (!header) throw new TaskError({ reason: 'document_unreadable', message: `${name} could not be read as an image: check the file and upload it again (the payment was returned).` });
  const limit = file.kind === 'jpg' ? MAX_JPEG_PIXELS : MAX_DECODED_PIXELS;
  if (header.width * header.height > limit) {
    throw new TaskError({ reason: 'document_unreadable', message: `${name} is ${header.width} × ${header.height} pixels: more than the ${limit / 1e6} million this service decodes. Scale it down and try again (the payment was returned).` });
  }
  return header;
}
