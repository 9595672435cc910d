/**
 * A cell's text turned as the cell asks (textRotation: 1–90 degrees counter-clockwise, 91–180 the
 * same clockwise, 255 stacked, printed here as 90): laid out on one line per value line by
 * layout's line breaker, then each piece placed along the turned baseline and shown turned
 * (TextItem.angle). Text reading upwards starts at the cell's foot, downwards at its top, unless
 * the cell sets its vertical alignment; across, the lines are centred unless it sets left or right.
 */
import type { DisplayItem } from '../../contracts/display';
import { paragraphLines, type LineContext } from '../../layout/blocks/paragraph-lines';
import { visualOrder } from '../../layout/text/bidi';
import { faceOf, indentOf, paragraph, PADDING, type CellShown, type TextBox } from './cell-text';
import type { CellStyle } from './model';

/** The angle (degrees counter-clockwise) a cell's rotation code turns its text by; 0 for level text. */
export function turnOf(style: CellStyle): number {
  const r = style.rotation ?? 0;
  if (r === 255) return 90;
  if (r > 0 && r <= 90) return r;
  if (r > 90 && r <= 180) return -(r - 90);
  return 0;
}

/** The turned text of a cell as display items (page coordinates from the block's top-left origin `at`). */
export function turnedCellItems(shown: CellShown, style: CellStyle, box: TextBox, angle: number, ctx: LineContext, zoom: number, at: { x: number; y: number }): DisplayItem[] {
  const pad = PADDING * zoom;
  const face = faceOf(style, zoom);
  const block = paragraph(shown.text, shown, style, face, indentOf(shown, style, ctx, zoom));
  const lines = paragraphLines({ ...block, props: { ...block.props, align: 'left' } }, 100_000, ctx);
  const rad = (angle * Math.PI) / 180;
  const [cos, sin] = [Math.cos(rad), Math.sin(rad)];
  const across = lines.reduce((sum, l) => sum + l.height, 0);
  // Where the first line's baseline starts, in the box: upward text from the foot, downward from the top.
  const vertical = style.vertical ?? (angle > 0 ? 'bottom' : 'top');
  const startY = vertical === 'top' ? box.y + pad : vertical === 'center' ? box.y + box.height / 2 : box.y + box.height - pad;
  const horizontal = style.horizontal ?? 'general';
  const center = box.x + box.width / 2;
  const left = horizontal === 'left' ? box.x + pad : horizontal === 'right' ? box.x + box.width - pad - across : center - across / 2;
  const items: DisplayItem[] = [];
  let offset = left;
  for (const line of lines) {
    const width = line.texts.reduce((w, t) => Math.max(w, t.x + t.width), 0);
    // The along-extent of the line on the page, to centre it vertically when asked.
    const shift = vertical === 'center' ? -(width * Math.abs(sin)) / 2 * Math.sign(angle) : 0;
    // The baseline's foot: across the box by the line's ascent (for upward text the glyphs' tops point left).
    const baseX = offset + (angle > 0 ? line.baseline : line.height - line.baseline);
    for (const t of line.texts) {
      if (!t.text.trim()) continue;
      const text = { font: t.font, size: t.size, text: t.level && t.level & 1 ? visualOrder(t.text) : t.text, width: t.width, ...(t.look.color ? { color: t.look.color } : {}) };
      items.push({ kind: 'text', text, x: at.x + baseX + cos * t.x, baseline: at.y + startY + shift - sin * t.x, angle });
    }
    offset += line.height;
  }
  return items;
}
