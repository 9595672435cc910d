/**
 * One worksheet substream, from its BOF to its EOF: the cell records (cells.ts), the page records
 * (print.ts), and what lies around them: rows' heights and visibility (ROW), columns' widths and
 * visibility (COLINFO), the default sizes, merges, the view's direction (WINDOW2) and whether the
 * sheet fits to pages (WSBOOL). An embedded chart's substream, nested inside, is stepped over.
 */
import { u16 } from '../../../../codecs/binary';
import type { Font, PrintSettings, Range, Sheet, SheetDrawing, SheetNote } from '../../model';
import type { ProblemSink } from '../../../problems';
import { MAX_COLS, MAX_ROWS } from '../xlsx/cells';
import { CellGrid } from './cells';
import { joinParts, RT_MSODRAWING, sheetDrawings, type BlipStore, type GridMeasure, type SheetDrawn } from './drawings';
import { objectParagraphs, RT_NOTE, RT_OBJ, RT_TXO, SheetObjects } from './objects';
import { noteDrawings, NOTES_MAX, SHOWN_NOTES_MAX } from '../note-drawings';
import { XLS_DEFAULT_FONT } from './styles';
import { PrintRecords } from './print';
import { BOF_WORKSHEET, RecordCursor, RT } from './records';
import type { TextCodec } from './strings';

/** What every sheet of the workbook reads with. */
export interface SheetContext {
  strings: readonly string[];
  styleOfXf: Int32Array;
  codec: TextCodec;
  /** The drawing group's pictures (BIFF8 with pictures). */
  blips?: BlipStore;
  problems?: ProblemSink;
  /** The workbook's default font size in points (the first FONT): DEFCOLWIDTH's padding depends on it. */
  defaultFontSize?: number;
  /** The workbook's FONT records by index (text boxes' runs name them). */
  fontAt?: (index: number) => Font;
}

/**
 * The default column's width in characters from DEFCOLWIDTH when no STANDARDWIDTH gives it, as
 * LibreOffice's XLS filter counts it: the base width plus Excel's padding for the default font's
 * height (XclTools::GetXclDefColWidthCorrection: 271/256 of a character at 10 pt).
 */
export function defColWidth(base: number, fontSize: number): number {
  const twips = fontSize * 20;
  return (base * 256 + Math.floor(40960 / Math.max(twips - 15, 60) + 50 + 0.5)) / 256;
}

/** At most this many merges per sheet (as the XLSX reader). */
const MERGES_MAX = 100_000;
/** BIFF's grid is 256 columns wide (IV): a COLINFO that runs on to 256, as some writers' do, stops at IV. */
const BIFF_LAST_COL = 255;
/** BIFF's default row height when DEFAULTROWHEIGHT is missing: 12.75 pt, Arial 10's row. */
const BIFF_ROW_HEIGHT = 12.75;

const WSBOOL_DIALOG = 0x0010;
const WSBOOL_FIT_TO_PAGE = 0x0100;
const ROW_HIDDEN = 0x0020;
const ROW_CUSTOM_HEIGHT = 0x0040;
const ROW_FORMATTED = 0x0080; // fGhostDirty: the row has a format of its own (its XF in the next field)
const WINDOW2_RIGHT_TO_LEFT = 0x0040;

/** The records of a sheet that are neither cells nor page settings. */
class SheetLayout {
  readonly colWidths = new Map<number, number>();
  readonly hiddenCols = new Set<number>();
  readonly hiddenRows = new Set<number>();
  readonly merges: Range[] = [];
  /** Every ROW's height and whether it was set by hand, sorted out against the default when the sheet ends. */
  readonly rowSizes = new Map<number, { height: number; custom: boolean }>();
  /** The XF of a formatted row's (fGhostDirty) and a column's cells that are not written. */
  readonly rowXfs = new Map<number, number>();
  readonly colXfs = new Map<number, number>();
  defaultColWidth?: number;
  baseColWidth = 8;
  defaultRowHeight = BIFF_ROW_HEIGHT;
  rightToLeft = false;
  wsBool = 0;
  /** COLINFO ranges should not overlap, so 256 columns are set per sheet: the work on a file of overlapping ones stops at MAX_COLS. */
  private columnBudget = MAX_COLS;

