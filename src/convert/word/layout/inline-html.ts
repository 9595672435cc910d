/**
 * The inline content of a paragraph as HTML for MuPDF's HTML engine: runs, tabs as measured gaps
 * (MuPDF has no tab stops), fields, note references, pictures, text boxes and shapes, written by
 * an InlineWriter that tracks the line's x as it goes.
 */
import type { Inline, Paragraph } from '../model/index';
import { DRAWABLE, floatsApart, offsetBelowAnchor } from '../rules/floats';
import { floatOffset, textGoesBelow } from '../../../layout/pages/floats';
import { resolveRun, type ResolvedRun } from '../rules/runs';
import { nextStop } from '../../../layout/blocks/tab-stops';
import { cssFamily } from '../../../layout/text/font-book';
import { RIGHT_TO_LEFT } from '../../../lib/complex-script';
import { gap } from './tab-stops';
import { pt } from './css-units';
import type { InlineContext } from './inline-context';
import { esc, keepSpaces, pieces, runCss, transform } from './run-html';
import { markedWords } from './marked-words';
import { floatingTextBox, inlineShapeBox, placeholderId, shapeAnchor } from './inline-shapes';

const TRANSPARENT_PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAAC0lEQVR4nGNgAAIAAAUAAXpeqz8AAAAASUVORK5CYII=';

/** Pictures at least this tall (points) that are alone in their paragraph keep their size at the foot of a page (see InlineWriter.image). */
const TALL_PICTURE = 24;

type Of<K extends Inline['kind']> = Extract<Inline, { kind: K }>;

/**
 * The inline content of a paragraph as HTML. Tabs become measured gaps: MuPDF's HTML engine has no
 * tab stops, so the x position is tracked here with the same font metrics MuPDF uses.
 */
export function inlineHtml(p: Paragraph, ctx: InlineContext): string {
  return new InlineWriter(p, ctx).write();
}

class InlineWriter {
  private readonly indentLeft: number;
  private readonly firstLine: number;
  private readonly right: number;
  /** The paragraph's list label and the separator after it, then its inlines. */
  private readonly items: Inline[];
  /** The last item showing text (its last word gets an id, see markedWords). */
  private readonly lastText: number;
  /** The x position matters only to place tab stops: paragraphs without tabs skip the measuring. */
  private readonly tracksX: boolean;
  private x: number;
  private html = '';
  /** Placeholders of floating shapes: at the paragraph's start, where their anchor's y is read. */
  private anchors = '';
  /** The text span written last and where it ends in html (runs of the same look are joined). */
  private last: { end: number; css: string; link: string | undefined } | undefined;

  constructor(
    private readonly p: Paragraph,
    private readonly ctx: InlineContext,
  ) {
    const props = p.props;
    this.indentLeft = props.indentLeft ?? 0;
    this.firstLine = props.firstLine ?? 0;
    this.right = ctx.columnWidth - (props.indentRight ?? 0);
    this.x = this.indentLeft + this.firstLine;
    const list = props.list;
    this.items = list
      ? [{ kind: 'text', text: list.label, style: list.style }, ...(list.suffix === 'tab' ? [{ kind: 'tab', style: list.style } as Inline] : list.suffix === 'space' ? [{ kind: 'text', text: ' ', style: list.style } as Inline] : []), ...p.inlines]
      : p.inlines;
    this.lastText = ctx.marks ? this.items.findLastIndex((it) => it.kind === 'text' && !it.style.hidden && /\S/.test(it.text)) : -1;
    this.tracksX = this.items.some((it) => it.kind === 'tab');
  }

  write(): string {
    this.items.forEach((it, index) => this.item(it, index));
    return this.anchors + this.html;
  }

  private item(it: Inline, index: number): void {
    switch (it.kind) {
      case 'text':
        return this.text(it, index);
      case 'tab':
        return this.tab(it, index);
      case 'break':
        if (it.type === 'line') {
          this.html += '<br/>';
          this.x = this.indentLeft;
        }
        return;
      case 'field': {
        const run = resolveRun(it.style, this.ctx);
        const text = this.ctx.fields[it.field] ?? '1';
        this.html += `<span style="${runCss(it.style, run)}">${esc(text)}</span>`;
        if (this.tracksX) this.x = this.advance(this.x, text, run);
        return;
      }
      case 'noteRef':
        return this.noteRef(it);
      case 'image':
        return this.image(it);
      case 'textbox':
        return this.textbox(it);
      case 'shape':
        return this.shape(it);
    }
  }

