/**
 * Which stretches, headers and footers layout's own line breaker and pager lay out (layout/: the
 * rest go to MuPDF's HTML engine, layout/ of this folder's parent): the text, pictures and tables
 * it draws as MuPDF would.
 */
import { borderShows, type Block, type Inline, type Paragraph, type Table, type WordDocument } from '../model/index';
import { floatsApart } from '../rules/floats';

/** Picture types drawn inline: rasters and metafiles (others keep their room blank in the HTML path). */
const PICTURE = /^image\/(png|jpeg|jpg|gif|bmp|x-emf|x-wmf|emf|wmf)$/;

/**
 * Characters our line breaker places as MuPDF would: scripts drawn glyph by glyph along their
 * advances (Latin, Greek, Cyrillic, punctuation, symbols, private-use symbol fonts, the mathematical
 * letters of equations), and Hebrew and Arabic (with Persian and Urdu letters), which it shapes
 * (layout/text/arabic-shaping.ts) and orders (layout/text/bidi.ts) itself. Not scripts that need other shaping
 * or line-breaking rules (Syriac, Thaana, Indic, CJK).
 */
const SIMPLE_TEXT = /^[\u0000-\u06ff\u1e00-\u2e7f\ue000-\uf8ff\ufb00-\ufb04\ufb1d-\ufdff\ufe70-\ufeff\ufffd\u{1d400}-\u{1d7ff}]*$/u;

/**
 * `floats`: where floating objects drawn where they float are placed: in body stretches and cells
 * (shapes, pictures in front of or behind the text), in headers and footers (all floating
 * pictures: 'outOfFlow', as the HTML path draws them there), or nowhere (notes).
 */
type Floats = 'body' | 'outOfFlow' | false;

/** Whether our own engine lays out this table: cells of plain paragraphs on the grid, no spacing between cells. */
export function simpleTable(t: Table, paragraphOk: (p: Paragraph) => boolean): boolean {
  if (t.cellSpacing || !t.grid.length) return false;
  return t.rows.every((row) => !row.gridBefore && row.cells.every((cell) => cell.blocks.every((b) => b.kind === 'paragraph' && paragraphOk(b))));
}


function simpleInline(it: Inline, model: WordDocument, inNote: boolean, floats: Floats): boolean {
  switch (it.kind) {
    case 'text':
      return it.style.hidden || SIMPLE_TEXT.test(it.text);
    case 'field':
    case 'tab':
      return true;
    case 'break':
      return it.type === 'line';
    case 'noteRef': {
      if (inNote || !SIMPLE_TEXT.test(it.label)) return false;
      const body = model.notes.get(it.id);
      return !body || body.every((b) => simpleBlock(b, model, true));
    }
    case 'image':
      return it.floating ? !!floats && floatsApart(it, floats === 'outOfFlow') : PICTURE.test(it.contentType);
    case 'shape':
    case 'textbox':
      return !!floats && floatsApart(it, floats === 'outOfFlow');
    default:
      return false;
  }
}

/** `body`: a paragraph of the stretch itself, where borders are drawn (layout/blocks/borders.ts); not in cells or notes. */
function simpleParagraph(p: Paragraph, model: WordDocument, inNote: boolean, body = false, floats: Floats = inNote ? false : 'body'): boolean {
  const props = p.props;
  if (props.frame || props.columnBreakBefore) return false;
  // Borders: not of paragraphs in cells or notes, nor of right-to-left ones (whose sides the HTML path leaves out).
  if ((!body || props.bidi) && props.borders && Object.values(props.borders).some((b) => borderShows(b))) return false;
  if (props.list && !SIMPLE_TEXT.test(props.list.label)) return false;
  return p.inlines.every((it) => simpleInline(it, model, inNote, floats));
}

function simpleBlock(b: Block, model: WordDocument, inNote = false): boolean {
  if (b.kind === 'table') return !inNote && simpleTable(b, (p) => simpleParagraph(p, model, false));
  return simpleParagraph(b, model, inNote, !inNote);
}

/**
 * Whether our own line breaker and pager lay out these blocks (layout/): paragraphs of text in
 * simple scripts (pair-kerned or not), tabs, line breaks, inline pictures, shading, borders and
 * footnotes of the same, tables of such paragraphs, and floating objects drawn where they float
 * (render.ts draws them at their paragraphs), in either direction. Nested or spaced tables, inline
 * shapes, text boxes in the flow, borders of paragraphs in cells, notes or right to left, frames,
 * and scripts shaped otherwise stay with MuPDF's HTML engine.
 */
export function laysOutItself(blocks: Block[], model: WordDocument): boolean {
  return blocks.length > 0 && blocks.every((b) => simpleBlock(b, model));
}

/** Whether our engine lays out a header or footer: paragraphs only, no tables or borders (layout's stackParagraphs draws neither); render.ts draws their floating objects. */
export function laysOutArea(blocks: Block[], model: WordDocument): boolean {
  return blocks.length > 0 && blocks.every((b) => b.kind === 'paragraph' && simpleParagraph(b, model, false, false, 'outOfFlow'));
}