  record(type: number, d: Uint8Array): void {
    switch (type) {
      case RT.ROW:
        return this.row(d);
      case RT.COLINFO:
        return this.columns(d);
      case RT.DEFCOLWIDTH: {
        const w = u16(d, 0);
        if (w > 0 && w <= 255) this.baseColWidth = w;
        return;
      }
      case RT.STANDARDWIDTH: {
        const w = u16(d, 0) / 256;
        if (w > 0 && w <= 255) this.defaultColWidth = w;
        return;
      }
      case RT.DEFAULTROWHEIGHT: {
        const h = u16(d, 2) / 20;
        if (h > 0 && h < 410) this.defaultRowHeight = h;
        return;
      }
      case RT.MERGEDCELLS:
        return this.mergedCells(d);
      case RT.WINDOW2:
        this.rightToLeft = (u16(d, 0) & WINDOW2_RIGHT_TO_LEFT) !== 0;
        return;
      case RT.WSBOOL:
        this.wsBool = u16(d, 0);
        return;
    }
  }

  /** ROW: its height in twips (the original one when hidden), and flags for hidden and set by hand. */
  private row(d: Uint8Array): void {
    const r = u16(d, 0);
    const height = (u16(d, 6) & 0x7fff) / 20;
    const flags = u16(d, 12);
    if (r >= MAX_ROWS) return;
    if (flags & ROW_HIDDEN) this.hiddenRows.add(r);
    if (height > 0 && height < 410) this.rowSizes.set(r, { height, custom: (flags & ROW_CUSTOM_HEIGHT) !== 0 });
    if (flags & ROW_FORMATTED && d.length >= 16) this.rowXfs.set(r, u16(d, 14) & 0x0fff);
  }

  /** COLINFO: a run of columns' width (1/256 of a character, as XLSX's width) and visibility. */
  private columns(d: Uint8Array): void {
    const first = u16(d, 0);
    const last = Math.min(u16(d, 2), BIFF_LAST_COL);
    const width = u16(d, 4) / 256;
    const hidden = (u16(d, 8) & 0x0001) !== 0;
    const xf = u16(d, 6);
    for (let c = first; c <= last && this.columnBudget > 0; c++, this.columnBudget--) {
      if (width <= 255) this.colWidths.set(c, width);
      if (hidden) this.hiddenCols.add(c);
      this.colXfs.set(c, xf);
    }
  }

  /** MERGEDCELLS: a count, then each merge's first and last row and column. */
  private mergedCells(d: Uint8Array): void {
    const count = Math.min(u16(d, 0), Math.floor((d.length - 2) / 8));
    for (let i = 0; i < count && this.merges.length < MERGES_MAX; i++) {
      const at = 2 + 8 * i;
      const [top, bottom, left, right] = [u16(d, at), u16(d, at + 2), u16(d, at + 4), u16(d, at + 6)];
      if (top <= bottom && left <= right && bottom < MAX_ROWS && right < MAX_COLS) this.merges.push({ top, bottom, left, right });
    }
  }

  /**
   * The grid's sizes in points as a drawing's anchor offsets are counted (drawings.ts): a column's
   * characters at 7 pixels of 0.75 pt (the default width as Excel pads a base width: 5 pixels,
   * rounded up to 8), a row's height as stored; hidden ones 0.
   */
  gridMeasure(): GridMeasure {
    const baseWidth = Math.ceil((this.baseColWidth * 7 + 5) / 8) * 8 * 0.75;
    const defaultWidth = this.defaultColWidth !== undefined ? this.defaultColWidth * 7 * 0.75 : baseWidth;
    return {
      colWidth: (c) => (this.hiddenCols.has(c) ? 0 : ((w) => (w === undefined ? defaultWidth : w * 7 * 0.75))(this.colWidths.get(c))),
      rowHeight: (r) => (this.hiddenRows.has(r) ? 0 : (this.rowSizes.get(r)?.height ?? this.defaultRowHeight)),
    };
  }

  /** Row and column styles as the model keeps them (model.ts Sheet.colStyles): XFs made styles, columns of the default left out. */
  styles(styleOfXf: Int32Array): Pick<Sheet, 'colStyles' | 'rowStyles'> {
    const style = (xf: number) => (xf < styleOfXf.length ? styleOfXf[xf]! : 0);
    const cols = new Map([...this.colXfs].map(([c, xf]) => [c, style(xf)] as const).filter(([, s]) => s > 0));
    const rows = new Map([...this.rowXfs].map(([r, xf]) => [r, style(xf)] as const));
    return { ...(cols.size ? { colStyles: cols } : {}), ...(rows.size ? { rowStyles: rows } : {}) };
  }

  /** Heights as the XLSX reader has them: those Excel would write as ht, set by hand or unlike the default. */
  rowHeights(): Map<number, number> {
    const out = new Map<number, number>();
    for (const [r, { height, custom }] of this.rowSizes) if (custom || height !== this.defaultRowHeight) out.set(r, height);
    return out;
  }
}