  /**
   * x after a run of text, following it onto the next line when it wraps (the lines after the
   * first start at the left indent): a table-of-contents entry too long for one line has its page
   * number right-aligned on its last line, as in Word. MuPDF breaks lines at spaces, as here.
   */
  private advance(from: number, text: string, run: ResolvedRun): number {
    const measure = (t: string) => this.ctx.fonts.measure(t, run.family, run.bold, run.italic, run.size);
    const width = measure(text);
    // Right-to-left lines are not laid out as measured here (they are shaped and reordered): x as before.
    if (from + width <= this.right || RIGHT_TO_LEFT.test(text)) return from + width;
    let at = from;
    for (const word of text.split(/(?<= )/)) {
      if (at > this.indentLeft + 0.5 && at + measure(word.trimEnd()) > this.right) at = this.indentLeft;
      at += measure(word);
    }
    return at;
  }

  private text(it: Of<'text'>, index: number): void {
    if (it.style.hidden || !it.text) return;
    const ctx = this.ctx;
    const run = resolveRun(it.style, ctx);
    const text = transform(it.text, it.style);
    const css = runCss(it.style, run);
    const written = (t: string) =>
      pieces(t, run, ctx.fonts)
        .map((piece) => (piece.family === run.family ? esc(keepSpaces(piece.text)) : `<span style="font-family:${cssFamily(piece.family, run.kern)}">${esc(keepSpaces(piece.text))}</span>`))
        .join('');
    const marks = ctx.marks;
    const inline = index - (this.items.length - this.p.inlines.length);
    const top = marks?.depth === 1 && inline >= 0;
    const body = top ? markedWords(it.text, (t) => written(transform(t, it.style)), marks, inline, index === this.lastText) : written(text);
    // Links within the document are carried into the PDF where their targets are known (the body's chunks: link-targets.ts).
    const link = it.style.link && (!it.style.link.startsWith('#') || ctx.linkTargets) ? it.style.link : undefined;
    const close = link ? '</span></a>' : '</span>';
    if (css === ctx.paragraphCss && !link) {
      // The paragraph's own font and size (set on its <p>): the text needs no span.
      this.html += body;
      this.last = undefined;
      if (this.tracksX) this.x = this.advance(this.x, text, run);
      return;
    }
    const last = this.last;
    if (last && last.end === this.html.length && last.css === css && last.link === link) {
      // Word splits text into many runs of the same look (revisions, proofing marks): one span
      // for them all spares MuPDF's HTML parser and style matching an element per run.
      this.html = this.html.slice(0, this.html.length - close.length) + body + close;
    } else {
      const id = link && ctx.linkIds ? ` id="xl${ctx.linkIds.count++}"` : '';
      this.html += `${link ? `<a${id} href="${esc(link)}" style="color:inherit;text-decoration:none">` : ''}<span style="${css}">${body}${close}`;
    }
    this.last = { end: this.html.length, css, link };
    if (this.tracksX) this.x = this.advance(this.x, text, run);
  }

  private tab(it: Of<'tab'>, index: number): void {
    const run = resolveRun(it.style, this.ctx);
    if (this.x >= this.right) {
      this.html += ' ';
      return;
    }
    const stop = nextStop(this.x, this.p.props.tabs ?? [], this.indentLeft, this.firstLine);
    const pos = Math.min(stop.pos, this.right);
    const following = stop.align === 'right' || stop.align === 'center' || stop.align === 'decimal' ? segmentWidth(this.items, index + 1, this.ctx) : 0;
    const target = stop.align === 'center' ? pos - following / 2 : stop.align === 'left' ? pos : pos - following;
    const width = Math.max(target - this.x, stop.align === 'left' ? 0 : 1);
    this.html += gap(width, run, this.ctx.fonts, stop.leader);
    this.x += width;
  }

