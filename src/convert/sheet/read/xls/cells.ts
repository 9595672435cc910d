/**
 * A worksheet's cell records: each cell's cached value and its XF, gathered by row as the XLSX
 * reader's RowReader gathers them. Formulas print their cached result (a string result comes in the
 * STRING record after the FORMULA); MULRK and MULBLANK runs stop at their data's end and at the
 * grid's edge, whatever their last column says; the cell count is bounded before anything is kept.
 */
import { u8, u16, u32 } from '../../../../codecs/binary';
import { LimitExceeded } from '../../../../lib/limits';
import { PackedRows } from '../packed-rows';
import type { Cell, CellValue, Range } from '../../model';
import { MAX_COLS, MAX_ROWS, SHEET_CELLS_MAX } from '../xlsx/cells';
import { f64, RT, type RecordCursor } from './records';
import { recordString, SegmentReader, type TextCodec } from './strings';

/** BIFF's error codes as the cell prints them. */
const ERRORS: Record<number, string> = { 0x00: '#NULL!', 0x07: '#DIV/0!', 0x0f: '#VALUE!', 0x17: '#REF!', 0x1d: '#NAME?', 0x24: '#NUM!', 0x2a: '#N/A', 0x2b: '#GETTING_DATA' };

const rkScratch = new DataView(new ArrayBuffer(8));

/** An RK number: a 30-bit integer or the top 30 bits of a double, either perhaps a hundredth of itself. */
export function rkNumber(rk: number): number {
  let v: number;
  if (rk & 0x02) v = rk >> 2; // a signed integer
  else {
    rkScratch.setUint32(0, 0, true);
    rkScratch.setUint32(4, rk & 0xfffffffc, true);
    v = rkScratch.getFloat64(0, true);
  }
  return rk & 0x01 ? v / 100 : v;
}

const boolOrError = (value: number, isError: boolean): CellValue =>
  isError ? { kind: 'error', value: ERRORS[value] ?? '#N/A' } : { kind: 'bool', value: value !== 0 };

/** The cached result of a FORMULA record: a value, 'string' when a STRING record follows with it, or undefined. */
function formulaResult(d: Uint8Array): CellValue | 'string' | undefined {
  if (u16(d, 12) !== 0xffff) return { kind: 'number', value: f64(d, 6) };
  switch (u8(d, 6)) {
    case 0:
      return 'string';
    case 1:
      return boolOrError(u8(d, 8), false);
    case 2:
      return boolOrError(u8(d, 8), true);
    case 3:
      return { kind: 'text', value: '' };
    default:
      return undefined;
  }
}

/** A sheet's cells, fed each cell record as the substream is read. */
export class CellGrid {
  readonly rows = new Map<number, Cell[]>();
  used?: Range;
  private count = 0;
  /** A FORMULA whose string result is in the STRING record to come. */
  private pending?: { row: number; col: number; xf: number };

  constructor(
    private readonly sheetName: string,
    private readonly strings: readonly string[],
    private readonly styleOfXf: Int32Array,
    private readonly codec: TextCodec,
  ) {}

  /** Reads the cursor's record if it is a cell record (true), else leaves it (false). */
  record(cursor: RecordCursor): boolean {
    const d = cursor.data;
    const type = cursor.type;
    if (type === RT.STRING) {
      const p = this.pending;
      this.pending = undefined;
      const text = new SegmentReader(cursor.withContinues()).string(2, this.codec);
      if (p) this.add(p.row, p.col, p.xf, { kind: 'text', value: text });
      return true;
    }
    if (!CELL_TYPES.has(type)) return false;
    this.flush();
    const row = u16(d, 0);
    const col = u16(d, 2);
    switch (type) {
      case RT.MULRK:
        return this.multiple(d, 6, (at) => ({ xf: u16(d, at), value: { kind: 'number', value: rkNumber(u32(d, at + 2)) } }));
      case RT.MULBLANK:
        return this.multiple(d, 2, (at) => ({ xf: u16(d, at) }));
      case RT.FORMULA: {
        const result = formulaResult(d);
        if (result === 'string') this.pending = { row, col, xf: u16(d, 4) };
        else this.add(row, col, u16(d, 4), result);
        return true;
      }
    }
    this.add(row, col, u16(d, 4), this.singleValue(type, d));
    return true;
  }

  private singleValue(type: number, d: Uint8Array): CellValue | undefined {
    switch (type) {
      case RT.NUMBER:
        return { kind: 'number', value: f64(d, 6) };
      case RT.RK:
        return { kind: 'number', value: rkNumber(u32(d, 6)) };
      case RT.LABELSST: {
        const s = this.strings[u32(d, 6)];
        return s === undefined ? undefined : { kind: 'text', value: s };
      }
      case RT.LABEL:
      case RT.RSTRING:
        return { kind: 'text', value: recordString(d, 6, 2, this.codec) };
      case RT.BOOLERR:
        return boolOrError(u8(d, 6), u8(d, 7) !== 0);
      default:
        return undefined; // BLANK: a styled empty cell
    }
  }

  /** MULRK and MULBLANK: a row's run of cells from a first column, `size` bytes each. */
  private multiple(d: Uint8Array, size: number, entry: (at: number) => { xf: number; value?: CellValue }): true {
    const row = u16(d, 0);
    const first = u16(d, 2);
    const last = d.length >= 6 ? u16(d, d.length - 2) : -1;
    const count = Math.max(0, Math.floor((d.length - 6) / size));
    for (let i = 0; i < count; i++) {
      const col = first + i;
      if (col > last || col >= MAX_COLS) break;
      const { xf, value } = entry(4 + i * size);
      this.add(row, col, xf, value);
    }
    return true;
  }

  private add(row: number, col: number, xf: number, value: CellValue | undefined): void {
    if (row >= MAX_ROWS || col >= MAX_COLS) return;
    const style = xf < this.styleOfXf.length ? this.styleOfXf[xf]! : 0;
    if (!value && style === 0) return;
    if (++this.count > SHEET_CELLS_MAX) throw new LimitExceeded('sheet_cells', `the sheet "${this.sheetName}" holds more than ${SHEET_CELLS_MAX.toLocaleString('en')} cells; at most ${SHEET_CELLS_MAX.toLocaleString('en')} are printed per sheet`);
    let cells = this.rows.get(row);
    if (!cells) this.rows.set(row, (cells = []));
    cells.push(value ? { row, col, value, style } : { row, col, style });
    this.grow(row, col);
  }

  /** A FORMULA whose STRING never came prints empty (with its style). */
  private flush(): void {
    const p = this.pending;
    this.pending = undefined;
    if (p) this.add(p.row, p.col, p.xf, undefined);
  }

  /** The rows, each in column order and packed (packed-rows.ts), once the substream is read. */
  finish(): PackedRows {
    this.flush();
    for (const cells of this.rows.values()) cells.sort((a, b) => a.col - b.col);
    return PackedRows.from(this.rows);
  }

  private grow(row: number, col: number): void {
    const u = this.used;
    if (!u) this.used = { top: row, left: col, bottom: row, right: col };
    else {
      u.top = Math.min(u.top, row);
      u.left = Math.min(u.left, col);
      u.bottom = Math.max(u.bottom, row);
      u.right = Math.max(u.right, col);
    }
  }
}

const CELL_TYPES = new Set<number>([RT.NUMBER, RT.RK, RT.MULRK, RT.LABELSST, RT.LABEL, RT.RSTRING, RT.BOOLERR, RT.BLANK, RT.MULBLANK, RT.FORMULA]);