/** The sheet's pictures and shapes; a drawing that cannot be read is told and left out (the cells still print). */
function drawn(dg: Uint8Array, objects: SheetObjects, ctx: SheetContext, layout: SheetLayout, name: string): SheetDrawn {
  try {
    return sheetDrawings(dg, { ...(ctx.blips ? { store: ctx.blips } : {}), objects: objects.objects, fontAt: ctx.fontAt ?? (() => XLS_DEFAULT_FONT) }, layout.gridMeasure());
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    ctx.problems?.({ part: `sheet "${name}" drawing`, reason: `its pictures and shapes are not printed: ${e.message}` });
    return { drawings: [], noteBoxes: new Map() };
  }
}

/**
 * The sheet's comments as it prints them (SETUP fNotes): each NOTE's text from its object's TXO,
 * listed after the sheet's pages, or the shown ones drawn in their boxes.
 */
function comments(mode: PrintSettings['comments'], objects: SheetObjects, shown: SheetDrawn, fontAt: (index: number) => Font): { notes?: SheetNote[]; drawings: SheetDrawing[] } {
  if (!mode) return { drawings: [] };
  const textOf = new Map(objects.objects.filter((o) => o.text).map((o) => [o.id, o.text!] as const));
  const notes = objects.notes.slice(0, NOTES_MAX);
  if (mode === 'atEnd') {
    const listed = notes.map((n) => ({ row: n.row, col: n.col, text: textOf.get(n.id)?.text ?? '' })).sort((a, b) => a.row - b.row || a.col - b.col);
    return { ...(listed.length ? { notes: listed } : {}), drawings: [] };
  }
  return {
    drawings: notes.filter((n) => n.shown).slice(0, SHOWN_NOTES_MAX).flatMap((n) => {
      const box = n.shown ? shown.noteBoxes.get(n.id) : undefined;
      const text = textOf.get(n.id);
      return box ? noteDrawings({ row: n.row, col: n.col, ...box, paragraphs: text ? objectParagraphs(text, fontAt) : [] }) : [];
    }),
  };
}

/** Whether the cursor's next record is a worksheet's BOF (0x0010: not a chart's, macro sheet's or VBA module's). */
function startsWorksheet(cursor: RecordCursor): boolean {
  return cursor.next() && cursor.type === RT.BOF && u16(cursor.data, 2) === BOF_WORKSHEET;
}

/**
 * The worksheet whose BOF is at `offset` of the stream; undefined when the substream there is not
 * a worksheet (a dialog sheet, or a BOF of another type).
 */
export function readSheet(stream: Uint8Array, offset: number, name: string, ctx: SheetContext): Sheet | undefined {
  const cursor = new RecordCursor(stream, offset);
  if (!startsWorksheet(cursor)) return undefined;
  const cells = new CellGrid(name, ctx.strings, ctx.styleOfXf, ctx.codec);
  const print = new PrintRecords(ctx.codec);
  const layout = new SheetLayout();
  const drawing: Uint8Array[] = [];
  const objects = new SheetObjects(ctx.codec);
  while (cursor.next() && cursor.type !== RT.EOF) {
    if (cursor.type === RT.BOF) cursor.skipSubstream();
    else if (cursor.type === RT_MSODRAWING) drawing.push(...cursor.withContinues());
    else if (cursor.type === RT_OBJ) objects.obj(cursor.data);
    else if (cursor.type === RT_TXO) objects.txo(cursor.withContinues());
    else if (cursor.type === RT_NOTE) objects.note(cursor.data);
    else if (!cells.record(cursor) && !print.record(cursor)) layout.record(cursor.type, cursor.data);
  }
  if (layout.wsBool & WSBOOL_DIALOG) return undefined;
  const rows = cells.finish();
  const printSettings = print.settings((layout.wsBool & WSBOOL_FIT_TO_PAGE) !== 0);
  const shown = drawing.length ? drawn(joinParts(drawing), objects, ctx, layout, name) : { drawings: [], noteBoxes: new Map() };
  const noted = comments(printSettings.comments, objects, shown, ctx.fontAt ?? (() => XLS_DEFAULT_FONT));
  const drawings = [...shown.drawings, ...noted.drawings];
  return {
    name,
    ...(drawings.length ? { drawings } : {}),
    ...(noted.notes ? { notes: noted.notes } : {}),
    rows,
    rowHeights: layout.rowHeights(),
    ...layout.styles(ctx.styleOfXf),
    hiddenRows: layout.hiddenRows,
    ...(cells.used ? { used: cells.used } : {}),
    colWidths: layout.colWidths,
    hiddenCols: layout.hiddenCols,
    defaultColWidth: layout.defaultColWidth ?? defColWidth(layout.baseColWidth, ctx.defaultFontSize ?? 10),
    baseColWidth: layout.baseColWidth,
    defaultRowHeight: layout.defaultRowHeight,
    merges: layout.merges,
    ...(layout.rightToLeft ? { rightToLeft: true } : {}),
    print: printSettings,
  };
}
