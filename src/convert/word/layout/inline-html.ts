import type { Family } from '../../../fonts/catalog';
import type { Inline, Paragraph, RunStyle, Shape } from '../model/index';
import { DRAWABLE, floatOffset, floatsApart, offsetBelowAnchor, textGoesBelow } from '../rules/floats';
import { resolveRun, type ResolvedRun } from '../rules/runs';
import { nextStop } from '../rules/tab-stops';
import { cssFamily, LIGATURE_LETTERS, type FontBook } from '../../../layout/text/font-book';
import { DEFAULT_INSETS } from './shape-paint';
import { gap } from './tab-stops';
import { pt } from './css-units';

export { pt } from './css-units';
import { JOINING, RIGHT_TO_LEFT } from '../../../lib/complex-script';
import type { InlineContext, PageMarks } from './inline-context';
import type { ShapePictures } from './shape-pictures';

export type { InlineContext, PageMarks } from './inline-context';

const TRANSPARENT_PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAAC0lEQVR4nGNgAAIAAAUAAXpeqz8AAAAASUVORK5CYII=';

const SPECIAL = /[&<>"]/;
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
/** Text or an attribute value as XHTML (most text has nothing to escape: it is returned as it is). */
export const esc = (s: string) => (SPECIAL.test(s) ? s.replace(/[&<>"]/g, (c) => ESCAPES[c]!) : s);

/**
 * Text with Word's spacing kept: HTML collapses runs of spaces, so every space after the first
 * (and a leading one) becomes a no-break space. Single spaces stay real spaces: with CSS
 * pre-wrap MuPDF writes every space as U+00A0, which breaks search and copy in the PDF.
 */
const keepSpaces = (s: string) => s.replace(/ {2,}/g, (run) => ` ${'\u00a0'.repeat(run.length - 1)}`).replace(/^ /, '\u00a0');

/**
 * The font and size most of a paragraph's text is in, when that text has no other style: set on
 * the <p>, its runs are written without a span (ctx.paragraphCss). Each element costs MuPDF's HTML
 * parser a match against every rule of its default style sheet: GASU.docx's areas and pages had
 * 10,119 such spans of 22,000 elements. Others keep their spans, which give their own font and size.
 */
export function paragraphCss(p: Paragraph, ctx: Pick<InlineContext, 'defaultFont' | 'defaultSize'>): string | undefined {
  // Not where MuPDF places text by its parent's font: a superscript or subscript is raised by the
  // parent's size, and right-to-left text is reordered within its parent (both moved, stress004 and 008).
  if (p.props.bidi || p.inlines.some((it) => it.kind === 'noteRef' || (it.kind === 'text' && (it.style.vertAlign || RIGHT_TO_LEFT.test(it.text))))) return undefined;
  const chars = new Map<string, number>();
  const texts = p.props.list ? [{ text: p.props.list.label, style: p.props.list.style }, ...p.inlines] : p.inlines;
  for (const it of texts) {
    if ('kind' in it && it.kind !== 'text') continue;
    if (it.style.hidden || !it.text) continue;
    const css = runCss(it.style, resolveRun(it.style, ctx));
    if (PLAIN_CSS.test(css)) chars.set(css, (chars.get(css) ?? 0) + it.text.length);
  }
  let best: string | undefined;
  for (const [css, n] of chars) if (!best || n > chars.get(best)!) best = css;
  return best;
}

const PLAIN_CSS = /^font-family:[^;]*;font-size:[^;]*$/;

function runCss(style: RunStyle, run: ResolvedRun): string {
  const css = [`font-family:${cssFamily(run.family, run.kern)}`, `font-size:${pt(run.size)}`];
  if (run.bold) css.push('font-weight:bold');
  if (run.italic) css.push('font-style:italic');
  const deco = [style.underline && style.underline !== 'none' ? 'underline' : '', style.strike || style.doubleStrike ? 'line-through' : ''].filter(Boolean);
  if (deco.length) css.push(`text-decoration:${deco.join(' ')}`);
  if (style.color && style.color !== 'auto') css.push(`color:#${style.color}`);
  if (style.highlight) css.push(`background-color:#${style.highlight}`);
  if (style.vertAlign) css.push(`vertical-align:${style.vertAlign === 'superscript' ? 'super' : 'sub'}`);
  return css.join(';');
}

function transform(text: string, style: RunStyle): string {
  // Ligature characters as their letters: the faces do not map them (font-book.ts).
  const letters = text.replace(/[\ufb00-\ufb04]/g, (ch) => LIGATURE_LETTERS[ch]!);
  return style.caps || style.smallCaps ? letters.toUpperCase() : letters;
}

/**
 * Text split where the family lacks glyphs (Caladea has no Cyrillic): each piece names the family
 * that draws it, so MuPDF and our measuring agree.
 */
function pieces(text: string, run: ResolvedRun, fonts: FontBook): { text: string; family: Family }[] {
  // Most runs are drawn whole by their own family: found without building the text again char by char.
  let i = 0;
  while (i < text.length) {
    const cp = text.codePointAt(i)!;
    if (fonts.familyFor(run.family, cp) !== run.family) break;
    i += cp > 0xffff ? 2 : 1;
  }
  if (i >= text.length) return [{ text, family: run.family }];
  const out: { text: string; family: Family }[] = i ? [{ text: text.slice(0, i), family: run.family }] : [];
  for (const ch of text.slice(i)) {
    const family = fonts.familyFor(run.family, ch.codePointAt(0)!);
    const last = out[out.length - 1];
    if (last && last.family === family) last.text += ch;
    else out.push({ text: ch, family });
  }
  return out;
}

/** Width of the text after a tab up to the next tab or break (what a right or centre stop aligns). */
function segmentWidth(inlines: Inline[], from: number, ctx: InlineContext): number {
  let w = 0;
  for (let i = from; i < inlines.length; i++) {
    const it = inlines[i]!;
    if (it.kind === 'tab' || it.kind === 'break') break;
    if (it.kind === 'text' && !it.style.hidden) {
      const r = resolveRun(it.style, ctx);
      w += ctx.fonts.measure(transform(it.text, it.style), r.family, r.bold, r.italic, r.size);
    } else if (it.kind === 'field') {
      const r = resolveRun(it.style, ctx);
      w += ctx.fonts.measure(ctx.fields[it.field] ?? '1', r.family, r.bold, r.italic, r.size);
    }
  }
  return w;
}

/**
 * The inline content of a paragraph as HTML. Tabs become measured gaps: MuPDF's HTML engine has no
 * tab stops, so the x position is tracked here with the same font metrics MuPDF uses.
 */
export function inlineHtml(p: Paragraph, ctx: InlineContext): string {
  const props = p.props;
  const indentLeft = props.indentLeft ?? 0;
  const firstLine = props.firstLine ?? 0;
  const tabs = props.tabs ?? [];
  const right = ctx.columnWidth - (props.indentRight ?? 0);
  let x = indentLeft + firstLine;
  let html = '';
  /** Placeholders of floating shapes: at the paragraph's start, where their anchor's y is read. */
  let anchors = '';
  const items: Inline[] = props.list
    ? [{ kind: 'text', text: props.list.label, style: props.list.style }, ...(props.list.suffix === 'tab' ? [{ kind: 'tab', style: props.list.style } as Inline] : props.list.suffix === 'space' ? [{ kind: 'text', text: ' ', style: props.list.style } as Inline] : []), ...p.inlines]
    : p.inlines;
  const lastText = ctx.marks ? items.findLastIndex((it) => it.kind === 'text' && !it.style.hidden && /\S/.test(it.text)) : -1;
  // The x position matters only to place tab stops: paragraphs without tabs skip the measuring.
  const tracksX = items.some((it) => it.kind === 'tab');
  /**
   * x after a run of text, following it onto the next line when it wraps (the lines after the
   * first start at the left indent): a table-of-contents entry too long for one line has its page
   * number right-aligned on its last line, as in Word. MuPDF breaks lines at spaces, as here.
   */
  const advance = (from: number, text: string, run: ResolvedRun): number => {
    const measure = (t: string) => ctx.fonts.measure(t, run.family, run.bold, run.italic, run.size);
    const width = measure(text);
    // Right-to-left lines are not laid out as measured here (they are shaped and reordered): x as before.
    if (from + width <= right || RIGHT_TO_LEFT.test(text)) return from + width;
    let at = from;
    for (const word of text.split(/(?<= )/)) {
      if (at > indentLeft + 0.5 && at + measure(word.trimEnd()) > right) at = indentLeft;
      at += measure(word);
    }
    return at;
  };
  /** The text span written last and where it ends in html (runs of the same look are joined). */
  let last: { end: number; css: string; link: string | undefined } | undefined;

  items.forEach((it, index) => {
    switch (it.kind) {
      case 'text': {
        if (it.style.hidden || !it.text) return;
        const run = resolveRun(it.style, ctx);
        const text = transform(it.text, it.style);
        const css = runCss(it.style, run);
        const written = (t: string) =>
          pieces(t, run, ctx.fonts)
            .map((piece) => (piece.family === run.family ? esc(keepSpaces(piece.text)) : `<span style="font-family:${cssFamily(piece.family, run.kern)}">${esc(keepSpaces(piece.text))}</span>`))
            .join('');
        const marks = ctx.marks;
        const inline = index - (items.length - p.inlines.length);
        const top = marks?.depth === 1 && inline >= 0;
        let body: string;
        if (top) body = markedWords(it.text, (t) => written(transform(t, it.style)), marks, inline, index === lastText);
        else body = written(text);
        // Links within the document are carried into the PDF where their targets are known (the body's chunks: link-targets.ts).
        const link = it.style.link && (!it.style.link.startsWith('#') || ctx.linkTargets) ? it.style.link : undefined;
        const close = link ? '</span></a>' : '</span>';
        if (css === ctx.paragraphCss && !link) {
          // The paragraph's own font and size (set on its <p>): the text needs no span.
          html += body;
          last = undefined;
          if (tracksX) x = advance(x, text, run);
          return;
        }
        if (last && last.end === html.length && last.css === css && last.link === link) {
          // Word splits text into many runs of the same look (revisions, proofing marks): one span
          // for them all spares MuPDF's HTML parser and style matching an element per run.
          html = html.slice(0, html.length - close.length) + body + close;
        } else {
          const id = link && ctx.linkIds ? ` id="xl${ctx.linkIds.count++}"` : '';
          html += `${link ? `<a${id} href="${esc(link)}" style="color:inherit;text-decoration:none">` : ''}<span style="${css}">${body}${close}`;
        }
        last = { end: html.length, css, link };
        if (tracksX) x = advance(x, text, run);
        return;
      }
      case 'tab': {
        const run = resolveRun(it.style, ctx);
        if (x >= right) {
          html += ' ';
          return;
        }
        const stop = nextStop(x, tabs, indentLeft, firstLine);
        const pos = Math.min(stop.pos, right);
        const following = stop.align === 'right' || stop.align === 'center' || stop.align === 'decimal' ? segmentWidth(items, index + 1, ctx) : 0;
        const target = stop.align === 'center' ? pos - following / 2 : stop.align === 'left' ? pos : pos - following;
        const width = Math.max(target - x, stop.align === 'left' ? 0 : 1);
        html += gap(width, run, ctx.fonts, stop.leader);
        x += width;
        return;
      }
      case 'break':
        if (it.type === 'line') {
          html += '<br/>';
          x = indentLeft;
        }
        return;
      case 'field': {
        const run = resolveRun(it.style, ctx);
        const text = ctx.fields[it.field] ?? '1';
        html += `<span style="${runCss(it.style, run)}">${esc(text)}</span>`;
        if (tracksX) x = advance(x, text, run);
        return;
      }
      case 'noteRef': {
        ctx.noteRefs.push(it.id);
        const run = resolveRun({ ...it.style, vertAlign: 'superscript' }, ctx);
        const id = ctx.marks ? ` id="fr${ctx.marks.refs++}"` : '';
        html += `<span${id} style="${runCss({ ...it.style, vertAlign: 'superscript' }, run)}">${esc(it.label)}</span>`;
        if (tracksX) x += ctx.fonts.measure(it.label, run.family, run.bold, run.italic, run.size);
        return;
      }
      case 'image': {
        const drawable = DRAWABLE.test(it.contentType);
        if (ctx.shapes && floatsApart(it, !!ctx.floatsOutOfFlow)) {
          // A picture in front of or behind the text takes no room in Word: it is drawn where it
          // floats, as a shape is. So are floating pictures in headers and footers, where the text
          // beside them is short (Word wraps it around them; MuPDF cannot).
          anchors += shapeAnchor(ctx.shapes.pictureShape(it), ctx);
          return;
        }
        const metafile = drawable ? undefined : ctx.metafiles?.placeholder(it.data, it.contentType);
        const src = (drawable ? ctx.pictures.placeholder(it.data, it.crop) : metafile) ?? TRANSPARENT_PNG;
        const id = metafile ? placeholderId(ctx) : '';
        const width = Math.min(it.width, ctx.columnWidth);
        const height = it.width > 0 ? (it.height * width) / it.width : it.height;
        if (it.floating) {
          // Other floating pictures are placed as blocks at their anchor (MuPDF has no floats with
          // text wrap), shifted to their horizontal position within the column.
          html += `<img src="${src}" style="display:block;margin-left:${pt(floatOffset(it.floating, width, ctx))};${textGoesBelow(it.floating, width, ctx) ? marginTop(offsetBelowAnchor(it.floating)) : ''}width:${pt(width)};height:${pt(height)}"${id}/>`;
        } else {
          const img = `<img src="${src}" style="width:${pt(width)};height:${pt(height)}"${id}/>`;
          // MuPDF shrinks an inline picture to the room left at the foot of a page (a chart 125 pt
          // tall was drawn 1 pt tall there); in a block of its height it goes whole to the next page,
          // as in Word. Only a picture alone in its paragraph (a figure): a block would break a line.
          html += height >= TALL_PICTURE && alonePicture(p, it) ? `<div style="height:${pt(height)}">${img}</div>` : img;
          x += width;
        }
        return;
      }
      case 'textbox': {
        // Placed on the page rather than from its paragraph (a cover page's title and author boxes),
        // a text box is drawn where it floats, taking no room, as a shape is; in the flow it sat at
        // its anchor (tika testWORD_2006ml.docx's cover text over the page's top-left corner).
        if (ctx.shapes && floatsApart(it)) {
          anchors += shapeAnchor(floatingTextBox(it), ctx);
          return;
        }
        const width = Math.min(it.width || ctx.columnWidth, ctx.columnWidth);
        let shift = it.floating ? `margin-left:${pt(floatOffset(it.floating, width, ctx))};` : '';
        // A box the text goes below takes its whole height, starting its offset below the anchor.
        if (it.floating && textGoesBelow(it.floating, width, ctx)) shift += `${marginTop(offsetBelowAnchor(it.floating))}${it.height ? `height:${pt(it.height)};` : ''}`;
        html += `<div style="${shift}width:${pt(width)}">${ctx.renderBlocks(it.blocks, width, it.textRoom)}</div>`;
        return;
      }
      case 'shape': {
        if (!ctx.shapes) return;
        if (it.floating) anchors += shapeAnchor(it, ctx);
        else if (it.blocks?.length) html += inlineShapeBox(it, ctx);
        else {
          const width = Math.min(it.width, ctx.columnWidth);
          // A rule (a line with no height) gets a placeholder as tall as it is thick, at least.
          const height = Math.max(it.height, it.geometry === 'line' ? (it.line?.width ?? 0.75) : 0.01);
          html += `<img src="${ctx.shapes.placeholder(it)}" style="width:${pt(width)};height:${pt(height)}"${placeholderId(ctx)}/>`;
          x += width;
        }
        return;
      }
    }
  });
  return anchors + html;
}

/** A paragraph's words get an id every this many (PageMarks): the text of the next page's first line tells the word between two. */
export const MARK_EVERY = 16;

/**
 * A text run with its words listed (PageMarks), some in a span of their own id: the paragraph's
 * first and last word, every MARK_EVERY-th, and all in block `marks.fine`. A word ends after
 * spaces, and after a hyphen or soft hyphen (where MuPDF may break a line too).
 * Where a line may break before a word's first character (an opening bracket), MuPDF starts the
 * word with a break that stays on the line before, and an id on it would tell that line's page:
 * so a word gets its id from its second character (seen on words after a run of justified text
 * too, not only after brackets). A word is cut from the text with the spaces after it, so
 * spaces are written as without marks.
 */
function markedWords(text: string, written: (t: string) => string, marks: PageMarks, inline: number, lastText: boolean): string {
  let html = '';
  // Unmarked words are written together, a run at a time (each writing splits the text by the faces that draw it).
  let plain = '';
  const flush = () => {
    if (plain) html += written(plain);
    plain = '';
  };
  const words = [...text.matchAll(/^\s+|[^\s\u00ad\u2010-]*[\u00ad\u2010-]*\s*/g)].filter((m) => m[0]);
  const lastWord = lastText ? words.findLastIndex((m) => !/^\s/.test(m[0])) : -1;
  words.forEach((m, k) => {
    const word = m[0];
    if (/^\s/.test(word)) {
      plain += word;
      return;
    }
    const list = marks.words;
    marks.blockWords = list.at(-1)?.block === marks.block ? (marks.blockWords ?? 0) + 1 : 0;
    const marked = marks.fine === marks.block || marks.blockWords % MARK_EVERY === 0 || k === lastWord;
    list.push({ block: marks.block, inline, offset: m.index, marked });
    if (!marked) {
      plain += word;
      return;
    }
    flush();
    // Letters that join their neighbours (Arabic, Syriac, N'Ko, Mongolian) stay together: split, they would lose their forms.
    const first = word.trimEnd().length > 1 && !JOINING.test(word.slice(0, 2)) ? [...word][0]! : '';
    html += `${first ? written(first) : ''}<span id="w${list.length - 1}">${written(word.slice(first.length))}</span>`;
  });
  flush();
  return html;
}

/**
 * A floating shape's placeholder: a zero-height block at the start of its anchor paragraph. With
 * line-height 0, as a block picture otherwise takes a line of its paragraph's line height (34
 * header rules in stress004 each pushed its body down a line) and sits below that line.
 */
function shapeAnchor(shape: Shape, ctx: InlineContext): string {
  // In a cell, the page device places it from the anchor's left and the cell's text width.
  return `<img ${SHAPE_ANCHOR} src="${ctx.shapes!.placeholder(shape, ctx.inCell ? ctx.columnWidth : undefined)}" style="display:block;width:0.01pt;height:0.01pt;line-height:0"${placeholderId(ctx)}/>`;
}

const textBoxShapes = new WeakMap<Extract<Inline, { kind: 'textbox' }>, Shape>();
/** The shape a floating object that floatsApart is drawn as. */
export function shapeApart(it: Extract<Inline, { kind: 'shape' | 'image' | 'textbox' }>, shapes: ShapePictures): Shape {
  return it.kind === 'shape' ? it : it.kind === 'image' ? shapes.pictureShape(it) : floatingTextBox(it);
}

/** A floating text box as a shape with no fill or outline (one object per box: the page device keys its placeholders by shape). */
function floatingTextBox(box: Extract<Inline, { kind: 'textbox' }>): Shape {
  let shape = textBoxShapes.get(box);
  if (!shape) {
    shape = { kind: 'shape', geometry: 'rect', width: box.width, height: box.height ?? 0, floating: box.floating, blocks: box.blocks, textInsets: { left: 0, top: 0, right: 0, bottom: 0 } };
    if (box.textRoom !== undefined) shape.clipsText = true;
    textBoxShapes.set(box, shape);
  }
  return shape;
}

/** Pictures at least this tall (points) that are alone in their paragraph keep their size at the foot of a page (see case 'image'). */
const TALL_PICTURE = 24;

/** Whether a paragraph shows nothing but this picture (empty runs aside). */
function alonePicture(p: Paragraph, picture: Inline): boolean {
  return p.inlines.every((i) => i === picture || (i.kind === 'text' && !i.text.trim()));
}

/** Marks the placeholder of a floating shape: it holds no line open (block-html's empty-paragraph test). */
export const SHAPE_ANCHOR = 'data-shape-anchor="1"';

/** An inline shape with text: a box with the shape's fill and outline around the text, in the flow. */
function inlineShapeBox(s: Shape, ctx: InlineContext): string {
  const inset = s.textInsets ?? DEFAULT_INSETS;
  const border = s.line ? s.line.width : 0;
  const width = Math.min(s.width || ctx.columnWidth, ctx.columnWidth);
  const inner = Math.max(width - inset.left - inset.right - 2 * border, 10);
  const css = [`width:${pt(inner)}`, `padding:${[inset.top, inset.right, inset.bottom, inset.left].map(pt).join(' ')}`];
  if (s.fill) css.push(`background-color:#${s.fill}`);
  if (s.line) css.push(`border:${pt(s.line.width)} solid #${s.line.color}`);
  // A box that keeps its size shows only the text that starts within it (estimated), as Word clips the rest.
  const room = s.clipsText && s.height > 0 ? Math.max(0, s.height - inset.top - inset.bottom - 2 * border) : undefined;
  return `<div style="${css.join(';')}">${ctx.renderBlocks(s.blocks!, inner, room)}</div>`;
}

const placeholderId = (ctx: InlineContext): string => (ctx.placeholderIds ? ` id="ph${ctx.placeholderIds.count++}"` : '');
const marginTop = (points: number): string => (points ? `margin-top:${pt(points)};` : '');
