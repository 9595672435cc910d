/**
 * One table:table of content.xml, read as the XML parser hands over each of its children (columns,
 * rows, and the groups and header blocks that wrap them), so a long sheet is never one tree. ODF
 * compresses equal neighbours with number-columns-repeated and number-rows-repeated, and
 * LibreOffice pads every table to the whole grid that way (a last row repeated a million times, a
 * last cell 16,000 times): repeats are clamped to Excel's grid, only cells with a value or a style
 * of their own are kept, and empty styled runs reaching the grid's far edge are the row's or
 * column's formatting (as Excel's row and column styles, which the XLSX reader does not keep
 * either), not cells. Counts are checked before cells are made.
 */
import { attr, type XmlElement } from '../../../../codecs/xml';
import { LimitExceeded } from '../../../../lib/limits';
import type { Cell, CellValue, Range } from '../../model';
import { MAX_COLS, MAX_ROWS, SHEET_CELLS_MAX } from '../xlsx/cells';
import { DRAWINGS_MAX, type FrameAt } from './drawings';
import { SHAPE_ELEMENTS } from '../../../office/odf/shapes';
import type { AnnotationAt } from './annotations';
import { NOTES_MAX } from '../note-drawings';

/** The elements of a cell or of table:shapes that draw: frames (pictures, charts, text boxes) and shapes. */
const DRAWN = new Set(['frame', ...SHAPE_ELEMENTS]);
import { CELL_TEXT_MAX, paragraphText } from './styles';

/** Merged ranges one sheet may hold (as the XLSX reader keeps). */
const MERGES_MAX = 100_000;

/** Cell style names as provisional ids: content.xml's automatic styles are resolved once it is read. */
export class StyleNames {
  readonly names: (string | undefined)[] = [undefined];
  private readonly ids = new Map<string, number>();

  id(name: string | undefined): number {
    if (name === undefined) return 0;
    let id = this.ids.get(name);
    if (id === undefined) this.ids.set(name, (id = this.names.push(name) - 1));
    return id;
  }
}

/** A run of equal rows or columns: its extent, visibility and style (whose size and breaks are read once the styles are). */
export interface Run {
  first: number;
  count: number;
  style?: string;
  hidden: boolean;
}

const DAY_MS = 86_400_000;

