/**
 * The built-in names that print: Print_Area (0x06) and Print_Titles (0x07), each a NAME record of
 * the globals scoped to a sheet (itab, 1-based) whose formula is a list of references: tArea3d or
 * tRef3d (or their sheet-less tArea, tRef), joined by tUnion, perhaps inside a tMemFunc. A formula
 * with anything else (a function, a name) is not a plain list of ranges and is left unprinted.
 */
import { u8, u16 } from '../../../../codecs/binary';
import type { Range } from '../../model';
import { MAX_COLS, MAX_ROWS } from '../xlsx/cells';

const PRINT_AREA = 0x06;
const PRINT_TITLES = 0x07;
const BUILT_IN = 0x0020;

export interface PrintName {
  kind: 'area' | 'titles';
  /** 0-based index of the sheet in the workbook's BOUNDSHEET order. */
  sheet: number;
  ranges: Range[];
}

/** A BIFF range, whole columns (all rows) and whole rows (all 256 columns) spelt out on Excel's grid as XLSX's $A:$B and $1:$2 are. */
function gridRange(top: number, bottom: number, left: number, right: number, lastRow: number): Range {
  return {
    top: Math.min(top, bottom),
    bottom: top === 0 && bottom >= lastRow ? MAX_ROWS - 1 : Math.max(top, bottom),
    left: Math.min(left, right),
    right: left === 0 && right >= 255 ? MAX_COLS - 1 : Math.max(left, right),
  };
}

/** The ranges of a name's formula tokens, or undefined when they are more than a list of references. */
export function formulaRanges(rgce: Uint8Array, biff: 5 | 8): Range[] | undefined {
  const ranges: Range[] = [];
  // BIFF8 rows are 16-bit (65,536 rows), columns 16-bit with two flag bits; BIFF5 rows hold their flags (16,384 rows), columns are a byte.
  const row = (at: number) => (biff === 8 ? u16(rgce, at) : u16(rgce, at) & 0x3fff);
  const col = (at: number) => (biff === 8 ? u16(rgce, at) & 0x3fff : u8(rgce, at));
  const lastRow = biff === 8 ? 0xffff : 0x3fff;
  const colSize = biff === 8 ? 2 : 1;
  const sheetPart = biff === 8 ? 2 : 14; // ixti; BIFF5's ixals, 8 reserved bytes, first and last sheet
  let p = 0;
  while (p < rgce.length) {
    const ptg = u8(rgce, p++);
    // Operand tokens come in three classes (reference, value, array) of the same base token.
    const base = ptg >= 0x20 ? (ptg & 0x1f) | 0x20 : ptg;
    switch (base) {
      case 0x10: // tUnion
      case 0x15: // tParen
        break;
      case 0x29: // tMemFunc: its size, then the tokens it wraps
        p += 2;
        break;
      case 0x26: // tMemArea: reserved, size, then the tokens
        p += 6;
        break;
      case 0x3b: // tArea3d
      case 0x25: {
        // tArea
        const at = p + (base === 0x3b ? sheetPart : 0);
        ranges.push(gridRange(row(at), row(at + 2), col(at + 4), col(at + 4 + colSize), lastRow));
        p = at + 4 + 2 * colSize;
        break;
      }
      case 0x3a: // tRef3d
      case 0x24: {
        // tRef
        const at = p + (base === 0x3a ? sheetPart : 0);
        ranges.push(gridRange(row(at), row(at), col(at + 2), col(at + 2), lastRow));
        p = at + 2 + colSize;
        break;
      }
      default:
        return undefined;
    }
  }
  return ranges;
}

/**
 * A NAME record of the globals, when it is a sheet's print area or titles. BIFF8 writes the name
 * after a flag byte (16-bit characters or not); BIFF5 as bytes. The formula follows the name.
 */
export function printName(d: Uint8Array, biff: 5 | 8): PrintName | undefined {
  const flags = u16(d, 0);
  const nameLength = u8(d, 3);
  const formulaLength = u16(d, 4);
  const itab = u16(d, 8);
  if (!(flags & BUILT_IN) || itab === 0 || nameLength < 1) return undefined;
  const wide = biff === 8 && (u8(d, 14) & 1) === 1;
  const nameAt = biff === 8 ? 15 : 14;
  const code = wide ? u16(d, nameAt) : u8(d, nameAt);
  if (code !== PRINT_AREA && code !== PRINT_TITLES) return undefined;
  const formulaAt = nameAt + nameLength * (wide ? 2 : 1);
  if (formulaAt + formulaLength > d.length) throw new RangeError(`a NAME's formula runs past its record`);
  const ranges = formulaRanges(d.subarray(formulaAt, formulaAt + formulaLength), biff);
  if (!ranges?.length) return undefined;
  return { kind: code === PRINT_AREA ? 'area' : 'titles', sheet: itab - 1, ranges };
}
