/**
 * The PDF being written (render.ts's second pass): its pages, opened and closed in turn, the
 * frames of laid-out chunks drawn onto them, and their links, headings and link targets gathered
 * for the finisher.
 */
import type * as Mupdf from 'mupdf';
import type { PageGeometry } from '../model/index';
import { finish } from './pdf-finish';
import { drawPageColor } from './page-borders';
import type { FlowFrame } from './flows';
import { METAFILE } from '../../../paint/metafile';
import type { DrawPicture } from '../../../paint/display-painter';
import { FlowPages } from './flow-pages';
import type { DocumentLayouts } from './document-layouts';

/** The bookmark a link within the document names ("#name", percent-encoded by MuPDF where it must be). */
function bookmarkName(uri: string): string {
  try {
    return decodeURIComponent(uri.slice(1));
  } catch {
    return uri.slice(1);
  }
}

/** The page being drawn: its index, the writer's device, and the device its content goes through (one that draws stand-ins, or the same). */
export interface OpenPage {
  index: number;
  pageDevice: Mupdf.Device;
  device: Mupdf.Device;
}

export class PageWriter {
  private readonly out: Mupdf.Buffer;
  private readonly writer: Mupdf.DocumentWriter;
  /** Hyperlinks of each written page: the writer draws, it does not carry link annotations over. */
  private readonly links: { page: number; rect: Mupdf.Rect; uri: string }[] = [];
  /** Links within the document, made once every target is placed (finish). */
  private readonly internalLinks: { page: number; rect: Mupdf.Rect; name: string }[] = [];
  written = 0;
  pageNumber = 0;
  /**
   * The page being drawn stays open until the next one begins: a continuous section with other
   * columns may start on it, below its text (sharedTops).
   */
  open: OpenPage | undefined;
  /** What our own engine laid out, drawn onto the writer's pages; its text put into the PDF by finish. */
  readonly ownDrawing: FlowPages;

  constructor(private readonly d: DocumentLayouts) {
    const mupdf = d.mupdf;
    this.out = new mupdf.Buffer();
    // Fonts are written uncompressed: whole faces go in first and are deflated only after subsetting (finish).
    // Images are compressed at once (raw pixels would multiply the heap).
    this.writer = new mupdf.DocumentWriter(this.out, 'pdf', 'compress-images');
    /** Pictures our engine draws: rasters as placeholders (put into the PDF at the end), metafiles as vectors. */
    const drawPicture: DrawPicture = (device, data, contentType, ctm, look) => {
      if (METAFILE.test(contentType)) return d.metafiles.draw(device, data, contentType, ctm, d.fonts);
      const image = d.pictures.placeholderImage(data, look?.crop);
      if (!image) return;
      device.fillImage(image, ctm, 1);
      image.destroy();
    };
    this.ownDrawing = new FlowPages(mupdf, drawPicture, {
      link: (page, rect, uri) => this.links.push({ page, rect, uri }),
      internalLink: (page, rect, name) => this.internalLinks.push({ page, rect, name }),
      paragraphAt: (placed, page, y) => {
        const p = d.blocks.sourceOf(placed);
        if (!p) return;
        if (p.props.outlineLevel !== undefined && p.props.outlineLevel < 9) d.outline.place(d.outline.index(p), page, y);
        if (p.props.bookmarks?.length) d.targets.place(d.targets.index(p), page, y);
      },
    });
  }

  /** A new page of the writer's, the document's page colour (if any) under all else. */
  beginPage(g: PageGeometry): Mupdf.Device {
    const device = this.writer.beginPage([0, 0, g.width, g.height]);
    if (this.d.model.pageColor) drawPageColor(this.d.mupdf, device, this.d.model.pageColor, g.width, g.height);
    return device;
  }

  /** A page with nothing on it (a section that starts on an odd or even page). */
  blankPage(g: PageGeometry): void {
    const blank = this.beginPage(g);
    this.writer.endPage();
    blank.destroy();
    this.written++;
    this.pageNumber++;
  }

  endPage(): void {
    const open = this.open;
    if (!open) return;
    const shapes = this.d.shapes;
    shapes.flushText(open.device);
    shapes.endPage();
    if (open.device !== open.pageDevice) {
      open.device.close();
      open.device.destroy();
    }
    this.writer.endPage();
    this.ownDrawing.text.seal(open.index);
    // mupdf.js keeps its own reference to the page device: dropped now, not when the GC gets to it.
    open.pageDevice.destroy();
    this.open = undefined;
    // Decoded pictures of this page are not needed for the next: keep the heap at one page's worth.
    this.d.mupdf.emptyStore();
  }

  /**
   * Draws frames of a laid-out chunk as the columns of the open page, their top at `top`; `target`
   * may pick a device per frame (none: the frame is skipped).
   */
  drawFrames(target: Mupdf.Device | ((frame: number) => Mupdf.Device | undefined), f: FlowFrame, doc: Mupdf.Document, pageFrames: number[], firstFrame: number, top: number, linkFrames?: Set<number>): void {
    const { d, open } = this;
    const left = f.flow.section.page.marginLeft;
    for (const frame of pageFrames) {
      const device = typeof target === 'function' ? target(frame) : target;
      if (!device) continue;
      const dx = left + (frame - firstFrame) * (f.frameWidth + f.gap);
      const page = doc.loadPage(frame);
      page.run(device, d.mupdf.Matrix.translate(dx, top));
      for (const h of d.placesIn(doc)) if (h.frame === frame) (h.prefix === 'hd' ? d.outline : d.targets).place(h.k, open!.index, top + h.y);
      for (const link of linkFrames?.has(frame) ? page.getLinks() : []) {
        const [x0, y0, x1, y1] = link.getBounds();
        const rect: Mupdf.Rect = [x0 + dx, y0 + top, x1 + dx, y1 + top];
        // The link's id also makes an empty link box where the link starts: nothing to click.
        if (x1 - x0 > 0.01 && y1 - y0 > 0.01) {
          const uri = link.getURI();
          if (link.isExternal()) this.links.push({ page: open!.index, rect, uri });
          else if (uri.startsWith('#') && uri.length > 1) this.internalLinks.push({ page: open!.index, rect, name: bookmarkName(uri) });
        }
        link.destroy();
      }
      page.destroy();
    }
  }

  /** The last page closed (a blank one when none was written) and the PDF finished, in chunks. */
  finish(): Uint8Array[] {
    const { d, writer } = this;
    this.endPage();
    if (this.written === 0) {
      const blank = writer.beginPage([0, 0, 612, 792]);
      writer.endPage();
      blank.destroy();
    }
    writer.close();
    writer.destroy();
    // Internal links whose bookmark was drawn go to it; the others are left out.
    const within = this.internalLinks.flatMap((l) => {
      const at = d.targets.at(l.name);
      return at ? [{ page: l.page, rect: l.rect, to: at }] : [];
    });
    const chunks = finish(d.mupdf, this.out, this.links, d.pictures, d.outline, within, this.ownDrawing.text, (font) => d.fonts.bytesOf(font));
    this.out.destroy();
    return chunks;
  }
}
