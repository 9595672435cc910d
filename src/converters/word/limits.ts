/**
 * Word's own limits, applied to a read document before it is laid out. Word's dialogs and its file
 * readers keep values in these ranges; a damaged or hand-made file can hold anything (a line
 * spacing of 99,999,999 made MuPDF's layout run without end: found by mutating corpus files). Out
 * of range, a value is brought to the nearest limit, as Word shows such a file.
 */
import type { Block, Border, Inline, PageGeometry, Paragraph, RunStyle, Shape, WordDocument } from './model';

/** Largest page side (22 in) and the least room left for text between margins, points. */
const PAGE_MAX = 1584;
const PAGE_MIN = 7.2;
const TEXT_MIN = 36;
/** Spacing before and after, exact and at-least line heights, indents: at most 1584 pt in Word. */
const SPACING_MAX = 1584;
/** Line spacing as a multiple of single: at most 132 lines. */
const LINE_MULTIPLE_MAX = 132;
/** Font size: at most 1638 pt. */
const FONT_MAX = 1638;
/** Table grid columns and row heights: at most 22 in. */
const TABLE_MAX = 1584;
/** Border lines: at most 6 pt wide (art borders 31 pt), at most 31 pt from the text. */
const BORDER_MAX = 6;
const BORDER_SPACE_MAX = 31;

const clamp = (v: number, lo: number, hi: number) => (Number.isFinite(v) ? Math.min(hi, Math.max(lo, v)) : lo);

/** The sides of a border set within their limits (a border of w:sz 99,999,999 took minutes to lay out). */
function borders(set: object | undefined): void {
  if (!set) return;
  for (const [k, b] of Object.entries(set)) {
    if (!b || typeof b !== 'object' || !('width' in b)) continue;
    const border = b as Border;
    if (border.width >= 0 && border.width <= BORDER_MAX && !(border.space !== undefined && !(border.space >= 0 && border.space <= BORDER_SPACE_MAX))) continue;
    (set as Record<string, unknown>)[k] = { ...border, width: clamp(border.width, 0, BORDER_MAX), ...(border.space !== undefined ? { space: clamp(border.space, 0, BORDER_SPACE_MAX) } : {}) };
  }
}

