/**
 * A worksheet's <sheetData>, read row by row as the XML parser hands each <row> over (the tree
 * never holds the whole sheet): every cell's cached value and style, the rows' heights and
 * visibility. References and counts are bounded before anything is stored.
 */
import { attr, child, children, textOf, type XmlElement } from '../../../../codecs/xml';
import { LimitExceeded } from '../../../../lib/limits';
import type { Cell, CellValue, Range } from '../../model';
import { PackedRows } from '../packed-rows';

/** Excel's grid: 1,048,576 rows by 16,384 columns. */
export const MAX_ROWS = 1_048_576;
export const MAX_COLS = 16_384;
/** Cells with a value or a style one sheet may hold here (each costs about 100 bytes). */
export const SHEET_CELLS_MAX = 1_000_000;

/** "AB12" → 0-based row and column; undefined when it is not a cell reference within the grid. */
export function cellRef(ref: string): { row: number; col: number } | undefined {
  const m = /^\$?([A-Za-z]{1,3})\$?(\d{1,7})$/.exec(ref);
  if (!m) return undefined;
  let col = 0;
  for (const ch of m[1]!.toUpperCase()) col = col * 26 + (ch.charCodeAt(0) - 64);
  const row = Number(m[2]);
  if (col < 1 || col > MAX_COLS || row < 1 || row > MAX_ROWS) return undefined;
  return { row: row - 1, col: col - 1 };
}

/** "A1:C3" (or "A1") → a range; undefined when unreadable. */
export function rangeRef(ref: string): Range | undefined {
  const [a, b = a] = ref.split(':');
  const from = cellRef(a ?? '');
  const to = cellRef(b ?? '');
  if (!from || !to) return undefined;
  return { top: Math.min(from.row, to.row), left: Math.min(from.col, to.col), bottom: Math.max(from.row, to.row), right: Math.max(from.col, to.col) };
}

/** The text of an inline or shared string item (<is>/<si>): its <t>, or its rich runs' <t>s joined. */
export function stringItem(el: XmlElement | undefined): string {
  const t = child(el, 't');
  if (t) return textOf(t);
  return children(el, 'r').map((r) => textOf(child(r, 't'))).join('');
}

function valueOf(c: XmlElement, strings: readonly string[]): CellValue | undefined {
  const type = attr(c, 't') ?? 'n';
  if (type === 'inlineStr') return { kind: 'text', value: stringItem(child(c, 'is')) };
  const v = child(c, 'v');
  if (!v) return undefined; // a formula with no cached value prints empty
  const raw = textOf(v);
  switch (type) {
    case 's': {
      const s = strings[Number(raw)];
      return s === undefined ? undefined : { kind: 'text', value: s };
    }
    case 'str':
      return { kind: 'text', value: raw };
    case 'b':
      return { kind: 'bool', value: raw === '1' || raw === 'true' };
    case 'e':
      return { kind: 'error', value: raw };
    case 'd': {
      // An ISO date: as a serial day number (the 1900 system), which number formats print.
      const ms = Date.parse(raw);
      return Number.isFinite(ms) ? { kind: 'number', value: ms / 86_400_000 + 25_569 } : { kind: 'text', value: raw };
    }
    default: {
      const n = Number(raw);
      return raw.trim() !== '' && Number.isFinite(n) ? { kind: 'number', value: n } : undefined;
    }
  }
}

/** What rows hand over as they are read. */
export interface SheetCells {
  rows: PackedRows;
  rowHeights: Map<number, number>;
  hiddenRows: Set<number>;
  used?: Range;
  rowStyles: Map<number, number>;
}

/** A reader of one sheet's rows, fed each <row> as it completes (next: the row number its row follows). */
export class RowReader {
  readonly out: SheetCells = { rows: new PackedRows(), rowHeights: new Map(), hiddenRows: new Set(), rowStyles: new Map() };
  private count = 0;
  private nextRow = 0;

  constructor(
    private readonly strings: readonly string[],
    private readonly styleCount: number,
    private readonly sheetName: string,
  ) {}

  row(el: XmlElement): void {
    const r = Number(attr(el, 'r') ?? this.nextRow + 1) - 1;
    if (!Number.isInteger(r) || r < 0 || r >= MAX_ROWS) return;
    this.nextRow = r + 1;
    const ht = Number(attr(el, 'ht'));
    if (ht >= 0 && ht < 410 && attr(el, 'ht') !== undefined) this.out.rowHeights.set(r, ht);
    if (attr(el, 'hidden') === '1' || attr(el, 'hidden') === 'true') this.out.hiddenRows.add(r);
    const formatted = attr(el, 'customFormat') === '1' || attr(el, 'customFormat') === 'true';
    const rowStyle = formatted ? Number(attr(el, 's') ?? 0) : 0;
    if (formatted) this.out.rowStyles.set(r, Number.isInteger(rowStyle) && rowStyle >= 0 && rowStyle < this.styleCount ? rowStyle : 0);
    const cells: Cell[] = [];
    let nextCol = 0;
    for (const c of children(el, 'c')) {
      const at = attr(c, 'r') ? cellRef(attr(c, 'r')!) : { row: r, col: nextCol };
      if (!at) continue;
      nextCol = at.col + 1;
      const value = valueOf(c, this.strings);
      const s = Number(attr(c, 's') ?? rowStyle);
      const style = Number.isInteger(s) && s >= 0 && s < this.styleCount ? s : 0;
      if (!value && style === 0) continue;
      if (++this.count > SHEET_CELLS_MAX) throw new LimitExceeded('sheet_cells', `the sheet "${this.sheetName}" holds more than ${SHEET_CELLS_MAX.toLocaleString('en')} cells; at most ${SHEET_CELLS_MAX.toLocaleString('en')} are printed per sheet`);
      cells.push(value ? { row: r, col: at.col, value, style } : { row: r, col: at.col, style });
      this.grow(r, at.col);
    }
    if (cells.length) this.out.rows.set(r, cells.sort((a, b) => a.col - b.col));
  }

  private grow(row: number, col: number): void {
    const u = this.out.used;
    if (!u) this.out.used = { top: row, left: col, bottom: row, right: col };
    else {
      u.top = Math.min(u.top, row);
      u.left = Math.min(u.left, col);
      u.bottom = Math.max(u.bottom, row);
      u.right = Math.max(u.right, col);
    }
  }
}
