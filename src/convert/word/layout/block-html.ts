/** Paragraphs and tables as HTML for MuPDF's HTML engine, with the ids the pagination finds them by. */
import type { Block, Border, Paragraph, Table, TableCell } from '../model/index';
import { inlineHtml } from './inline-html';
import type { InlineContext } from './inline-context';
import { paragraphCss } from './run-html';
import { pt } from './css-units';
import { largestRun, resolveRun } from '../rules/runs';
import { lineBox } from '../rules/line-box';
import { borderWidth, inBorderGroup } from '../../../layout/blocks/borders';
import { DEFAULT_CELL_MARGINS } from '../rules/tables';
import { mirrored } from '../../../layout/tables/table-rows';
import { holdsTogether, keepsWithNext } from '../rules/keeps';

export type BlockContext = Omit<InlineContext, 'renderBlocks' | 'columnWidth'>;

function borderCss(b: Border | undefined): string {
  if (!b || b.style === 'none' || b.width <= 0) return 'none';
  const style = b.style === 'double' ? 'double' : b.style === 'dotted' ? 'dotted' : b.style === 'dashed' ? 'dashed' : 'solid';
  return `${pt(borderWidth(b))} ${style} #${b.color && b.color !== 'auto' ? b.color : '000000'}`;
}

/** Line height in points as Word computes it for the paragraph's largest font. */
function lineHeight(p: Paragraph, ctx: BlockContext): number {
  return lineBox(p, ctx).height;
}

/**
 * Paragraph spacing is written out by hand: between two paragraphs the larger of the space after
 * and the space before applies (measured on LibreOffice's renderings of DOCX files: a Caption with
 * 10 pt after and a Heading with 20 pt before are 20 pt apart; its DOC renderings add the two, see
 * WordDocument.paragraphSpacing), and contextual spacing drops both between paragraphs of one
 * style. Tables take the space after the paragraph above them.
 */
