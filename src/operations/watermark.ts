import { z } from 'zod';
import type * as Mupdf from 'mupdf';
import { defineSpec, type RunOf } from './define';
import { PagesOrAll, pagesOutside, selectedPages } from './params';
import { sizeUnits } from '../service/billing/pricing';
import { requirePages } from '../pdf/pdf';
import { streamedPdf } from './streamed-pdf';
import { SANS, StampFont, appendToPage, matrix, opacityState, textAt, visiblePage, type VisiblePage } from '../pdf/stamp';
import { TaskError } from '../contracts/failures';
import { webpToPngOrFail } from '../pdf/webp-input';
import { pngHeader, pngProblem, requireDecodablePixels } from '../codecs/image-header';
import { LimitExceeded } from '../lib/limits';

/** Space between a corner watermark and the page's edges, and between tiles, in points. */
const MARGIN = 36;
const TILE_GAP = 48;

type Position = 'center' | 'tile' | 'top-left' | 'top-right' | 'bottom-left' | 'bottom-right';

/**
 * Text (Cyrillic included) or an uploaded logo over every chosen page, where a reader sees it: the
 * stamp is placed in the page's visible frame (engines/stamp.ts), turned `angle` degrees
 * counter-clockwise about its centre, and kept inside the page at the corners. A PNG's or a
 * WebP's transparency is kept (MuPDF gives it a soft mask).
 */
export const spec = defineSpec({
  path: 'watermark',
  type: 'watermark_pdf',
  summary: 'Add a text or logo watermark to a PDF',
  accepts: ['pdf'],
  inputs: { kind: 'file_id' },
  fileParams: { image_file_id: ['png', 'jpg', 'webp'] },
  params: z
    .object({
      text: z.string().min(1).max(500).optional(),
      image_file_id: z.string().min(1).max(100).optional(),
      font_size: z.number().int().min(8).max(200).default(48),
      color: z.string().regex(/^#[0-9a-fA-F]{6}$/, 'color must be a hex colour such as #FF0000').default('#FF0000'),
      opacity: z.number().min(0).max(1).default(0.3),
      angle: z.number().min(-180).max(180).default(45),
      position: z.enum(['center', 'tile', 'top-left', 'top-right', 'bottom-left', 'bottom-right']).default('center'),
      pages: PagesOrAll.default('all'),
      scale: z.number().min(0.1).max(2).default(0.3),
    })
    .superRefine((p, ctx) => {
      if ((p.text === undefined) === (p.image_file_id === undefined)) {
        ctx.addIssue({ code: 'custom', path: [p.text === undefined ? 'text' : 'image_file_id'], message: 'give exactly one of text and image_file_id' });
      }
    }),
  check: ([input], p) => (p.pages === 'all' ? [] : pagesOutside('pages', p.pages, input!.pages)),
  // The logo is not paid for: the price is the PDF's, as for every one-file operation.
  price: (inputs) => sizeUnits(inputs.slice(0, 1)),
  engine: 'pdf',
});

export async function run({ inputs, params, progress, faces }: RunOf<typeof spec>) {
  const logo = params.image_file_id ? inputs.find((i) => i.file.file_id === params.image_file_id) : undefined;
  // MuPDF reads no WebP: decoded first, it is handed on as a PNG with its transparency.
  const logoBytes = logo ? (logo.file.kind === 'webp' ? await webpToPngOrFail(logo.bytes, 'logo', 'upload it as PNG or JPG') : logo.bytes) : undefined;
  if (logoBytes) checkLogo(logoBytes);
  const fonts = await faces.load(logoBytes ? [] : [SANS]);
  return streamedPdf(inputs[0]!.bytes, (doc, mupdf) => {
    const count = doc.countPages();
    const pages = [...new Set(selectedPages(params.pages, count))].sort((a, b) => a - b);
    requirePages(pages, count);
    const gs = opacityState(doc, params.opacity);
    const image = logoBytes ? logoImage(mupdf, doc, logoBytes) : undefined;
    const font = image ? undefined : new StampFont(mupdf, SANS, fonts);
    try {
      const drawn: [Mupdf.PDFPage, VisiblePage, string][] = [];
      for (const n of pages) {
        const page = doc.loadPage(n - 1) as Mupdf.PDFPage;
        const visible = visiblePage(page);
        const size = image ? { w: visible.width * params.scale, h: visible.width * params.scale * (image.height / image.width) } : { w: font!.width(params.text!, params.font_size), h: params.font_size };
        const draw = (cx: number, cy: number) => (image ? imageAt(size.w, size.h, cx, cy, params.angle) : textCentredAt(font!, params.text!, params.font_size, cx, cy, params.angle, rgbOf(params.color)));
        const stamps = centres(visible, size.w, size.h, params.angle, params.position).map(([x, y]) => draw(x, y));
        drawn.push([page, visible, `/PEWmGS gs\n${stamps.join('\n')}`]);
        progress(drawn.length, pages.length);
      }
      const resources: Record<string, Record<string, typeof gs>> = { ExtGState: { PEWmGS: gs } };
      if (image) resources['XObject'] = { PEWmIm: image.ref };
      else resources['Font'] = { PEWmFont: font!.reference(doc) };
      for (const [page, visible, content] of drawn) {
        appendToPage(doc, page, visible, content, resources);
        page.destroy();
      }
    } finally {
      font?.destroy();
    }
  });
}


const rgbOf = (hex: string): [number, number, number] => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255) as [number, number, number];

