/**
 * A sheet's cells packed into typed arrays, read as the model's map of rows (Sheet.rows): each row
 * handed over as it is read is packed at once (column, style, kind, number or text), and each
 * row asked for is made into cells again, for as long as the caller holds it. As objects, a
 * million cells took 190 MB of heap; packed, about 20 MB and the text cells' strings (shared
 * strings are the workbook's own, referenced, not copied), so a 100,000-row sheet stays within
 * an isolate's 128 MB.
 */
import type { Cell, CellValue } from '../model';

const KIND = { none: 0, number: 1, text: 2, bool: 3, error: 4 } as const;

/** Growable storage: doubled when full, so appending is amortised constant time. */
function grown<T extends Uint16Array | Uint32Array | Uint8Array | Float64Array | Int32Array>(array: T, needed: number, make: (n: number) => T): T {
  if (needed <= array.length) return array;
  const bigger = make(Math.max(needed, array.length * 2));
  bigger.set(array);
  return bigger;
}

/**
 * A string that holds only its own characters. Text read from XML is a slice of the whole decoded
 * part, and a slice keeps its parent alive: 400,000 short cells kept a sheet's 60 MB of XML. A
 * concatenation is flattened into a string of its own when sliced.
 */
export const ownCopy = (s: string): string => (s.length < 13 ? s : (' ' + s).slice(1));

export class PackedRows implements ReadonlyMap<number, Cell[]> {
  private cols = new Uint16Array(1024);
  private styles = new Uint32Array(1024);
  private kinds = new Uint8Array(1024);
  /** A number cell's value, a bool's 0/1, a text or error cell's index into `texts`. */
  private numbers = new Float64Array(1024);
  private readonly texts: string[] = [];
  private count = 0;
  /** Row number → [first cell, cell count]. */
  private readonly index = new Map<number, [number, number]>();

  /** A map of rows packed (readers that build their rows first, then hand them over). */
  static from(rows: ReadonlyMap<number, Cell[]>): PackedRows {
    const packed = new PackedRows();
    for (const row of [...rows.keys()].sort((a, b) => a - b)) packed.set(row, rows.get(row)!);
    return packed;
  }

  /** Packs a row's cells (in column order); a row set again replaces the first. */
  set(row: number, cells: readonly Cell[]): this {
    const start = this.count;
    const end = start + cells.length;
    this.cols = grown(this.cols, end, (n) => new Uint16Array(n));
    this.styles = grown(this.styles, end, (n) => new Uint32Array(n));
    this.kinds = grown(this.kinds, end, (n) => new Uint8Array(n));
    this.numbers = grown(this.numbers, end, (n) => new Float64Array(n));
    cells.forEach((cell, i) => this.put(start + i, cell));
    this.count = end;
    this.index.set(row, [start, cells.length]);
    return this;
  }

  private put(at: number, cell: Cell): void {
    this.cols[at] = cell.col;
    this.styles[at] = cell.style;
    const v = cell.value;
    this.kinds[at] = v ? KIND[v.kind] : KIND.none;
    if (!v) return;
    if (v.kind === 'number') this.numbers[at] = v.value;
    else if (v.kind === 'bool') this.numbers[at] = v.value ? 1 : 0;
    else this.numbers[at] = this.texts.push(ownCopy(v.value)) - 1;
  }

  private valueAt(at: number): CellValue | undefined {
    const kind = this.kinds[at];
    const v = this.numbers[at]!;
    if (kind === KIND.number) return { kind: 'number', value: v };
    if (kind === KIND.text) return { kind: 'text', value: this.texts[v]! };
    if (kind === KIND.bool) return { kind: 'bool', value: v === 1 };
    if (kind === KIND.error) return { kind: 'error', value: this.texts[v]! };
    return undefined;
  }

  get(row: number): Cell[] | undefined {
    const slot = this.index.get(row);
    if (!slot) return undefined;
    const [start, length] = slot;
    const cells: Cell[] = [];
    for (let at = start; at < start + length; at++) {
      const value = this.valueAt(at);
      cells.push(value ? { row, col: this.cols[at]!, value, style: this.styles[at]! } : { row, col: this.cols[at]!, style: this.styles[at]! });
    }
    return cells;
  }

  has(row: number): boolean {
    return this.index.has(row);
  }

  get size(): number {
    return this.index.size;
  }

  keys(): MapIterator<number> {
    return this.index.keys();
  }

  *values(): MapIterator<Cell[]> {
    for (const row of this.index.keys()) yield this.get(row)!;
  }

  *entries(): MapIterator<[number, Cell[]]> {
    for (const row of this.index.keys()) yield [row, this.get(row)!];
  }

  [Symbol.iterator](): MapIterator<[number, Cell[]]> {
    return this.entries();
  }

  forEach(fn: (cells: Cell[], row: number, map: ReadonlyMap<number, Cell[]>) => void): void {
    for (const [row, cells] of this.entries()) fn(cells, row, this);
  }
}
