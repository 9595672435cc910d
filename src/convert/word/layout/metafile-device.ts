/** EMF and WMF pictures on the HTML path: placeholders in the HTML, drawn as vectors in their place by a device that wraps the page's. */
import type * as Mupdf from 'mupdf';
import { METAFILE_MAGIC, imagePlaceholderIndex, placeholderUrl } from './placeholders';
import { METAFILE, playMetafile } from '../../../paint/metafile';
import { MupdfPainter, type FaceSource } from '../../../paint/mupdf-painter';
import type { Matrix } from '../../../paint/painter';

type MupdfModule = typeof Mupdf;

/** Draws a placeholder picture it recognises (from its pixels) in its place and returns true; false for any other picture. */
export type PlaceholderHandler = (image: Mupdf.Image, ctm: Matrix) => boolean;

/**
 * The metafiles of one conversion. MuPDF's HTML engine cannot draw EMF or WMF, so the layout gets a
 * tiny placeholder picture for each (sized by CSS like any picture) and the page device made by
 * `wrap` draws the metafile, as vector paths and real text, where the placeholder would go.
 */
export class MetafilePictures {
  private list: { data: Uint8Array; contentType: string; url: string }[] = [];
  private index = new Map<Uint8Array, number>();

  constructor(private readonly mupdf: MupdfModule) {}

  get size(): number {
    return this.list.length;
  }

  /** A data: URL standing for the metafile in the HTML; undefined when the type is no metafile. */
  placeholder(data: Uint8Array, contentType: string): string | undefined {
    if (!METAFILE.test(contentType)) return undefined;
    let i = this.index.get(data);
    if (i === undefined) {
      i = this.list.length;
      this.list.push({ data, contentType, url: placeholderUrl(METAFILE_MAGIC, i) });
      this.index.set(data, i);
    }
    return this.list[i]!.url;
  }

  /** The metafile an image drawn by the layout stands for, if it is a placeholder. */
  private lookup(image: Mupdf.Image): { data: Uint8Array; contentType: string } | undefined {
    const i = imagePlaceholderIndex(image, METAFILE_MAGIC);
    return i === undefined ? undefined : this.list[i];
  }


  /** Draws a metafile over the unit square mapped by ctm; a malformed one draws what it can, never throws. */
  draw(device: Mupdf.Device, data: Uint8Array, contentType: string, ctm: Matrix, fonts: FaceSource): void {
    const painter = new MupdfPainter(this.mupdf, device, ctm, fonts);
    try {
      playMetafile(data, contentType, painter);
    } catch {
      // Drawn so far stays.
    } finally {
      try {
        painter.end();
      } catch {
        // The device is past saving; the page goes on without the picture.
      }
    }
  }

  /**
   * A device that passes every call on to `target` unchanged, except placeholder pictures, which
   * it replaces by their metafile's drawing, and pictures `others` claims (the layout's shape
   * placeholders: it draws them itself and returns true). Without a target it draws nothing and
   * only shows `others` the pictures (a pass that finds where placeholders are on a page).
   * Close and destroy it before ending the page.
   */
  wrap(target: Mupdf.Device | undefined, fonts: FaceSource, others?: PlaceholderHandler): Mupdf.Device {
    const { mupdf } = this;
    // Wrappers MuPDF hands the callbacks hold a reference each: release them at once, not at GC.
    const done = (...objects: { destroy(): void }[]) => objects.forEach((o) => o.destroy());
    const c = (color: number[]) => color as Mupdf.Color;
    return new mupdf.Device({
      fillPath: (path, evenOdd, ctm, cs, color, alpha) => (target?.fillPath(path, evenOdd, ctm, cs, c(color), alpha), done(path, cs)),
      strokePath: (path, stroke, ctm, cs, color, alpha) => (target?.strokePath(path, stroke, ctm, cs, c(color), alpha), done(path, stroke, cs)),
      clipPath: (path, evenOdd, ctm) => (target?.clipPath(path, evenOdd, ctm), done(path)),
      clipStrokePath: (path, stroke, ctm) => (target?.clipStrokePath(path, stroke, ctm), done(path, stroke)),
      fillText: (text, ctm, cs, color, alpha) => (target?.fillText(text, ctm, cs, c(color), alpha), done(text, cs)),
      strokeText: (text, stroke, ctm, cs, color, alpha) => (target?.strokeText(text, stroke, ctm, cs, c(color), alpha), done(text, stroke, cs)),
      clipText: (text, ctm) => (target?.clipText(text, ctm), done(text)),
      clipStrokeText: (text, stroke, ctm) => (target?.clipStrokeText(text, stroke, ctm), done(text, stroke)),
      ignoreText: (text, ctm) => (target?.ignoreText(text, ctm), done(text)),
      fillShade: (shade, ctm, alpha) => {
        target?.fillShade(shade, ctm, alpha);
        // This wrapper holds no reference of its own (mupdf.js does not keep it): never drop it.
        (mupdf.Shade as unknown as { _finalizer?: FinalizationRegistry<unknown> })._finalizer?.unregister(shade);
      },
      fillImage: (image, ctm, alpha) => {
        try {
          if (others?.(image, ctm as Matrix) || !target) return;
          let meta;
          try {
            meta = this.size ? this.lookup(image) : undefined;
          } catch {
            meta = undefined;
          }
          if (meta) this.draw(target, meta.data, meta.contentType, ctm as Matrix, fonts);
          else target.fillImage(image, ctm, alpha);
        } finally {
          done(image);
        }
      },
      fillImageMask: (image, ctm, cs, color, alpha) => (target?.fillImageMask(image, ctm, cs, c(color), alpha), done(image, cs)),
      clipImageMask: (image, ctm) => (target?.clipImageMask(image, ctm), done(image)),
      popClip: () => target?.popClip(),
      beginMask: (bbox, luminosity, cs, color) => (target?.beginMask(bbox, luminosity, cs, c(color)), done(cs)),
      endMask: () => target?.endMask(),
      beginGroup: (bbox, cs, isolated, knockout, blend, alpha) => (target?.beginGroup(bbox, cs, isolated, knockout, blend, alpha), done(cs)),
      endGroup: () => target?.endGroup(),
      beginTile: (area, view, xstep, ystep, ctm, id, docId) => target?.beginTile(area, view, xstep, ystep, ctm, id, docId) ?? 0,
      endTile: () => target?.endTile(),
      beginLayer: (name) => target?.beginLayer(name),
      endLayer: () => target?.endLayer(),
    });
  }
}
