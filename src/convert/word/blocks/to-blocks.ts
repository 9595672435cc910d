/**
 * Word's document model as layout's block model (layout/blocks/model.ts): each run's face and look
 * resolved by Word's rules (rules/runs.ts: the family substituted, raised and lowered text smaller,
 * kerning from the size asked), list labels as text before the runs, note marks raised, default
 * cell margins filled in, tables kept whole as Word keeps them (rules/keeps.ts), and floating
 * objects as floats layout places by a number this adapter gives back the object for.
 *
 * Each Word block becomes one layout block, once: layout caches lines by block, and hands back
 * the paragraphs it placed (sourceOf: headings and bookmarks) and the floats (floatAt).
 */
import type * as L from '../../../layout/blocks/model';
import type { Block, Inline, Paragraph, RunStyle, Table, TableCell } from '../model/index';
import { resolveRun, type RunDefaults } from '../rules/runs';
import { holdsTogether } from '../rules/keeps';
import { DEFAULT_CELL_MARGINS } from '../rules/tables';

/** A floating object of Word's model: drawn where it floats by the page writer. */
export type FloatingInline = Extract<Inline, { kind: 'shape' | 'image' | 'textbox' }>;

/** How a run looks beyond its face and size: colour, lines through or under it, highlight, rise and link. */
export function lookOf(style: RunStyle, size: number): L.Look {
  const full = style.size ?? size;
  return {
    color: style.color && style.color !== 'auto' ? style.color : undefined,
    underline: !!style.underline && style.underline !== 'none',
    strike: !!(style.strike || style.doubleStrike),
    highlight: style.highlight,
    // Word raises superscript by a third of the size and lowers subscript by about a seventh of it.
    rise: style.vertAlign === 'superscript' ? full * 0.33 : style.vertAlign === 'subscript' ? -full * 0.14 : 0,
    link: style.link,
  };
}

export class WordBlocks {
  private readonly paragraphs = new WeakMap<Paragraph, L.ParagraphBlock>();
  private readonly tables = new WeakMap<Table, L.TableBlock>();
  private readonly lists = new WeakMap<Block[], L.Block[]>();
  private readonly sources = new WeakMap<L.ParagraphBlock, Paragraph>();
  private readonly floats: FloatingInline[] = [];

  constructor(private readonly defaults: RunDefaults) {}

  /** A stretch of blocks (the same array gives the same blocks). */
  blocks(blocks: Block[]): L.Block[] {
    let out = this.lists.get(blocks);
    if (!out) this.lists.set(blocks, (out = blocks.map((b) => (b.kind === 'table' ? this.table(b) : this.paragraph(b)))));
    return out;
  }

  /** Paragraphs only (a header, a footer, a note's body): a table among them is not ours to lay out here. */
  paragraphsOf(blocks: Block[]): L.ParagraphBlock[] {
    return blocks.map((b) => {
      if (b.kind !== 'paragraph') throw new Error('a table where paragraphs were expected');
      return this.paragraph(b);
    });
  }

  /** The Word paragraph a layout paragraph was made from. */
  sourceOf(p: L.ParagraphBlock): Paragraph | undefined {
    return this.sources.get(p);
  }

  /** The floating object behind a float's `ref`. */
  floatAt(ref: number): FloatingInline {
    return this.floats[ref]!;
  }

  paragraph(p: Paragraph): L.ParagraphBlock {
    let out = this.paragraphs.get(p);
    if (out) return out;
    const items: L.InlineItem[] = [...this.listLabel(p)];
    for (const it of p.inlines) this.inline(it, items);
    out = { kind: 'paragraph', props: this.paragraphStyle(p), items };
    this.paragraphs.set(p, out);
    this.sources.set(out, p);
    return out;
  }

