/**
 * Tables. A .doc has no table object: cells are paragraphs flagged in-table, each cell ends with a
 * cell mark (0x07; 0x0D + sprmPFInnerTableCell when nested) and each row with a row-end mark (TTP)
 * whose sprms define the row: cell boundaries (rgdxaCenter), merge flags, borders, shading, height.
 * The assembler collects cells into rows and rows into tables, nesting by depth (itap).
 */
import { borderShows, type Block, type Border, type Table, type TableCell, type TableRow } from '../../model/index';
import { i16, u16, u8 } from '../../../../codecs/binary';
import { brc, brc10, brc80, shd, shd80 } from './colors';
import { Op, opI16, opU16, opU8, type Sprm } from './sprm';
import { withoutEdgeAutoSpacing } from '../../model/auto-spacing';

interface TapCell {
  left: number;
  right: number;
  merged: boolean;
  firstMerged: boolean;
  vertMerge: boolean;
  vertRestart: boolean;
  vAlign: number;
  borders: TableCell['borders'];
  shading?: string;
  padding: { top?: number; left?: number; bottom?: number; right?: number };
}

export interface Tap {
  cells: TapCell[];
  jc: number;
  /** jc came from sprmTJc80, which names the physical side; sprmTJc names the logical one (start, end). */
  jcPhysical?: boolean;
  /** sprmTFBiDi: a right-to-left table, its first cell at the right. */
  bidi?: boolean;
  gapHalf: number;
  header: boolean;
  cantSplit: boolean;
  rowHeight: number;
  tableBorders: { top?: Border; left?: Border; bottom?: Border; right?: Border; insideH?: Border; insideV?: Border };
}

const SIDES = ['top', 'left', 'bottom', 'right'] as const;

export function readTap(sprms: Sprm[], word6: boolean): Tap {
  const tap: Tap = { cells: [], jc: 0, gapHalf: 0, header: false, cantSplit: false, rowHeight: 0, tableBorders: {} };
  const range = (s: Sprm) => tap.cells.slice(opU8(s, 0), Math.max(opU8(s, 0), opU8(s, 1)));
  for (const s of sprms) {
    const g = s.operand;
    switch (s.op) {
      case Op.TDefTable:
        tap.cells = defineCells(g, word6);
        break;
      case Op.TDxaGapHalf: {
        const gap = opI16(s);
        // Changing the gap moves the row's left edge so the text stays put.
        if (tap.cells[0]) tap.cells[0].left += tap.gapHalf - gap;
        tap.gapHalf = gap;
        break;
      }
      case Op.TDxaLeft: {
        const first = tap.cells[0];
        if (first) {
          const delta = opI16(s) - tap.gapHalf - first.left;
          for (const c of tap.cells) (c.left += delta), (c.right += delta);
        }
        break;
      }
      case Op.TJc80: tap.jc = opU16(s); tap.jcPhysical = true; break;
      case Op.TJc: tap.jc = opU16(s); tap.jcPhysical = false; break;
      case Op.TFBiDi: tap.bidi = opU16(s) !== 0; break;
      case Op.TTableHeader: tap.header = opU8(s) !== 0; break;
      case Op.TFCantSplit:
      case Op.TFCantSplit80: tap.cantSplit = opU8(s) !== 0; break;
      case Op.TDyaRowHeight: tap.rowHeight = opI16(s); break;
      case Op.TTableBorders80:
      case Op.TTableBorders: {
        const size = s.op === Op.TTableBorders ? 8 : 4;
        const names = ['top', 'left', 'bottom', 'right', 'insideH', 'insideV'] as const;
        names.forEach((n, k) => (tap.tableBorders[n] = size === 8 ? brc(g, k * 8) : brc80(g, k * 4)));
        break;
      }
      case Op.TDefTableShd80:
        tap.cells.forEach((c, i) => 2 * i + 2 <= g.length && (c.shading = shd80(u16(g, 2 * i))));
        break;
      case Op.TDefTableShd:
        tap.cells.forEach((c, i) => 10 * i + 10 <= g.length && (c.shading = shd(g, 10 * i)));
        break;
      case Op.TSetBrc80:
      case Op.TSetBrc: {
        const which = opU8(s, 2);
        const b = s.op === Op.TSetBrc ? brc(g, 3) : brc80(g, 3);
        for (const c of range(s)) SIDES.forEach((side, k) => which & (1 << k) && (c.borders[side] = b));
        break;
      }
      case Op.TVertMerge: {
        const c = tap.cells[opU8(s, 0)];
        const flag = opU8(s, 1);
        if (c) (c.vertMerge = flag !== 0), (c.vertRestart = flag === 3);
        break;
      }
      case Op.TVertAlign:
        for (const c of range(s)) c.vAlign = opU8(s, 2);
        break;
      case Op.TCellPaddingDefault:
      case 0xd632: {
        // CSSA: itcFirst, itcLim, sides, ftsWidth (3 = twips), width.
        const sides = opU8(s, 2);
        if (opU8(s, 3) !== 3) break;
        const w = opU16(s, 4);
        const cells = s.op === Op.TCellPaddingDefault ? tap.cells : range(s);
        for (const c of cells) SIDES.forEach((side, k) => sides & (1 << k) && (c.padding[side] = w));
        break;
      }
    }
  }
  return tap;
}

