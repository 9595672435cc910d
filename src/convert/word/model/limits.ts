/**
 * Word's own limits, applied to a read document before it is laid out. Word's dialogs and its file
 * readers keep values in these ranges; a damaged or hand-made file can hold anything (a line
 * spacing of 99,999,999 made MuPDF's layout run without end: found by mutating corpus files). Out
 * of range, a value is brought to the nearest limit, as Word shows such a file.
 */
import type { Block, Border, Inline, PageGeometry, Paragraph, RunStyle, Shape, Table, WordDocument } from './index';
import { LimitExceeded } from '../../../lib/limits';

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
  withinNestingLimit(doc);
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

// ---- Nesting ----

/**
 * Fields nested in fields, at most this deep; deeper ones show their result as plain text (their
 * instructions stay hidden; docx/fields.ts, doc/story.ts). Word's field dialogs nest a few levels (an IF in a MERGEFIELD in an
 * IF); a stack as deep as the file's field starts made every run of text check them all (a
 * field nested 100,000 deep: 10^10 checks).
 */
export const FIELD_NESTING_MAX = 32;

/**
 * Tables, text boxes and shapes with text inside one another, at most this deep (a table in a cell
 * of a table is 2; a text box in a cell of that, 3). MuPDF's HTML layout recurses once per nested
 * box on a small stack: tables nested 12 deep (1.1 KB of DOCX) trapped it ("memory access out of
 * bounds"), 11 did not; text boxes in text boxes trapped at 20, tables and text boxes alternating at
 * 14. 8 leaves a third of that room for what the boxes hold. Deeper ones are laid out flat, keeping
 * every word, as Word lays out what passes its own limit (63 tables): a table's cells as the
 * paragraphs they hold, in order; a text box's or shape's text in the paragraph it is anchored in.
 */
export const NESTING_MAX = 8;

/** Blocks nested past NESTING_MAX laid out flat (see there), in place; lists shared between sections once. */
export function withinNestingLimit(doc: WordDocument): WordDocument {
  const done = new Map<Block[], Block[]>();
  const top = (list: Block[] | undefined, depth: number): Block[] | undefined => {
    if (!list) return list;
    let out = done.get(list);
    if (!out) done.set(list, (out = nestedBlocks(list, depth)));
    return out;
  };
  for (const s of doc.sections) {
    s.blocks = top(s.blocks, 0)!;
    // Headers, footers and notes are laid out inside boxes of their own: one level down.
    for (const set of [s.headers, s.footers]) for (const k of ['default', 'first', 'even'] as const) if (set[k]) set[k] = top(set[k], 1);
  }
  for (const [key, notes] of doc.notes) doc.notes.set(key, top(notes, 1)!);
  return doc;
}

/** The blocks of a container `depth` containers deep, those past the limit flat (the list itself when nothing changes). */
function nestedBlocks(list: Block[], depth: number): Block[] {
  let out: Block[] | undefined;
  for (let i = 0; i < list.length; i++) {
    const b = list[i]!;
    if (b.kind === 'paragraph') nestedParagraph(b, depth);
    else if (depth >= NESTING_MAX) {
      out ??= list.slice(0, i);
      for (const p of flatTable(b)) out.push(nestedParagraph(p, depth));
      continue;
    } else for (const r of b.rows) for (const c of r.cells) c.blocks = nestedBlocks(c.blocks, depth + 1);
    out?.push(b);
  }
  return out ?? list;
}

/** A table's paragraphs, row by row and cell by cell, those of the tables in it too. */
function flatTable(t: Table): Paragraph[] {
  const out: Paragraph[] = [];
  const stack: Block[] = [t];
  while (stack.length) {
    const b = stack.pop()!;
    if (b.kind === 'paragraph') {
      out.push(b);
      continue;
    }
    const blocks: Block[] = [];
    for (const r of b.rows) for (const c of r.cells) for (const x of c.blocks) blocks.push(x);
    for (let i = blocks.length - 1; i >= 0; i--) stack.push(blocks[i]!);
  }
  return out;
}

/** The paragraph with its text boxes and shapes' text nested within the limit, or flat in its line past it. */
function nestedParagraph(p: Paragraph, depth: number): Paragraph {
  let out: Inline[] | undefined;
  p.inlines.forEach((it, i) => {
    const replaced = nestedInline(it, depth);
    if (replaced) (out ??= p.inlines.slice(0, i)).push(...replaced);
    else out?.push(it);
  });
  if (out) p.inlines = withoutEdgeBreaks(out);
  return p;
}

/** Line breaks put around a box's text laid out flat: they part it from the text beside it, no more. */
const boxBreaks = new WeakSet<Inline>();
const boxBreak = (): Inline => {
  const br: Inline = { kind: 'break', type: 'line' };
  boxBreaks.add(br);
  return br;
};
/** A box's text as lines of their own in its paragraph. */
const boxLines = (inlines: Inline[]): Inline[] => (inlines.length ? [boxBreak(), ...inlines, boxBreak()] : inlines);