function paragraphHtml(p: Paragraph, prev: Block | undefined, next: Block | undefined, width: number, ctx: BlockContext): string {
  const props = p.props;
  const sameStyle = (b: Block | undefined) => b?.kind === 'paragraph' && b.props.styleId === props.styleId;
  const before = props.contextualSpacing && sameStyle(prev) ? 0 : (props.spaceBefore ?? 0);
  const prevAfter = prev?.kind === 'paragraph' && !(prev.props.contextualSpacing && sameStyle(prev)) ? (prev.props.spaceAfter ?? 0) : 0;
  const after = next?.kind === 'paragraph' ? 0 : (props.spaceAfter ?? 0);
  const line = lineBox(p, ctx);
  const lh = line.height;
  const gap = ctx.paragraphSpacing === 'sum' ? before + prevAfter : Math.max(before, prevAfter);
  // Consecutive paragraphs with the same borders and indents are one box in Word: between them no
  // bottom or top border (the between border, if any), and their spacing inside the box, so that
  // its sides and shading run on.
  const joinsPrev = inBorderGroup(p, prev);
  const joinsNext = inBorderGroup(p, next);
  const margin = joinsPrev ? 0 : gap;
  // Zero margins are the style sheet's (p{margin:0}): every declaration costs MuPDF's parser per paragraph.
  const css = margin || after ? [`margin:${pt(margin)} 0 ${pt(after)} 0`, `line-height:${pt(lh)}`] : [`line-height:${pt(lh)}`];
  // A right-to-left paragraph's "left" indent is its start, on the right. Its alignment needs no
  // swap: in a dir="rtl" block MuPDF takes text-align left and right as start and end, as Word does.
  const [start, end] = props.bidi ? ['right', 'left'] : ['left', 'right'];
  const b = props.borders && { ...props.borders, top: joinsPrev ? props.borders.between : props.borders.top, bottom: joinsNext ? undefined : props.borders.bottom };
  // A left or right border sits its distance (w:space) and width outside the text, the text at its
  // indent, as in Word and LibreOffice: the box starts out there (a negative margin at no indent).
  // On the left the text's outermost point is a hanging first line's start, when it hangs.
  const side = (physical: 'left' | 'right', indent = 0) => {
    const border = props.bidi ? undefined : b?.[physical];
    if (border && borderCss(border) !== 'none') {
      const outermost = physical === 'left' ? Math.min(indent, indent + (props.firstLine ?? 0)) : indent;
      const space = border.space ?? 0;
      css.push(`margin-${physical}:${pt(outermost - space - borderWidth(border))}`, `padding-${physical}:${pt(indent - outermost + space)}`);
    } else if (indent) css.push(`padding-${physical === 'left' ? start : end}:${pt(indent)}`);
  };
  side('left', props.indentLeft);
  side('right', props.indentRight);
  if (props.firstLine) css.push(`text-indent:${pt(props.firstLine)}`);
  // The text where LibreOffice sets it in its line (lineBox); spans and links inherit it (html-doc.ts).
  if (Math.abs(line.raise) >= 0.01) css.push(`vertical-align:${pt(line.raise)}`);
  if (props.align && props.align !== 'left') css.push(`text-align:${props.align}`);
  if (props.shading && props.shading !== 'auto') css.push(`background-color:#${props.shading}`);
  if (b) {
    for (const side of ['top', 'bottom', 'left', 'right'] as const) if (b[side]) css.push(`border-${side}:${borderCss(b[side])}`);
    // A top or bottom border stands its distance (w:space) off the text, as in Word. (Left and
    // right ones would move out into the indent instead, keeping the text where it is: not done.)
    const space = (side: 'top' | 'bottom') => (b[side] && borderCss(b[side]) !== 'none' ? (b[side]!.space ?? 0) : 0);
    const top = space('top') + (joinsPrev ? gap : 0);
    if (top) css.push(`padding-top:${pt(top)}`);
    if (space('bottom')) css.push(`padding-bottom:${pt(space('bottom'))}`);
  }
  const own = paragraphCss(p, ctx);
  if (own) css.push(own);
  const inner = inlineHtml(p, { ...ctx, paragraphCss: own, columnWidth: width, renderBlocks: (blocks, w, h) => blocksHtml(h === undefined ? blocks : blocksWithin(blocks, h, w, ctx, 'starts within'), w, ctx) });
  const mark = largestRun(p, ctx);
  // An empty paragraph still takes a line: a no-break space at the mark's font holds it open (the
  // paragraph's own font when it has none: no span, which MuPDF would match against its style sheet).
  let content = inner;
  if (showsNoText(inner) && !/<img(?! data-shape-anchor)|<div/.test(inner)) {
    const font = `font-family:${mark.family};font-size:${pt(mark.size)}`;
    if (own === undefined) css.push(font);
    content += own === undefined || own === font ? '\u00a0' : `<span style="${font}">\u00a0</span>`;
  }
  // The target of links within the document: an empty element takes no room.
  if (ctx.linkTargets && props.bookmarks?.length) {
    const k = ctx.linkTargets.index(p);
    ctx.linkTargets.found.push(k);
    content = `<span id="an${k}"></span>${content}`;
  }
  // A heading's place, for its bookmark: an empty element takes no room.
  if (ctx.headings && props.outlineLevel !== undefined && props.outlineLevel < 9) {
    const k = ctx.headings.index(p);
    ctx.headings.found.push(k);
    content = `<span id="hd${k}"></span>${content}`;
  }
  const breaks = ctx.columnBreaks;
  const spacer = props.columnBreakBefore && breaks?.depth === 1 ? `<div id="cb${breaks.count}" style="height:${pt(breaks.spacers[breaks.count++] ?? 0)}"></div>` : '';
  return `${spacer}<p${props.bidi ? ' dir="rtl"' : ''} style="${css.join(';')}">${content}</p>`;
}

const WHITESPACE = /\s/;
/**
 * Whether HTML shows no text, only tags and whitespace (as String.trim counts it). Stops at the
 * first letter, where stripping the tags copied every paragraph's HTML.
 */
function showsNoText(html: string): boolean {
  let inTag = false;
  for (let i = 0; i < html.length; i++) {
    const c = html.charCodeAt(i);
    if (inTag) inTag = c !== 62; // '>'
    else if (c === 60) inTag = true; // '<'
    else if (c > 32 && c < 0xa0) return false;
    else if (!WHITESPACE.test(html[i]!)) return false;
  }
  return true;
}