  private noteRef(it: Of<'noteRef'>): void {
    const ctx = this.ctx;
    ctx.noteRefs.push(it.id);
    const run = resolveRun({ ...it.style, vertAlign: 'superscript' }, ctx);
    const id = ctx.marks ? ` id="fr${ctx.marks.refs++}"` : '';
    this.html += `<span${id} style="${runCss({ ...it.style, vertAlign: 'superscript' }, run)}">${esc(it.label)}</span>`;
    if (this.tracksX) this.x += ctx.fonts.measure(it.label, run.family, run.bold, run.italic, run.size);
  }

  private image(it: Of<'image'>): void {
    const ctx = this.ctx;
    const drawable = DRAWABLE.test(it.contentType);
    if (ctx.shapes && floatsApart(it, !!ctx.floatsOutOfFlow)) {
      // A picture in front of or behind the text takes no room in Word: it is drawn where it
      // floats, as a shape is. So are floating pictures in headers and footers, where the text
      // beside them is short (Word wraps it around them; MuPDF cannot).
      this.anchors += shapeAnchor(ctx.shapes.pictureShape(it), ctx);
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
      this.html += `<img src="${src}" style="display:block;margin-left:${pt(floatOffset(it.floating, width, ctx))};${textGoesBelow(it.floating, width, ctx) ? marginTop(offsetBelowAnchor(it.floating)) : ''}width:${pt(width)};height:${pt(height)}"${id}/>`;
    } else {
      const img = `<img src="${src}" style="width:${pt(width)};height:${pt(height)}"${id}/>`;
      // MuPDF shrinks an inline picture to the room left at the foot of a page (a chart 125 pt
      // tall was drawn 1 pt tall there); in a block of its height it goes whole to the next page,
      // as in Word. Only a picture alone in its paragraph (a figure): a block would break a line.
      this.html += height >= TALL_PICTURE && alonePicture(this.p, it) ? `<div style="height:${pt(height)}">${img}</div>` : img;
      this.x += width;
    }
  }

  private textbox(it: Of<'textbox'>): void {
    const ctx = this.ctx;
    // Placed on the page rather than from its paragraph (a cover page's title and author boxes),
    // a text box is drawn where it floats, taking no room, as a shape is; in the flow it sat at
    // its anchor (tika testWORD_2006ml.docx's cover text over the page's top-left corner).
    if (ctx.shapes && floatsApart(it)) {
      this.anchors += shapeAnchor(floatingTextBox(it), ctx);
      return;
    }
    const width = Math.min(it.width || ctx.columnWidth, ctx.columnWidth);
    let shift = it.floating ? `margin-left:${pt(floatOffset(it.floating, width, ctx))};` : '';
    // A box the text goes below takes its whole height, starting its offset below the anchor.
    if (it.floating && textGoesBelow(it.floating, width, ctx)) shift += `${marginTop(offsetBelowAnchor(it.floating))}${it.height ? `height:${pt(it.height)};` : ''}`;
    this.html += `<div style="${shift}width:${pt(width)}">${ctx.renderBlocks(it.blocks, width, it.textRoom)}</div>`;
  }

  private shape(it: Of<'shape'>): void {
    const ctx = this.ctx;
    if (!ctx.shapes) return;
    if (it.floating) this.anchors += shapeAnchor(it, ctx);
    else if (it.blocks?.length) this.html += inlineShapeBox(it, ctx);
    else {
      const width = Math.min(it.width, ctx.columnWidth);
      // A rule (a line with no height) gets a placeholder as tall as it is thick, at least.
      const height = Math.max(it.height, it.geometry === 'line' ? (it.line?.width ?? 0.75) : 0.01);
      this.html += `<img src="${ctx.shapes.placeholder(it)}" style="width:${pt(width)};height:${pt(height)}"${placeholderId(ctx)}/>`;
      this.x += width;
    }
  }
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

/** Whether a paragraph shows nothing but this picture (empty runs aside). */
function alonePicture(p: Paragraph, picture: Inline): boolean {
  return p.inlines.every((i) => i === picture || (i.kind === 'text' && !i.text.trim()));
}

const marginTop = (points: number): string => (points ? `margin-top:${pt(points)};` : '');