/** sprmTDefTable: the cell boundaries (rgdxaCenter), then each cell's TC80 (merge flags, alignment, borders). */
function defineCells(g: Uint8Array, word6: boolean): TapCell[] {
  const itcMac = u8(g, 0);
  const centers: number[] = [];
  for (let i = 0; i <= itcMac; i++) centers.push(2 * i + 3 <= g.length ? i16(g, 1 + 2 * i) : (centers[i - 1] ?? 0));
  const tcStart = 1 + 2 * (itcMac + 1);
  const cbTc = word6 ? 10 : 20;
  const cells: TapCell[] = [];
  for (let i = 0; i < itcMac; i++) {
    const o = tcStart + cbTc * i;
    const has = o + cbTc <= g.length;
    const grf = has ? u16(g, o) : 0;
    const borders: TableCell['borders'] = {};
    if (has) {
      SIDES.forEach((side, k) => {
        const b = word6 ? brc10(u16(g, o + 2 + 2 * k)) : brc80(g, o + 4 + 4 * k);
        if (b) borders[side] = b;
      });
    }
    cells.push({
      left: centers[i]!, right: centers[i + 1]!, firstMerged: (grf & 1) !== 0, merged: (grf & 2) !== 0,
      vertMerge: !word6 && (grf & 0x20) !== 0, vertRestart: !word6 && (grf & 0x40) !== 0,
      vAlign: word6 ? 0 : (grf >> 7) & 3, borders, padding: {},
    });
  }
  return cells;
}

interface RowDraft {
  cells: Block[][];
  tap: Tap;
}

