import { borderShows, type Block, type Inline, type Paragraph, type WordDocument } from '../model';
import { simpleTable } from './table-rows';
import { floatsApart } from '../layout/inline-html';

/** Picture types drawn inline: rasters and metafiles (others keep their room blank in the HTML path). */
const PICTURE = /^image\/(png|jpeg|jpg|gif|bmp|x-emf|x-wmf|emf|wmf)$/;

/**
 * Characters our line breaker places as MuPDF would: scripts drawn glyph by glyph along their
 * advances (Latin, Greek, Cyrillic, punctuation, symbols, private-use symbol fonts, the mathematical
 * letters of equations). Not scripts
 * that need shaping or other line-breaking rules (Hebrew, Arabic, Indic, CJK).
 */
const SIMPLE_TEXT = /^[\u0000-\u058f\u1e00-\u2e7f\ue000-\uf8ff\ufb00-\ufb04\ufffd\u{1d400}-\u{1d7ff}]*$/u;


/** `floats`: floating objects drawn where they float (shapes, pictures in front of or behind the text) are placed (body stretches, cells). */
function simpleInline(it: Inline, model: WordDocument, inNote: boolean, floats: boolean): boolean {
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
      return it.floating ? floats && floatsApart(it) : PICTURE.test(it.contentType);
    case 'shape':
    case 'textbox':
      return floats && floatsApart(it);
    default:
      return false;
  }
}

/** `body`: a paragraph of the stretch itself, where borders are drawn (flow/paragraph-borders.ts); not in cells or notes. */
function simpleParagraph(p: Paragraph, model: WordDocument, inNote: boolean, body = false, floats = !inNote): boolean {
  const props = p.props;
  if (props.frame || props.bidi || props.columnBreakBefore) return false;
  if (!body && props.borders && Object.values(props.borders).some((b) => borderShows(b))) return false;
  if (props.list && !SIMPLE_TEXT.test(props.list.label)) return false;
  return p.inlines.every((it) => simpleInline(it, model, inNote, floats));
}

function simpleBlock(b: Block, model: WordDocument, inNote = false): boolean {
  if (b.kind === 'table') return !inNote && simpleTable(b, (p) => simpleParagraph(p, model, false));
  return simpleParagraph(b, model, inNote, !inNote);
}

/**
 * Whether our own line breaker and pager lay out these blocks (flow/): paragraphs of text in
 * simple scripts (pair-kerned or not), tabs, line breaks, inline pictures, shading, borders and
 * footnotes of the same, tables of such paragraphs, and floating objects drawn where they float
 * (render.ts draws them at their paragraphs). Nested or spaced tables, inline shapes, text boxes in
 * the flow, borders of paragraphs in cells or notes, frames, right-to-left and shaped text stay
 * with MuPDF's HTML engine.
 */
export function laysOutItself(blocks: Block[], model: WordDocument): boolean {
  return blocks.length > 0 && blocks.every((b) => simpleBlock(b, model));
}

/** Whether our engine lays out a header or footer: plain paragraphs only, no tables, borders or floating objects (stackParagraphs draws none). */
export function laysOutArea(blocks: Block[], model: WordDocument): boolean {
  return blocks.length > 0 && blocks.every((b) => b.kind === 'paragraph' && simpleParagraph(b, model, false, false, false));
}
