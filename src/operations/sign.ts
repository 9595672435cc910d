import { z } from 'zod';
import type * as Mupdf from 'mupdf';
import { fromBase64 } from '../codecs/png';
import { defineSpec, type RunOf } from './define';
import { PageNumber, pagesOutside } from './params';
import { requirePages } from '../pdf/pdf';
import { streamedPdf } from './streamed-pdf';
import { StampFont, appendToPage, matrix, textAt, visiblePage } from '../pdf/stamp';
import { HANDWRITING } from '../fonts/catalog';
import { TaskError } from '../contracts/failures';
import { webpToPngOrFail } from '../pdf/webp-input';
import { pngHeader, pngProblem, requireDecodablePixels } from '../codecs/image-header';

const MAX_IMAGE_BYTES = 2 * 1024 * 1024;
const DATA_URL = /^data:image\/(png|jpeg|webp);base64,([A-Za-z0-9+/=\s]+)$/;
/** The handwriting face's letters reach above and below the box's middle: this much of the box height is the font size. */
const TEXT_HEIGHT_SHARE = 0.8;

const Fraction = (what: string, dflt: number, min: 'zero' | 'positive') =>
  (min === 'zero' ? z.number().min(0) : z.number().gt(0, `${what} must be greater than 0`)).max(1).default(dflt).describe(`${what} as a fraction of the page, ${min === 'zero' ? '0' : 'over 0'} to 1`);

/**
 * A visual signature (not an electronic one): the text fitted into the box in a handwriting face
 * with Cyrillic, or an image (`data:image/png|jpeg;base64,…`, up to 2 MB) placed in the box with
 * its proportions kept. The box is given in fractions of the page from its top-left corner as a
 * reader sees it, so rotated pages are signed where the reader looks.
 */
export const spec = defineSpec({
  path: 'sign',
  type: 'sign_pdf',
  summary: 'Put a visual signature (handwritten-style text or an image) on a page',
  accepts: ['pdf'],
  inputs: { kind: 'file_id' },
  params: z
    .object({
      signature_data: z.string().min(1).max(3_000_000).describe('the signature text, or an image as data:image/png|jpeg|webp;base64,… up to 2 MB'),
      page: PageNumber.default(1),
      x: Fraction('x', 0.1, 'zero'),
      y: Fraction('y', 0.85, 'zero'),
      width: Fraction('width', 0.2, 'positive'),
      height: Fraction('height', 0.05, 'positive'),
    })
    .superRefine((p, ctx) => {
      if (p.x + p.width > 1 + 1e-9) ctx.addIssue({ code: 'custom', path: ['width'], message: `the box runs off the page: x + width is ${+(p.x + p.width).toFixed(4)}, at most 1` });
      if (p.y + p.height > 1 + 1e-9) ctx.addIssue({ code: 'custom', path: ['height'], message: `the box runs off the page: y + height is ${+(p.y + p.height).toFixed(4)}, at most 1` });
      const image = DATA_URL.exec(p.signature_data);
      if (p.signature_data.startsWith('data:') && !image) ctx.addIssue({ code: 'custom', path: ['signature_data'], message: 'an image signature must be data:image/png, jpeg or webp with a ;base64, payload' });
      if (image && (image[2]!.replace(/\s/g, '').length * 3) / 4 > MAX_IMAGE_BYTES + 2) ctx.addIssue({ code: 'custom', path: ['signature_data'], message: 'the signature image may be at most 2 MB' });
      if (!image && p.signature_data.length > 200) ctx.addIssue({ code: 'custom', path: ['signature_data'], message: 'a text signature may be at most 200 characters' });
    }),
  check: ([input], p) => pagesOutside('page', [p.page], input!.pages).map((e) => ({ ...e, path: 'page' })),
  engine: 'pdf',
});

export async function run({ inputs, params, faces }: RunOf<typeof spec>) {
  const image = DATA_URL.exec(params.signature_data);
  // MuPDF reads no WebP: decoded first, it is handed on as a PNG with its transparency.
  const imageBytes = image ? (image[1] === 'webp' ? await webpToPngOrFail(fromBase64(image[2]!), 'signature', 'send it as data:image/png or jpeg') : fromBase64(image[2]!)) : undefined;
  const fonts = await faces.load(image ? [] : [HANDWRITING]);
  return streamedPdf(inputs[0]!.bytes, (doc, mupdf) => {
    requirePages([params.page], doc.countPages());
    const page = doc.loadPage(params.page - 1) as Mupdf.PDFPage;
    try {
      const visible = visiblePage(page);
      const box = { x: params.x * visible.width, y: params.y * visible.height, w: params.width * visible.width, h: params.height * visible.height };
      if (image && imageBytes) {
        const { ref, width, height } = signatureImage(mupdf, doc, image[1]!, imageBytes);
        // Contained in the box, centred: the image keeps its proportions.
        const scale = Math.min(box.w / width, box.h / height);
        const [w, h] = [width * scale, height * scale];
        const [left, top] = [box.x + (box.w - w) / 2, box.y + (box.h - h) / 2];
        appendToPage(doc, page, visible, `q ${matrix([w, 0, 0, -h, left, top + h])} cm /PESignIm Do Q`, { XObject: { PESignIm: ref } });
      } else {
        const font = new StampFont(mupdf, HANDWRITING, fonts);
        try {
          const text = params.signature_data.replace(/\s+/g, ' ').trim();
          const size = Math.min(box.h * TEXT_HEIGHT_SHARE, (box.w * 0.98) / Math.max(font.width(text, 1), 1e-6));
          const x = box.x + (box.w - font.width(text, size)) / 2;
          // The baseline a third of the font size below the box's middle centres the letters in it.
          const content = textAt(font, 'PESignFont', text, size, x, box.y + box.h / 2 + size * 0.3, 0, [0.05, 0.1, 0.45]);
          appendToPage(doc, page, visible, content, { Font: { PESignFont: font.reference(doc) } });
        } finally {
          font.destroy();
        }
      }
    } finally {
      page.destroy();
    }
  });
}



function signatureImage(mupdf: typeof Mupdf, doc: Parameters<typeof appendToPage>[0], kind: string, bytes: Uint8Array) {
  // A PNG is decoded by MuPDF: its declared size is checked first (a 30000 × 30000 one took the heap
  // to 1.8 GB as a watermark logo); JPEGs are embedded without decoding.
  if (kind.toLowerCase() === 'png') {
    const header = pngHeader(bytes);
    const problem = pngProblem(bytes);
    if (problem) throw new TaskError({ reason: 'document_unreadable', message: `The signature image could not be read as PNG (${problem}): check the data URL's payload (the payment was returned).` });
    if (header) requireDecodablePixels(header.width, header.height, 'The signature image');
  }
  let image: Mupdf.Image | undefined;
  try {
    image = new mupdf.Image(bytes);
    return { ref: doc.addImage(image), width: image.getWidth(), height: image.getHeight() };
  } catch {
    throw new TaskError({ reason: 'document_unreadable', message: `The signature image could not be read as ${kind.toUpperCase()}: check the data URL's payload (the payment was returned).` });
  } finally {
    image?.destroy();
  }
}