/** "PT06H09M23S", "P1DT2H", "-PT1H" as a fraction of a day. */
export function durationDays(value: string): number | undefined {
  const m = /^(-)?P(?:(\d+(?:\.\d+)?)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$/.exec(value.trim());
  if (!m || value.trim() === 'P' || value.trim() === 'PT') return undefined;
  const [d, h, min, s] = [m[2], m[3], m[4], m[5]].map((x) => Number(x ?? 0)) as [number, number, number, number];
  const days = d + h / 24 + min / 1440 + s / 86_400;
  return Number.isFinite(days) ? (m[1] ? -days : days) : undefined;
}

/**
 * "2007-04-09" or "2007-04-09T12:30:00.5" as a serial day number from the null date. Before
 * 1 March 1900 one day less: Excel's serials (which the formatter counts) pass through a 29
 * February 1900 that never was.
 */
export function dateSerial(value: string, nullDate: number, date1904: boolean): number | undefined {
  const m = /^(-?\d{4,6})-(\d\d)-(\d\d)(?:T(\d\d):(\d\d)(?::(\d\d(?:\.\d+)?))?)?/.exec(value.trim());
  if (!m) return undefined;
  const day = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  const serial = (day - nullDate) / DAY_MS + (Number(m[4] ?? 0) * 3600 + Number(m[5] ?? 0) * 60 + Number(m[6] ?? 0)) / 86_400;
  if (!Number.isFinite(serial)) return undefined;
  return !date1904 && serial < 61 && serial >= 1 ? serial - 1 : serial;
}

/** The dates' base: table:null-date, LibreOffice's 1899-12-30 unless it says 1904-01-01. */
export interface NullDate {
  ms: number;
  date1904: boolean;
}
export const NULL_DATE_1899: NullDate = { ms: Date.UTC(1899, 11, 30), date1904: false };

function textValue(cell: XmlElement): string | undefined {
  const paragraphs = cell.children.filter((c): c is XmlElement => typeof c !== 'string' && (c.name === 'p' || c.name === 'h'));
  if (paragraphs.length) return paragraphs.map((p) => paragraphText(p)).join('\n').slice(0, CELL_TEXT_MAX);
  return attr(cell, 'string-value');
}

/** A cell's value by office:value-type (read after calcext:value-type, which LibreOffice writes last and which alone says "error"). */
export function cellValue(cell: XmlElement, nullDate: NullDate): CellValue | undefined {
  const type = attr(cell, 'value-type');
  const number = (raw: string | undefined): CellValue | undefined => {
    const n = Number(raw);
    return raw !== undefined && raw.trim() !== '' && Number.isFinite(n) ? { kind: 'number', value: n } : undefined;
  };
  switch (type) {
    case 'float': {
      const n = number(attr(cell, 'value'));
      // A formula's TRUE or FALSE cached as 1 or 0 in a General cell, which LibreOffice shows by the result's type.
      if (n && (n.value === 0 || n.value === 1) && attr(cell, 'formula') && /^\p{L}+$/u.test(textValue(cell) ?? '')) return { kind: 'bool', value: n.value === 1 };
      return n;
    }
    case 'percentage':
    case 'currency':
      return number(attr(cell, 'value'));
    case 'date': {
      const serial = dateSerial(attr(cell, 'date-value') ?? '', nullDate.ms, nullDate.date1904);
      return serial === undefined ? number(attr(cell, 'value')) : { kind: 'number', value: serial };
    }
    case 'time': {
      const days = durationDays(attr(cell, 'time-value') ?? '');
      return days === undefined ? number(attr(cell, 'value')) : { kind: 'number', value: days };
    }
    case 'boolean': {
      const b = attr(cell, 'boolean-value') ?? attr(cell, 'value');
      return b === undefined ? undefined : { kind: 'bool', value: b === 'true' || b === '1' };
    }
    case 'error':
      return { kind: 'error', value: textValue(cell) ?? '#VALUE!' };
    case 'string':
      // office:string-value is the text itself where the paragraphs show it formatted ("Total: " @ shows "Total: txt").
      return { kind: 'text', value: attr(cell, 'string-value') ?? textValue(cell) ?? '' };
    default: {
      // No value type: empty, unless a writer left text in it anyway; a formula's empty result is an
      // empty text, which (as in Excel) stops the text of the cell before from running over it.
      const text = textValue(cell);
      return text ? { kind: 'text', value: text } : attr(cell, 'formula') !== undefined ? { kind: 'text', value: '' } : undefined;
    }
  }
}

const count = (el: XmlElement, name: string) => {
  const n = Number(attr(el, name) ?? 1);
  return Number.isInteger(n) && n >= 1 ? n : 1;
};
const hiddenOf = (el: XmlElement) => attr(el, 'visibility') === 'collapse' || attr(el, 'visibility') === 'filter';

/** A cell of a row's template: the same for every row the row element repeats. */
interface TemplateCell {
  col: number;
  value?: CellValue;
  style: number;
}

/** A table's cells, runs of rows and columns, merges, breaks and header blocks as they are read. */
export class TableReader {
  readonly rows = new Map<number, Cell[]>();
  readonly rowRuns: Run[] = [];
  readonly colRuns: Run[] = [];
  readonly merges: Range[] = [];
  titleRows?: { first: number; last: number };
  titleCols?: { first: number; last: number };
  used?: Range;
  /** Pictures and charts: anchored in cells, or to the page (table:shapes). */
  readonly frames: FrameAt[] = [];
  /** Cell comments (annotations.ts), at most NOTES_MAX. */
  readonly annotations: AnnotationAt[] = [];
  /** calcext:conditional-formats, read once the styles are. */
  readonly conditional: XmlElement[] = [];
  private readonly colDefaults: { first: number; last: number; style: string; id: number }[] = [];
  private row = 0;
  private col = 0;
  private cells = 0;

  constructor(
    readonly table: XmlElement,
    private readonly styles: StyleNames,
    private readonly nullDate: NullDate,
  ) {}

  get name(): string {
    return attr(this.table, 'name') ?? 'Sheet';
  }

  /** One child of the table, as the parser hands it over. */
  element(el: XmlElement): void {
    switch (el.name) {
      case 'table-column':
        return this.column(el);
      case 'table-row':
        return this.tableRow(el);
      case 'table-header-columns':
      case 'table-header-rows': {
        const rows = el.name === 'table-header-rows';
        const first = rows ? this.row : this.col;
        this.group(el);
        const last = (rows ? this.row : this.col) - 1;
        if (last >= first) this[rows ? 'titleRows' : 'titleCols'] = { first, last };
        return;
      }
      case 'conditional-formats':
        this.conditional.push(el);
        return;
      case 'shapes':
        for (const c of el.children) if (typeof c !== 'string' && DRAWN.has(c.name) && this.frames.length < DRAWINGS_MAX) this.frames.push({ el: c });
        return;
      case 'table-column-group':
      case 'table-columns':
      case 'table-row-group':
      case 'table-rows':
        return this.group(el);
    }
  }

  private group(el: XmlElement): void {
    for (const c of el.children) if (typeof c !== 'string') this.element(c);
  }

  private column(el: XmlElement): void {
    if (this.col >= MAX_COLS) return;
    const repeat = Math.min(count(el, 'number-columns-repeated'), MAX_COLS - this.col);
    this.colRuns.push({ first: this.col, count: repeat, style: attr(el, 'style-name'), hidden: hiddenOf(el) });
    const style = attr(el, 'default-cell-style-name');
    // Named now, so that the remap of cell styles covers it (columnStyles).
    if (style && style !== 'Default') this.colDefaults.push({ first: this.col, last: this.col + repeat - 1, style, id: this.styles.id(style) });
    this.col += repeat;
  }

  /** The columns' default cell styles (name ids, as cells' before the remap), for the cells a row does not write. */
  columnStyles(remap: readonly number[]): Map<number, number> {
    const out = new Map<number, number>();
    for (const { first, last, id: named } of this.colDefaults) {
      const id = remap[named] ?? 0;
      if (id > 0) for (let c = first; c <= last; c++) out.set(c, id);
    }
    return out;
  }

  /** The column's default cell style, for cells that name none. */
  private columnStyle(col: number): string | undefined {
    const d = this.colDefaults;
    let [lo, hi] = [0, d.length - 1];
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (d[mid]!.last < col) lo = mid + 1;
      else if (d[mid]!.first > col) hi = mid - 1;
      else return d[mid]!.style;
    }
    return undefined;
  }

  private tableRow(el: XmlElement): void {
    if (this.row >= MAX_ROWS) return;
    const repeat = Math.min(count(el, 'number-rows-repeated'), MAX_ROWS - this.row);
    this.rowRuns.push({ first: this.row, count: repeat, style: attr(el, 'style-name'), hidden: hiddenOf(el) });
    const template = this.template(el, repeat);
    // An empty styled row repeated to the grid's foot is column formatting, not cells.
    const formatting = repeat > 1 && this.row + repeat >= MAX_ROWS && template.every((c) => !c.value);
    if (template.length && !formatting) this.addRows(template, repeat);
    this.row += repeat;
  }

  /** A row element's cells with their columns, values and style ids; its merges added for every row it repeats. */
  private template(el: XmlElement, rowRepeat: number): TemplateCell[] {
    const out: TemplateCell[] = [];
    const rowStyle = attr(el, 'default-cell-style-name');
    let col = 0;
    for (const c of el.children) {
      if (typeof c === 'string' || (c.name !== 'table-cell' && c.name !== 'covered-table-cell')) continue;
      if (col >= MAX_COLS) break;
      const repeat = Math.min(count(c, 'number-columns-repeated'), MAX_COLS - col);
      const own = attr(c, 'style-name');
      const value = c.name === 'covered-table-cell' ? undefined : cellValue(c, this.nullDate);
      // Covered cells keep their styles (a merge prints each cell's own borders) but not their values.
      const styled = own !== undefined && own !== 'Default' && !(repeat > 1 && col + repeat >= MAX_COLS);
      if (value || styled) {
        if (out.length + repeat > SHEET_CELLS_MAX) this.tooMany();
        for (let k = 0; k < repeat; k++) out.push({ col: col + k, ...(value ? { value } : {}), style: this.styles.id(own ?? rowStyle ?? this.columnStyle(col + k)) });
      }
      if (c.name === 'table-cell') this.merge(c, col, repeat, rowRepeat);
      // A repeated cell's or row's frame is written once, in its first cell.
      for (const f of c.children) {
        if (typeof f === 'string') continue;
        if (DRAWN.has(f.name) && this.frames.length < DRAWINGS_MAX) this.frames.push({ el: f, row: this.row, col });
        else if (f.name === 'annotation' && this.annotations.length < NOTES_MAX) this.annotations.push({ el: f, row: this.row, col });
      }
      col += repeat;
    }
    return out;
  }

  private merge(c: XmlElement, col: number, repeat: number, rowRepeat: number): void {
    const cols = Math.min(count(c, 'number-columns-spanned'), MAX_COLS - col);
    const rows = Math.min(count(c, 'number-rows-spanned'), MAX_ROWS - this.row);
    if (cols === 1 && rows === 1) return;
    for (let r = 0; r < rowRepeat && this.merges.length < MERGES_MAX; r++) {
      for (let k = 0; k < repeat && this.merges.length < MERGES_MAX; k++) {
        const top = this.row + r;
        const left = col + k;
        this.merges.push({ top, left, bottom: Math.min(top + rows - 1, MAX_ROWS - 1), right: Math.min(left + cols - 1, MAX_COLS - 1) });
      }
    }
  }

  private addRows(template: TemplateCell[], repeat: number): void {
    if (this.cells + template.length * repeat > SHEET_CELLS_MAX) this.tooMany();
    this.cells += template.length * repeat;
    for (let r = this.row; r < this.row + repeat; r++) {
      this.rows.set(r, template.map((t): Cell => (t.value ? { row: r, col: t.col, value: t.value, style: t.style } : { row: r, col: t.col, style: t.style })));
    }
    const [left, right] = [template[0]!.col, template[template.length - 1]!.col];
    const bottom = this.row + repeat - 1;
    const u = this.used;
    this.used = u ? { top: Math.min(u.top, this.row), left: Math.min(u.left, left), bottom: Math.max(u.bottom, bottom), right: Math.max(u.right, right) } : { top: this.row, left, bottom, right };
  }

  private tooMany(): never {
    throw new LimitExceeded('sheet_cells', `the sheet "${this.name}" holds more than ${SHEET_CELLS_MAX.toLocaleString('en')} cells; at most ${SHEET_CELLS_MAX.toLocaleString('en')} are printed per sheet`);
  }
}