/** Table grid columns covered by each cell, and the cell's edges resolved for CSS. */
function tableHtml(t: Table, width: number, ctx: BlockContext): string {
  const total = t.grid.reduce((a, b) => a + b, 0) || width;
  const scale = total > width * 1.5 ? width / total : 1; // a grid far wider than the page is squeezed, as Word's autofit would
  const grid = t.grid.map((g) => g * scale);
  const tableWidth = grid.reduce((a, b) => a + b, 0);
  const css = t.cellSpacing ? ['border-collapse:separate', `border-spacing:${pt(t.cellSpacing)}`, `width:${pt(tableWidth)}`] : ['border-collapse:collapse', `width:${pt(tableWidth)}`];
  // A right-to-left table is laid out mirrored: its start (and indent) at the right margin, its first
  // column on the right. MuPDF takes no margin auto (a centred table sat at the left margin), so the
  // offset from the left is computed; a centred table's indent does not count, as in Word.
  const rtl = !!t.bidiVisual;
  const atRight = rtl ? t.align !== 'right' : t.align === 'right';
  // A table wider than the column sticks out into the margins as in Word (on both sides when
  // centred, on the left when right-aligned), never past the page's left edge.
  const leftmost = -(ctx.columnLeft ?? 0);
  if (t.align === 'center') css.push(`margin-left:${pt(Math.max(leftmost, (width - tableWidth) / 2))}`);
  else if (atRight) css.push(`margin-left:${pt(Math.max(leftmost, width - tableWidth - (rtl ? (t.indent ?? 0) : 0)))}`);
  else if (t.indent && !rtl) css.push(`margin-left:${pt(t.indent)}`);
  // Row ids let the pagination ask on which page each row starts (see repeat-headers.ts), and a
  // table that holds together where its first and last rows are (keep-with-next.ts).
  const anchor = ctx.marks?.depth === 1 ? `b${ctx.marks.block}` : (ctx.rowAnchors?.get(t) ?? (ctx.keeps?.depth === 1 && holdsTogether(t) ? `k${ctx.keeps.block}` : undefined));
  const rows = t.rows.map((row, r) => {
    let col = row.gridBefore ?? 0;
    const lead = col > 0 ? `<td colspan="${col}" style="width:${pt(grid.slice(0, col).reduce((a, b) => a + b, 0))}"></td>` : '';
    const cells = row.cells.map((cell) => {
      const span = Math.max(1, cell.gridSpan);
      const w = grid.slice(col, col + span).reduce((a, b) => a + b, 0) || cell.width || 0;
      const below = t.rows[r + 1]?.cells.find((_, i, cs) => columnOf(cs, i, t.rows[r + 1]!.gridBefore ?? 0) === col);
      col += span;
      return cellHtml(rtl ? mirrored(cell) : cell, w, below?.vMerge === 'continue', ctx, row.height?.rule === 'exact' ? row.height.value : undefined);
    });
    if (rtl) cells.reverse();
    const h = row.height ? `height:${pt(row.height.value)}` : '';
    const content = rtl ? cells.join('') + lead : lead + cells.join('');
    return `<tr${anchor !== undefined ? ` id="${anchor}-${r}"` : ''}${h ? ` style="${h}"` : ''}>${content}</tr>`;
  });
  return `<table style="${css.join(';')}">${rows.join('')}</table>`;
}


function columnOf(cells: TableCell[], index: number, gridBefore: number): number {
  let col = gridBefore;
  for (let i = 0; i < index; i++) col += Math.max(1, cells[i]!.gridSpan);
  return col;
}

/**
 * A cell. MuPDF's tables have no rowspan, so a vertical merge is drawn as a column of cells whose
 * shared edges are left open: the first holds the content, the ones it covers stay empty.
 */
function cellHtml(cell: TableCell, width: number, mergedBelow: boolean, ctx: BlockContext, exactHeight?: number): string {
  const m = cell.margins ?? DEFAULT_CELL_MARGINS;
  // Word's cell alignment (w:vAlign): MuPDF's table cells take middle and bottom as browsers do.
  const css = [`width:${pt(Math.max(width - m.left - m.right, 1))}`, `vertical-align:${cell.vAlign === 'center' ? 'middle' : (cell.vAlign ?? 'top')}`];
  if (m.top || m.right || m.bottom || m.left) css.push(`padding:${pt(m.top)} ${pt(m.right)} ${pt(m.bottom)} ${pt(m.left)}`);
  const b = cell.borders;
  const edges = [cell.vMerge === 'continue' ? 'none' : borderCss(b.top), mergedBelow ? 'none' : borderCss(b.bottom), borderCss(b.left), borderCss(b.right)];
  if (edges.every((e) => e === edges[0])) css.push(`border:${edges[0]}`);
  else css.push(`border-top:${edges[0]}`, `border-bottom:${edges[1]}`, `border-left:${edges[2]}`, `border-right:${edges[3]}`);
  if (cell.shading && cell.shading !== 'auto') css.push(`background-color:#${cell.shading}`);
  const span = cell.gridSpan > 1 ? ` colspan="${cell.gridSpan}"` : '';
  const textWidth = Math.max(width - m.left - m.right, 1);
  // A row of exact height clips what does not fit in Word; MuPDF's rows grow instead: the
  // paragraphs whose first line would start below the row are left out.
  const blocks = exactHeight === undefined ? cell.blocks : blocksWithin(cell.blocks, exactHeight - m.top - m.bottom, textWidth, ctx);
  const inner = cell.vMerge === 'continue' ? '' : blocksHtml(blocks, textWidth, ctx.inCell ? ctx : { ...ctx, inCell: true });
  return `<td${span} style="${css.join(';')}">${inner}</td>`;
}