/** The inlines without the box breaks that start or end them, or follow a line break. */
function withoutEdgeBreaks(inlines: Inline[]): Inline[] {
  const out: Inline[] = [];
  for (const it of inlines) {
    const last = out[out.length - 1];
    if (boxBreaks.has(it) && (!last || (last.kind === 'break' && last.type === 'line'))) continue;
    out.push(it);
  }
  while (out.length && boxBreaks.has(out[out.length - 1]!)) out.pop();
  return out;
}

/** What stands for the inline in a paragraph `depth` containers deep, when not the inline itself. */
function nestedInline(it: Inline, depth: number): Inline[] | undefined {
  if (it.kind === 'textbox') {
    if (depth >= NESTING_MAX) return boxLines(flatBlocks(it.blocks));
    it.blocks = nestedBlocks(it.blocks, depth + 1);
  } else if (it.kind === 'shape') {
    // A shape with text past the limit is its text alone (its outline nested that deep is left out).
    if (it.blocks && depth >= NESTING_MAX) return boxLines(flatBlocks(it.blocks));
    const text = memberText(it, depth + 1);
    if (text.length) return [it, ...boxLines(text)];
  }
  return undefined;
}

/**
 * A shape's text nested in its box (its blocks `depth` deep), with its group's members' (one level
 * further); a member past the limit keeps its drawing and gives up its text, returned to follow the
 * group in its paragraph.
 */
function memberText(sh: Shape, depth: number): Inline[] {
  const out: Inline[] = [];
  if (sh.blocks) {
    if (depth > NESTING_MAX) {
      out.push(...boxLines(flatBlocks(sh.blocks)));
      delete sh.blocks;
    } else sh.blocks = nestedBlocks(sh.blocks, depth);
  }
  for (const m of sh.members ?? []) out.push(...memberText(m, depth + 1));
  return out;
}

/** Blocks as inlines of one paragraph: paragraphs (tables' too) one line each, list labels kept, boxes' text in line. */
function flatBlocks(blocks: Block[]): Inline[] {
  const out: Inline[] = [];
  for (const b of blocks) {
    for (const p of b.kind === 'paragraph' ? [b] : flatTable(b)) {
      if (out.length) out.push(boxBreak());
      const list = p.props.list;
      if (list) out.push({ kind: 'text', text: list.label + ' ', style: list.style });
      for (const it of p.inlines) {
        if (it.kind === 'textbox' || (it.kind === 'shape' && it.blocks)) out.push(...boxLines(flatBlocks(it.blocks!)));
        else if (it.kind === 'shape') out.push(it, ...boxLines(memberText(it, NESTING_MAX + 1)));
        else out.push(it);
      }
    }
  }
  return out;
}

// ---- Counts ----

/**
 * What one document may hold, counted by the readers as they build the model, in every story (body,
 * headers, notes, text boxes, cells): past one, the document is refused (LimitExceeded) before it
 * is laid out. A 199 KB DOCX of 2 million empty paragraphs took 2 GB. Each limit is far past what
 * a real document holds: a 2,000-page book has about 60,000 paragraphs and 300,000 runs; 100,000
 * table rows are a table 2,000 pages long; 10,000 sections, pictures and 50,000 notes are more than
 * any book (each section can start a page; each picture is unpacked whole).
 */
export const COUNT_MAX = {
  paragraphs: 200_000,
  runs: 1_000_000,
  rows: 100_000,
  cells: 500_000,
  sections: 10_000,
  pictures: 10_000,
  notes: 50_000,
} as const;

export type Counted = keyof typeof COUNT_MAX;

const COUNTED: Record<Counted, string> = {
  paragraphs: 'paragraphs',
  runs: 'runs (pieces of text in one format, tabs, breaks, fields)',
  rows: 'table rows',
  cells: 'table cells',
  sections: 'sections',
  pictures: 'pictures',
  notes: 'footnotes and endnotes',
};

const thousands = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** The counts of one document being read: add() throws LimitExceeded (limit "word_<count>") past COUNT_MAX. */
export class ModelCounts {
  private readonly n: Record<Counted, number> = { paragraphs: 0, runs: 0, rows: 0, cells: 0, sections: 0, pictures: 0, notes: 0 };

  add(what: Counted, k = 1): void {
    if ((this.n[what] += k) > COUNT_MAX[what]) throw tooMany(what, this.n[what]);
  }
}

/** `count` is how many were counted when the limit was passed: at least that many, maybe more. */
export function tooMany(what: Counted, count: number, exact = false): LimitExceeded {
  const max = COUNT_MAX[what];
  const held = exact ? `holds ${thousands(count)} ${COUNTED[what]}` : `holds more than ${thousands(max)} ${COUNTED[what]}`;
  return new LimitExceeded(`word_${what}`, `The document ${held}; at most ${thousands(max)} are converted.`);
}