/** Visual counter-clockwise rotation in the y-down frame. */
const turn = (x: number, y: number, angle: number): [number, number] => {
  const r = (angle * Math.PI) / 180;
  return [x * Math.cos(r) + y * Math.sin(r), -x * Math.sin(r) + y * Math.cos(r)];
};

/** Centres of the stamps of a `w` × `h` box turned `angle`: one, at a corner or the middle, or a grid over the page. */
function centres(page: VisiblePage, w: number, h: number, angle: number, position: Position): [number, number][] {
  const r = (angle * Math.PI) / 180;
  const hx = Math.abs((w / 2) * Math.cos(r)) + Math.abs((h / 2) * Math.sin(r));
  const hy = Math.abs((w / 2) * Math.sin(r)) + Math.abs((h / 2) * Math.cos(r));
  const [W, H] = [page.width, page.height];
  switch (position) {
    case 'center':
      return [[W / 2, H / 2]];
    case 'top-left':
      return [[MARGIN + hx, MARGIN + hy]];
    case 'top-right':
      return [[W - MARGIN - hx, MARGIN + hy]];
    case 'bottom-left':
      return [[MARGIN + hx, H - MARGIN - hy]];
    case 'bottom-right':
      return [[W - MARGIN - hx, H - MARGIN - hy]];
    case 'tile': {
      const [sx, sy] = [2 * hx + TILE_GAP, 2 * hy + TILE_GAP];
      const out: [number, number][] = [];
      for (let row = 0, y = hy / 2; y - hy < H; row++, y += sy) for (let x = row % 2 ? sx / 2 : 0; x - hx < W; x += sx) out.push([x, y]);
      return out.slice(0, 2000); // a tiny text on a huge page: enough to cover it
    }
  }
}

function textCentredAt(font: StampFont, text: string, size: number, cx: number, cy: number, angle: number, rgb: [number, number, number]): string {
  // The baseline about a third of the size below the centre puts the letters' middle on it.
  const [dx, dy] = turn(-font.width(text, size) / 2, size * 0.35, angle);
  return textAt(font, 'PEWmFont', text, size, cx + dx, cy + dy, angle, rgb);
}

function imageAt(w: number, h: number, cx: number, cy: number, angle: number): string {
  const r = (angle * Math.PI) / 180;
  const [cos, sin] = [Math.cos(r), Math.sin(r)];
  // The image's unit square (y up) onto the box: its bottom-left corner at (-w/2, h/2) about the centre.
  const [ex, ey] = turn(-w / 2, h / 2, angle);
  return `q ${matrix([w * cos, -w * sin, -h * sin, -h * cos, cx + ex, cy + ey])} cm /PEWmIm Do Q`;
}

/**
 * A PNG logo (or a WebP's PNG) refused before MuPDF decodes it, which it does whole into its heap:
 * data that cannot hold the pixels its header declares, or more pixels than the one decoding
 * limit (MAX_DECODED_PIXELS, image-header.ts; a 30000 × 30000 grey PNG of 875 KB took MuPDF's heap
 * to 1.8 GB). A JPEG logo is embedded as it is, never decoded, whatever its size.
 */
function checkLogo(bytes: Uint8Array): void {
  if (bytes[0] !== 0x89 || bytes[1] !== 0x50) return; // not a PNG: MuPDF reads a JPEG's header only
  const problem = pngProblem(bytes);
  if (problem) throw new TaskError({ reason: 'document_unreadable', message: `The logo could not be read as a PNG (${problem}): upload it again as PNG or JPG (the payment was returned).` });
  const header = pngHeader(bytes)!;
  try {
    requireDecodablePixels(header.width, header.height, 'the logo');
  } catch (e) {
    if (!(e instanceof LimitExceeded)) throw e;
    throw new TaskError({ reason: 'limit_exceeded', message: `${e.message} (scale it down, or upload it as JPG, which is embedded without decoding)` });
  }
}

/** The logo as an image object of the document (MuPDF reads PNG and JPEG; a PNG's alpha becomes a soft mask). */
function logoImage(mupdf: typeof Mupdf, doc: Parameters<typeof opacityState>[0], bytes: Uint8Array): { ref: ReturnType<typeof opacityState>; width: number; height: number } {
  let image: Mupdf.Image | undefined;
  try {
    image = new mupdf.Image(bytes);
    return { ref: doc.addImage(image), width: image.getWidth(), height: image.getHeight() };
  } catch {
    throw new TaskError({ reason: 'document_unreadable', message: 'The logo image could not be read: upload it again as PNG or JPG (the payment was returned).' });
  } finally {
    image?.destroy();
  }
}