/**
 * The leading blocks of a cell or text box within `height` (points), by an estimate of each
 * paragraph's height (its lines as its text's width over the cell's, at its line height, and its
 * spacing); a nested table ends the estimate and is kept, with what follows it. `keep`: a
 * paragraph stays when its first line fits (rows of exact height), or when it starts within
 * (text boxes: a label a little taller than its box still shows in Word and LibreOffice).
 */
export function blocksWithin(blocks: Block[], height: number, width: number, ctx: BlockContext, keep: 'first line fits' | 'starts within' = 'first line fits'): Block[] {
  let y = 0;
  let after = 0; // the space after the paragraph above
  for (let i = 0; i < blocks.length; i++) {
    const b = blocks[i]!;
    if (b.kind !== 'paragraph') return blocks;
    const lh = lineHeight(b, ctx);
    // Between paragraphs as paragraphHtml spaces them: the larger of after and before, or their sum.
    const before = b.props.spaceBefore ?? 0;
    if (i > 0) y += ctx.paragraphSpacing === 'sum' ? after + before : Math.max(after, before);
    if (i > 0 && (keep === 'starts within' ? y >= height : y + lh > height + 1)) return blocks.slice(0, i);
    let textWidth = 0;
    let tallest = lh;
    for (const it of b.inlines) {
      if (it.kind === 'text' && !it.style.hidden) {
        const run = resolveRun(it.style, ctx);
        textWidth += ctx.fonts.measure(it.text, run.family, run.bold, run.italic, run.size);
      } else if (it.kind === 'image' && !it.floating) tallest = Math.max(tallest, it.height);
    }
    const lines = Math.max(1, Math.ceil(textWidth / Math.max(width - (b.props.indentLeft ?? 0) - (b.props.indentRight ?? 0), 1)));
    y += tallest + (lines - 1) * lh;
    after = b.props.spaceAfter ?? 0;
  }
  return blocks;
}


/** Blocks (paragraphs and tables) as HTML for a column `width` points wide. */
export function blocksHtml(blocks: Block[], width: number, ctx: BlockContext): string {
  let html = '';
  const marks = ctx.marks;
  const keeps = ctx.keeps;
  if (marks) marks.depth++;
  if (keeps) keeps.depth++;
  if (ctx.columnBreaks) ctx.columnBreaks.depth++;
  blocks.forEach((b, i) => {
    if (marks?.depth === 1) marks.block = i;
    if (keeps?.depth === 1) keeps.block = i;
    let one = b.kind === 'paragraph' ? paragraphHtml(b, blocks[i - 1], blocks[i + 1], width, ctx) : tableHtml(b, width, ctx);
    // After a column break's spacer, if any: where `<p` or `<table` takes an id.
    const at = b.kind === 'paragraph' ? one.indexOf('<p') + 2 : 6;
    if (keeps?.depth === 1) {
      // Keep-with-next: the block's page is looked up (k<i>); the block before a kept one too:
      // whether a kept run already starts its page is told by it.
      if (keepsWithNext(b) || keepsWithNext(blocks[i - 1]) || keepsWithNext(blocks[i + 1]) || holdsTogether(blocks[i + 1])) one = `${one.slice(0, at)} id="k${i}"${one.slice(at)}`;
    }
    // Top-level blocks carry ids for the footnote pagination (footnote-pages.ts): `<p` or `<table` gets one.
    if (marks?.depth === 1) one = `${one.slice(0, at)} id="b${i}"${one.slice(at)}`;
    if (keeps?.depth === 1) {
      // A block before one that moves to the next page ends its page (MuPDF has page-break-after,
      // not page-break-before): in its own style, the first after `<p` or `<table` (ids hold none).
      const style = one.indexOf('style="', at) + 7;
      if (style > 6) keeps.breakAt.set(i, html.length + style);
    }
    html += one;
  });
  if (marks) marks.depth--;
  if (keeps) keeps.depth--;
  if (ctx.columnBreaks) ctx.columnBreaks.depth--;
  return html;
}