/** Turns a run of rows (cell contents + row definition) into a model Table on a shared grid. */
export function buildTable(rows: RowDraft[]): Table {
  // Horizontally merged (old-style) cells fold into the cell they continue.
  const merged = rows.map((r) => {
    const cells: { tc: TapCell; blocks: Block[] }[] = [];
    r.tap.cells.forEach((tc, i) => {
      const blocks = r.cells[i] ?? [];
      const prev = cells[cells.length - 1];
      if (tc.merged && !tc.firstMerged && prev) {
        prev.tc = { ...prev.tc, right: tc.right };
        prev.blocks.push(...blocks.filter((b) => b.kind !== 'paragraph' || b.inlines.length));
      } else cells.push({ tc: { ...tc }, blocks: [...blocks] });
    });
    // Content cells without a definition (a damaged TAP) still show.
    for (let i = r.tap.cells.length; i < r.cells.length; i++) {
      const last = cells[cells.length - 1]?.tc;
      const left = last?.right ?? 0;
      cells.push({ tc: { left, right: left + 1440, merged: false, firstMerged: false, vertMerge: false, vertRestart: false, vAlign: 0, borders: {}, padding: {} }, blocks: r.cells[i]! });
    }
    return { tap: r.tap, cells };
  });
  const bounds = [...new Set(merged.flatMap((r) => r.cells.flatMap((c) => [c.tc.left, c.tc.right])))].sort((a, b) => a - b);
  const col = (x: number) => bounds.indexOf(x);
  const grid = bounds.slice(1).map((b, i) => Math.max(0, (b - bounds[i]!) / 20));
  const tableRows: TableRow[] = merged.map((r, ri) => {
    const row: TableRow = { cells: [] };
    const first = r.cells[0];
    if (first && col(first.tc.left) > 0) row.gridBefore = col(first.tc.left);
    const tb = r.tap.tableBorders;
    r.cells.forEach((c, ci) => {
      const tc = c.tc;
      const borders: TableCell['borders'] = {};
      const fallback = {
        top: ri === 0 ? tb.top : tb.insideH,
        bottom: ri === merged.length - 1 ? tb.bottom : tb.insideH,
        left: ci === 0 ? tb.left : tb.insideV,
        right: ci === r.cells.length - 1 ? tb.right : tb.insideV,
      };
      for (const side of SIDES) {
        const b = tc.borders[side] ?? fallback[side];
        if (borderShows(b)) borders[side] = b;
      }
      withoutEdgeAutoSpacing(c.blocks, true, true);
      const cell: TableCell = {
        blocks: c.blocks.length ? c.blocks : [{ kind: 'paragraph', props: {}, inlines: [] }],
        gridSpan: Math.max(1, col(tc.right) - col(tc.left)),
        borders,
        width: (tc.right - tc.left) / 20,
      };
      if (tc.vertMerge) cell.vMerge = tc.vertRestart ? 'restart' : 'continue';
      if (tc.shading) cell.shading = tc.shading;
      if (tc.vAlign === 1) cell.vAlign = 'center';
      else if (tc.vAlign === 2) cell.vAlign = 'bottom';
      const gap = r.tap.gapHalf;
      cell.margins = {
        top: (tc.padding.top ?? 0) / 20, bottom: (tc.padding.bottom ?? 0) / 20,
        left: (tc.padding.left ?? gap) / 20, right: (tc.padding.right ?? gap) / 20,
      };
      row.cells.push(cell);
    });
    if (r.tap.header) row.header = true;
    if (r.tap.cantSplit) row.cantSplit = true;
    if (r.tap.rowHeight > 0) row.height = { rule: 'atLeast', value: r.tap.rowHeight / 20 };
    else if (r.tap.rowHeight < 0) row.height = { rule: 'exact', value: -r.tap.rowHeight / 20 };
    return row;
  });
  const table: Table = { kind: 'table', grid, rows: tableRows };
  const tap = merged[0]?.tap;
  let jc = tap?.jc ?? 0;
  if (tap?.bidi) {
    // Its cell positions run from its right edge, in logical order: the layout mirrors them.
    table.bidiVisual = true;
    // The model's alignment of a right-to-left table is logical: physical right is its start.
    if (tap.jcPhysical && jc !== 1) jc = jc === 2 ? 0 : 2;
  }
  if (jc === 1) table.align = 'center';
  else if (jc === 2) table.align = 'right';
  if (bounds[0]) table.indent = bounds[0] / 20;
  return table;
}

interface Level {
  rows: RowDraft[];
  cells: Block[][];
  current: Block[];
}

/**
 * Receives a story's paragraphs in order with their table depth and places them: depth 0 into the
 * story's blocks, depth n into the current cell of the n-th nested table.
 */
export class TableAssembler {
  private readonly stack: Level[] = [];

  constructor(private readonly root: Block[]) {}

  private container(): Block[] {
    return this.stack.length ? this.stack[this.stack.length - 1]!.current : this.root;
  }

  private setDepth(depth: number): void {
    while (this.stack.length > depth) this.closeTable();
    while (this.stack.length < depth) this.stack.push({ rows: [], cells: [], current: [] });
  }

  private closeTable(): void {
    const level = this.stack.pop()!;
    // Cells after the last row mark (a damaged or truncated table) become a row of their own.
    if (level.current.length) level.cells.push(level.current);
    // In-table paragraphs with no row mark at all define no table (o_kurs.doc's title-page sample):
    // Word and LibreOffice lay them out as plain paragraphs the width of the text.
    if (!level.rows.length) {
      this.container().push(...level.cells.flat());
      return;
    }
    if (level.cells.length) level.rows.push({ cells: level.cells, tap: readTap([], false) });
    if (level.rows.length) this.container().push(buildTable(level.rows));
  }

  paragraph(depth: number, block: Block, endsCell: boolean): void {
    this.setDepth(depth);
    this.container().push(block);
    if (endsCell && this.stack.length) {
      const level = this.stack[this.stack.length - 1]!;
      level.cells.push(level.current);
      level.current = [];
    }
  }

  endRow(depth: number, tap: Tap): void {
    this.setDepth(Math.max(depth, 1));
    const level = this.stack[this.stack.length - 1]!;
    if (level.current.length) (level.cells.push(level.current), (level.current = []));
    level.rows.push({ cells: level.cells, tap });
    level.cells = [];
  }

  finish(): void {
    this.setDepth(0);
  }
}
