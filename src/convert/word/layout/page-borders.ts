/**
 * Page borders (a section's w:pgBorders): lines around the page, drawn on each page of the
 * section that shows them, under the page's content. And the page colour under everything.
 */
import type * as Mupdf from 'mupdf';
import type { Border, PageBorders, PageGeometry } from '../model/index';
import { rgb } from './shape-paint';

type MupdfModule = typeof Mupdf;

/** Whether the section's `sectionPage`-th page (1-based) shows its borders. */
export function showsPageBorders(borders: PageBorders, sectionPage: number): boolean {
  return borders.display === 'allPages' || (borders.display === 'firstPage') === (sectionPage === 1);
}

/**
 * Draws the borders. Measured from the text, they surround the header and footer too (Word's
 * default, "surround header/footer"; LibreOffice draws them so): the top line sits `space` above the
 * header when there is one, else above the top margin, and likewise at the bottom.
 */
export function drawPageBorders(mupdf: MupdfModule, device: Mupdf.Device, borders: PageBorders, g: PageGeometry, hasHeader: boolean, hasFooter: boolean): void {
  const space = (b: Border | undefined) => b?.space ?? (borders.offsetFrom === 'page' ? 24 : 4);
  const half = (b: Border | undefined) => (b ? (b.style === 'double' ? b.width * 1.5 : b.width / 2) : 0);
  let top: number, bottom: number, left: number, right: number;
  if (borders.offsetFrom === 'page') {
    top = space(borders.top) + half(borders.top);
    bottom = g.height - space(borders.bottom) - half(borders.bottom);
    left = space(borders.left) + half(borders.left);
    right = g.width - space(borders.right) - half(borders.right);
  } else {
    top = (hasHeader ? Math.min(g.header, g.marginTop) : g.marginTop) - space(borders.top) - half(borders.top);
    bottom = g.height - (hasFooter ? Math.min(g.footer, g.marginBottom) : g.marginBottom) + space(borders.bottom) + half(borders.bottom);
    left = g.marginLeft - space(borders.left) - half(borders.left);
    right = g.width - g.marginRight + space(borders.right) + half(borders.right);
  }
  line(mupdf, device, borders.top, [left, top], [right, top]);
  line(mupdf, device, borders.bottom, [left, bottom], [right, bottom]);
  line(mupdf, device, borders.left, [left, top], [left, bottom]);
  line(mupdf, device, borders.right, [right, top], [right, bottom]);
}

/** One side: a single, dotted or dashed line, or a double one: two lines of the width, a width apart. */
function line(mupdf: MupdfModule, device: Mupdf.Device, b: Border | undefined, from: [number, number], to: [number, number]): void {
  if (!b || b.style === 'none' || !(b.width > 0)) return;
  const vertical = from[0] === to[0];
  const offsets = b.style === 'double' ? [-b.width, b.width] : [0];
  const width = b.width;
  const dashes = b.style === 'dotted' ? [width, width * 2] : b.style === 'dashed' ? [width * 4, width * 3] : undefined;
  const stroke = new mupdf.StrokeState({ lineCap: 'Butt', lineJoin: 'Miter', lineWidth: width, miterLimit: 10, ...(dashes ? { dashes } : {}) });
  const path = new mupdf.Path();
  try {
    for (const d of offsets) {
      path.moveTo(from[0] + (vertical ? d : 0), from[1] + (vertical ? 0 : d));
      path.lineTo(to[0] + (vertical ? d : 0), to[1] + (vertical ? 0 : d));
    }
    device.strokePath(path, stroke, mupdf.Matrix.identity, mupdf.ColorSpace.DeviceRGB, rgb(b.color), 1);
  } finally {
    path.destroy();
    stroke.destroy();
  }
}

/** Fills the whole page with the document's page colour (WordDocument.pageColor), first, under all else. */
export function drawPageColor(mupdf: MupdfModule, device: Mupdf.Device, color: string, width: number, height: number): void {
  const path = new mupdf.Path();
  try {
    path.rect(0, 0, width, height);
    device.fillPath(path, false, mupdf.Matrix.identity, mupdf.ColorSpace.DeviceRGB, rgb(color), 1);
  } finally {
    path.destroy();
  }
}
