import type * as Mupdf from 'mupdf';
import type { Block, Inline, WordDocument } from '../model';

/**
 * A copy of the model with the pictures MuPDF cannot decode (a damaged PNG, a truncated JPEG)
 * blanked out, or undefined when every picture decodes. Used only after a render failed: checking
 * every picture up front would decode each one twice.
 */
export function withoutBrokenImages(model: WordDocument, mupdf: typeof Mupdf): WordDocument | undefined {
  let broken = 0;
  const decodes = (data: Uint8Array): boolean => {
    let image: Mupdf.Image | undefined;
    let pixmap: Mupdf.Pixmap | undefined;
    try {
      image = new mupdf.Image(data);
      pixmap = image.toPixmap();
      return true;
    } catch {
      return false;
    } finally {
      pixmap?.destroy();
      image?.destroy();
    }
  };
  const inline = (it: Inline): Inline => {
    if (it.kind === 'image' && /^image\/(png|jpe?g|gif|bmp|tiff)$/.test(it.contentType) && !decodes(it.data)) {
      broken++;
      // Not a type the layout draws: it keeps the picture's space, blank.
      return { ...it, contentType: 'image/x-unreadable', data: new Uint8Array(0) };
    }
    if (it.kind === 'textbox') return { ...it, blocks: blocks(it.blocks) };
    if (it.kind === 'shape' && it.blocks) return { ...it, blocks: blocks(it.blocks) };
    return it;
  };
  const blocks = (list: Block[]): Block[] =>
    list.map((b) =>
      b.kind === 'paragraph'
        ? { ...b, inlines: b.inlines.map(inline) }
        : { ...b, rows: b.rows.map((r) => ({ ...r, cells: r.cells.map((c) => ({ ...c, blocks: blocks(c.blocks) })) })) },
    );
  const set = (s: Partial<Record<'default' | 'first' | 'even', Block[]>>) =>
    Object.fromEntries(Object.entries(s).map(([k, v]) => [k, v && blocks(v)]));
  const repaired: WordDocument = {
    ...model,
    sections: model.sections.map((s) => ({ ...s, blocks: blocks(s.blocks), headers: set(s.headers), footers: set(s.footers) })),
    notes: new Map([...model.notes].map(([id, b]) => [id, blocks(b)])),
  };
  return broken ? repaired : undefined;
}