export function withinWordLimits(doc: WordDocument): WordDocument {
  const seen = new Set<object>();
  // Values are only written when out of range (a long document has tens of thousands of runs).
  const out = (v: number | undefined, lo: number, hi: number) => v !== undefined && !(v >= lo && v <= hi);
  const style = (s: RunStyle | undefined) => {
    if (!s) return;
    if (out(s.size, 1, FONT_MAX)) s.size = clamp(s.size!, 1, FONT_MAX);
    // Character spacing: Word allows -1584..1584 pt.
    if (out(s.spacing, -SPACING_MAX, SPACING_MAX)) s.spacing = clamp(s.spacing!, -SPACING_MAX, SPACING_MAX);
    if (out(s.kern, 0, FONT_MAX)) s.kern = clamp(s.kern!, 0, FONT_MAX);
  };
  const sides = <T extends { top: number; right: number; bottom: number; left: number }>(m: T): T => ({ ...m, top: clamp(m.top, 0, SPACING_MAX), right: clamp(m.right, 0, SPACING_MAX), bottom: clamp(m.bottom, 0, SPACING_MAX), left: clamp(m.left, 0, SPACING_MAX) });
  const shape = (sh: Shape) => {
    sh.width = clamp(sh.width, 0, PAGE_MAX * 4);
    sh.height = clamp(sh.height, 0, PAGE_MAX * 4);
    if (sh.textInsets) sh.textInsets = sides(sh.textInsets);
    if (sh.blocks) blocks(sh.blocks);
    sh.members?.forEach(shape);
  };
  const inline = (it: Inline) => {
    if ('style' in it) style(it.style);
    if (it.kind === 'image') {
      it.width = clamp(it.width, 0, PAGE_MAX * 4);
      it.height = clamp(it.height, 0, PAGE_MAX * 4);
    } else if (it.kind === 'textbox') {
      it.width = clamp(it.width, 0, PAGE_MAX * 4);
      if (it.height !== undefined) it.height = clamp(it.height, 0, PAGE_MAX * 4);
      blocks(it.blocks);
    } else if (it.kind === 'shape') shape(it);
  };
  const paragraph = (p: Paragraph) => {
    const q = p.props;
    if (out(q.spaceBefore, 0, SPACING_MAX)) q.spaceBefore = clamp(q.spaceBefore!, 0, SPACING_MAX);
    if (out(q.spaceAfter, 0, SPACING_MAX)) q.spaceAfter = clamp(q.spaceAfter!, 0, SPACING_MAX);
    const lineMax = q.line?.rule === 'auto' ? LINE_MULTIPLE_MAX : SPACING_MAX;
    if (q.line && out(q.line.value, 0, lineMax)) q.line = { ...q.line, value: clamp(q.line.value, 0, lineMax) };
    if (out(q.indentLeft, -SPACING_MAX, SPACING_MAX)) q.indentLeft = clamp(q.indentLeft!, -SPACING_MAX, SPACING_MAX);
    if (out(q.indentRight, -SPACING_MAX, SPACING_MAX)) q.indentRight = clamp(q.indentRight!, -SPACING_MAX, SPACING_MAX);
    if (out(q.firstLine, -SPACING_MAX, SPACING_MAX)) q.firstLine = clamp(q.firstLine!, -SPACING_MAX, SPACING_MAX);
    if (q.borders) borders(q.borders);
    if (q.tabs?.some((t) => out(t.pos, -SPACING_MAX, SPACING_MAX))) q.tabs = q.tabs.map((t) => ({ ...t, pos: clamp(t.pos, -SPACING_MAX, SPACING_MAX) }));
    p.inlines.forEach(inline);
    if (q.list) style(q.list.style);
    style(q.markStyle); // an empty paragraph takes its mark's font
  };
  const blocks = (list: Block[] | undefined) => {
    // Sections share their headers and footers: each list once.
    if (!list || seen.has(list)) return;
    seen.add(list);
    for (const b of list) {
      if (b.kind === 'paragraph') paragraph(b);
      else {
        b.grid = b.grid.map((w) => clamp(w, 0, TABLE_MAX));
        if (b.indent !== undefined) b.indent = clamp(b.indent, -TABLE_MAX, TABLE_MAX);
        for (const r of b.rows) {
          if (r.height) r.height = { ...r.height, value: clamp(r.height.value, 0, TABLE_MAX) };
          for (const c of r.cells) {
            if (c.margins) c.margins = sides(c.margins);
            borders(c.borders);
            blocks(c.blocks);
          }
        }
      }
    }
  };
  for (const s of doc.sections) {
    page(s.page);
    borders(s.pageBorders);
    if (s.columnGap !== undefined) s.columnGap = clamp(s.columnGap, 0, SPACING_MAX);
    blocks(s.blocks);
    for (const set of [s.headers, s.footers]) for (const k of ['default', 'first', 'even'] as const) blocks(set[k]);
  }
  for (const notes of doc.notes.values()) blocks(notes);
  if (doc.defaultSize) doc.defaultSize = clamp(doc.defaultSize, 1, FONT_MAX);
  return doc;
}

/** A page within Word's sizes, whose margins leave some room for text (scaled down together when they do not). */
function page(g: PageGeometry): void {
  g.width = clamp(g.width, PAGE_MIN, PAGE_MAX);
  g.height = clamp(g.height, PAGE_MIN, PAGE_MAX);
  for (const k of ['marginTop', 'marginRight', 'marginBottom', 'marginLeft', 'header', 'footer'] as const) g[k] = clamp(g[k], 0, PAGE_MAX);
  const fit = (a: 'marginLeft' | 'marginTop', b: 'marginRight' | 'marginBottom', side: number) => {
    const room = Math.max(0, side - Math.min(TEXT_MIN, side / 2));
    const sum = g[a] + g[b];
    if (sum > room) {
      const k = sum > 0 ? room / sum : 0;
      g[a] *= k;
      g[b] *= k;
    }
  };
  fit('marginLeft', 'marginRight', g.width);
  fit('marginTop', 'marginBottom', g.height);
}
