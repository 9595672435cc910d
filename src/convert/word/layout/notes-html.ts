/** Footnotes as HTML on the HTML path: the separator rule, the notes a stretch calls, and their bodies. */
import type { Block, WordDocument } from '../model/index';
import { blocksHtml, type BlockContext } from './block-html';
import { pt } from './css-units';
import { JOINING } from '../../../lib/complex-script';

/** Word's footnote separator: a 2-inch rule, a little apart from the text above and the notes below. */
export const NOTE_RULE = '<div style="margin:6pt 0 4pt 0;width:144pt;border-top:0.5pt solid #000"></div>';
/** Below the last note's glyphs (what contentHeight measures) to the end of its line. */
export const NOTE_DESCENT = 2;

/** Whether a block's text (in table cells too, not in text boxes) has letters of a joining script. */
export const joins = (b: Block): boolean => (b.kind === 'paragraph' ? b.inlines.some((i) => i.kind === 'text' && JOINING.test(i.text)) : b.rows.some((r) => r.cells.some((c) => c.blocks.some(joins))));

/** Whether blocks call a footnote that has a body (in paragraphs, tables and text boxes). */
export function callsNotes(blocks: Block[], model: WordDocument): boolean {
  return blocks.some((b) =>
    b.kind === 'paragraph'
      ? b.inlines.some((i) => (i.kind === 'noteRef' && !!model.notes.get(i.id)?.length) || (i.kind === 'textbox' && callsNotes(i.blocks, model)))
      : b.rows.some((r) => r.cells.some((c) => callsNotes(c.blocks, model))),
  );
}

/** Footnotes met in a chunk, below a short rule at its end (for multi-column stretches: MuPDF has one frame height). */
export function notesHtml(ids: string[], model: WordDocument, width: number, c: BlockContext): string {
  const bodies = ids.map((id) => model.notes.get(id)).filter((b): b is Block[] => !!b?.length);
  if (!bodies.length) return '';
  const rule = `<div style="margin-top:12pt;width:${pt(Math.min(144, width))};border-top:0.5pt solid #000"></div>`;
  return rule + bodies.map((b) => blocksHtml(b, width, { ...c, noteRefs: [] })).join('');
}