  private paragraphStyle(p: Paragraph): L.ParagraphStyle {
    const { align, indentLeft, indentRight, firstLine, spaceBefore, spaceAfter, line, bidi, styleId, contextualSpacing, keepNext, keepLines, widowControl, shading, borders, tabs } = p.props;
    const mark = resolveRun(p.props.markStyle ?? {}, this.defaults);
    return { align, indentLeft, indentRight, firstLine, spaceBefore, spaceAfter, line, bidi, styleId, contextualSpacing, keepNext, keepLines, widowControl, shading, borders, tabs, markFace: { family: mark.family, size: mark.size } };
  }

  /** The resolved list label and the separator after it: they size no line, as Word counts them. */
  private listLabel(p: Paragraph): L.InlineItem[] {
    const list = p.props.list;
    if (!list) return [];
    const style = this.style(list.style, false);
    const label: L.InlineItem[] = !list.style.hidden && list.label ? [{ kind: 'text', text: list.label, style }] : [];
    if (list.suffix === 'tab') label.push({ kind: 'tab', style });
    else if (list.suffix === 'space' && !list.style.hidden) label.push({ kind: 'text', text: ' ', style });
    return label;
  }

  private inline(it: Inline, out: L.InlineItem[]): void {
    switch (it.kind) {
      case 'text':
        if (!it.style.hidden && it.text) out.push({ kind: 'text', text: it.text, style: this.style(it.style, true) });
        return;
      case 'field':
        out.push({ kind: 'field', field: it.field, style: this.style(it.style, true) });
        return;
      case 'noteRef':
        // The note's mark, raised, sizes no line; its label as written (no capitals). An empty
        // label still calls its note (from the text before it).
        out.push({ kind: 'text', text: it.label, style: this.style({ ...it.style, vertAlign: 'superscript', caps: false, smallCaps: false }, false), note: it.id });
        return;
      case 'tab':
        out.push({ kind: 'tab', style: this.style(it.style, false) });
        return;
      case 'break':
        if (it.type === 'line') out.push({ kind: 'break' });
        return;
      case 'image':
        if (!it.floating) out.push({ kind: 'picture', data: it.data, contentType: it.contentType, width: it.width, height: it.height, crop: it.crop });
        else this.float(it, it.floating, out);
        return;
      case 'shape':
      case 'textbox':
        if (it.floating) this.float(it, it.floating, out);
    }
  }

  private float(it: FloatingInline, anchor: L.FloatAnchor, out: L.InlineItem[]): void {
    out.push({ kind: 'float', ref: this.floats.push(it) - 1, width: it.width, height: it.height, anchor });
  }

  /** A run's face (Word's rules), look, and the face that sizes its line when it counts (its full size: rules/runs.ts largestRun). */
  private style(style: RunStyle, sizes: boolean): L.TextStyle {
    const face = resolveRun(style, this.defaults);
    const upper = style.caps || style.smallCaps;
    return {
      face,
      look: lookOf(style, this.defaults.defaultSize),
      ...(sizes ? { sizes: { family: face.family, size: style.size ?? this.defaults.defaultSize } } : {}),
      ...(upper ? { upper } : {}),
    };
  }

  table(t: Table): L.TableBlock {
    let out = this.tables.get(t);
    if (out) return out;
    const rows = t.rows.map((r) => ({ cells: r.cells.map((c) => this.cell(c)), header: r.header, height: r.height, cantSplit: r.cantSplit }));
    out = { kind: 'table', grid: t.grid, rows, align: t.align, indent: t.indent, bidiVisual: t.bidiVisual, keepTogether: holdsTogether(t) };
    this.tables.set(t, out);
    return out;
  }

  private cell(c: TableCell): L.CellBlock {
    return { blocks: this.paragraphsOf(c.blocks), gridSpan: c.gridSpan, vMerge: c.vMerge, shading: c.shading, borders: c.borders, vAlign: c.vAlign, margins: c.margins ?? DEFAULT_CELL_MARGINS, width: c.width };
  }
}
