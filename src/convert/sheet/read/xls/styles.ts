/**
 * The workbook globals' formatting records: FONT, FORMAT, XF and PALETTE, resolved into the sheet
 * model's cell styles once the globals are read (PALETTE comes after the XFs that name its colours).
 * A cell names an XF by its index among all XFs; only cell XFs (not the style XFs they derive from)
 * become styles, and each carries every attribute itself, so no parent need be looked up.
 */
import { u8, u16, u32 } from '../../../../codecs/binary';
import type { BorderSide, CellStyle, Font } from '../../model';
import { indexedColor, PALETTE } from '../xlsx/colors';
import { BUILT_IN, STYLE_LIST_MAX } from '../xlsx/styles';
import { recordString, type TextCodec } from './strings';

/** BIFF's default font (Excel 97-2003's Normal style): column widths of a file without fonts are in its digits. */
export const XLS_DEFAULT_FONT: Font = { name: 'Arial', size: 10 };

/** Border line styles by BIFF's dg code (0: none). */
const LINE_STYLES: (BorderSide['style'] | undefined)[] = [
  undefined, 'thin', 'medium', 'dashed', 'dotted', 'thick', 'double', 'hair', 'mediumDashed', 'dashDot', 'mediumDashDot', 'dashDotDot', 'mediumDashDotDot', 'slantDashDot',
];
const HORIZONTAL: (CellStyle['horizontal'] | undefined)[] = [undefined, 'left', 'center', 'right', 'fill', 'justify', 'centerContinuous', 'distributed'];
/** Bottom (2) is the default, which XLSX leaves unsaid. */
const VERTICAL: (CellStyle['vertical'] | undefined)[] = ['top', 'center', undefined, 'justify', 'distributed'];

/** An XF's fields, as BIFF8 or BIFF5 lays them out. */
interface RawXf {
  font: number;
  format: number;
  isStyle: boolean;
  alc: number;
  alcV: number;
  wrap: boolean;
  rotation: number;
  indent: number;
  shrink: boolean;
  /** Line style and colour index of each side. */
  lines: { left: [number, number]; right: [number, number]; top: [number, number]; bottom: [number, number] };
  pattern: number;
  fore: number;
  back: number;
}

function rawXf8(d: Uint8Array): RawXf {
  const sides = u32(d, 10);
  const more = u32(d, 14);
  const colors = u16(d, 18);
  return {
    font: u16(d, 0),
    format: u16(d, 2),
    isStyle: (u16(d, 4) & 0x0004) !== 0,
    alc: u8(d, 6) & 7,
    wrap: (u8(d, 6) & 0x08) !== 0,
    alcV: (u8(d, 6) >> 4) & 7,
    rotation: u8(d, 7),
    indent: u8(d, 8) & 0x0f,
    shrink: (u8(d, 8) & 0x10) !== 0,
    lines: {
      left: [sides & 0x0f, (sides >>> 16) & 0x7f],
      right: [(sides >>> 4) & 0x0f, (sides >>> 23) & 0x7f],
      top: [(sides >>> 8) & 0x0f, more & 0x7f],
      bottom: [(sides >>> 12) & 0x0f, (more >>> 7) & 0x7f],
    },
    pattern: (more >>> 26) & 0x3f,
    fore: colors & 0x7f,
    back: (colors >>> 7) & 0x7f,
  };
}

/** BIFF5's XF: the same facts in 16 bytes, text orientation in two bits rather than degrees. */
function rawXf5(d: Uint8Array): RawXf {
  const fillAndBottom = u32(d, 8);
  const sides = u32(d, 12);
  const orientation = u8(d, 7) & 3; // 1 stacked, 2 90° counter-clockwise, 3 90° clockwise
  return {
    font: u16(d, 0),
    format: u16(d, 2),
    isStyle: (u16(d, 4) & 0x0004) !== 0,
    alc: u8(d, 6) & 7,
    wrap: (u8(d, 6) & 0x08) !== 0,
    alcV: (u8(d, 6) >> 4) & 7,
    rotation: [0, 255, 90, 180][orientation]!,
    indent: 0,
    shrink: false,
    lines: {
      left: [(sides >>> 3) & 7, (sides >>> 16) & 0x7f],
      right: [(sides >>> 6) & 7, (sides >>> 23) & 0x7f],
      top: [sides & 7, (sides >>> 9) & 0x7f],
      bottom: [(fillAndBottom >>> 22) & 7, (fillAndBottom >>> 25) & 0x7f],
    },
    pattern: (fillAndBottom >>> 16) & 0x3f,
    fore: fillAndBottom & 0x7f,
    back: (fillAndBottom >>> 7) & 0x7f,
  };
}

/** A FONT record's fields (the same in BIFF5 and BIFF8 but for the name's flag byte); its colour waits for the palette. */
function rawFont(d: Uint8Array, codec: TextCodec): Font & { colorIndex: number } {
  const size = u16(d, 0) / 20;
  const flags = u16(d, 2);
  return {
    name: recordString(d, 14, 1, codec) || XLS_DEFAULT_FONT.name,
    size: size > 0 && size < 410 ? size : XLS_DEFAULT_FONT.size,
    // Excel writes a weight of 400 or 700.
    ...(u16(d, 6) >= 700 ? { bold: true } : {}),
    ...(flags & 0x02 ? { italic: true } : {}),
    ...(u8(d, 10) !== 0 ? { underline: true } : {}),
    ...(flags & 0x08 ? { strike: true } : {}),
    colorIndex: u16(d, 4),
  };
}

/** What the globals' formatting records hold, resolved by build() when the globals end. */
export class StyleRecords {
  private readonly fonts: (Font & { colorIndex: number })[] = [];
  private readonly formats = new Map<number, string>();
  private readonly xfs: RawXf[] = [];
  private readonly palette = [...PALETTE];

  constructor(private readonly codec: TextCodec) {}

  font(d: Uint8Array): void {
    if (this.fonts.length < STYLE_LIST_MAX) this.fonts.push(rawFont(d, this.codec));
  }

  format(d: Uint8Array): void {
    // BIFF8's code has a 2-byte count and a flag byte; BIFF5's a 1-byte count.
    const code = recordString(d, 2, this.codec.biff === 8 ? 2 : 1, this.codec);
    if (this.formats.size < STYLE_LIST_MAX) this.formats.set(u16(d, 0), code);
  }

  xf(d: Uint8Array): void {
    if (this.xfs.length < STYLE_LIST_MAX) this.xfs.push(this.codec.biff === 8 ? rawXf8(d) : rawXf5(d));
  }

  /** Custom colours for indexes 8 onwards, replacing the default palette's. */
  paletteColors(d: Uint8Array): void {
    const count = Math.min(u16(d, 0), 56);
    for (let i = 0; i < count; i++) {
      const rgb = [0, 1, 2].map((k) => u8(d, 2 + 4 * i + k).toString(16).padStart(2, '0')).join('');
      this.palette[8 + i] = rgb.toUpperCase();
    }
  }

  /** The cell styles, the default font, and the style of each XF index (style XFs and strays: 0). */
  build(): { styles: CellStyle[]; defaultFont: Font; styleOfXf: Int32Array; fontAt: (index: number) => Font } {
    const fonts = this.fonts.map(({ colorIndex, ...font }): Font => {
      // 0x7FFF is the automatic colour, 64 the window's text colour: both print as the default.
      const color = colorIndex === 0x7fff || colorIndex === 64 ? undefined : indexedColor(colorIndex, this.palette);
      return color ? { ...font, color } : font;
    });
    const defaultFont = fonts[0] ?? XLS_DEFAULT_FONT;
    // Font index 4 is never written (BIFF's Windows legacy): index 5 is the fifth font.
    const fontAt = (i: number) => fonts[i < 4 ? i : i - 1] ?? defaultFont;
    const styles: CellStyle[] = [];
    const styleOfXf = new Int32Array(this.xfs.length);
    this.xfs.forEach((xf, i) => {
      if (xf.isStyle) return;
      styleOfXf[i] = styles.length;
      styles.push(this.cellStyle(xf, fontAt(xf.font)));
    });
    if (!styles.length) styles.push({ format: 'General', font: defaultFont, borders: {} });
    return { styles, defaultFont, styleOfXf, fontAt };
  }

  private cellStyle(xf: RawXf, font: Font): CellStyle {
    const color = (i: number) => indexedColor(i, this.palette);
    // As XLSX's reader: a solid fill's foreground; a pattern's foreground, else its background.
    const fill = xf.pattern === 0 ? undefined : color(xf.fore) ?? (xf.pattern === 1 ? undefined : color(xf.back));
    const borders: CellStyle['borders'] = {};
    for (const side of ['left', 'right', 'top', 'bottom'] as const) {
      const [line, icv] = xf.lines[side];
      const style = LINE_STYLES[line];
      if (!style) continue;
      const c = color(icv);
      borders[side] = c ? { style, color: c } : { style };
    }
    const horizontal = HORIZONTAL[xf.alc];
    const vertical = VERTICAL[xf.alcV];
    const r = xf.rotation;
    return {
      format: this.formats.get(xf.format) ?? BUILT_IN[xf.format] ?? 'General',
      font,
      ...(fill ? { fill } : {}),
      borders,
      ...(horizontal ? { horizontal } : {}),
      ...(vertical ? { vertical } : {}),
      ...(xf.wrap ? { wrap: true } : {}),
      ...(xf.indent > 0 ? { indent: xf.indent } : {}),
      // 91-180 turn clockwise: negative degrees, as the XLSX reader gives textRotation.
      ...(r > 0 && r <= 180 ? { rotation: r > 90 ? 90 - r : r } : r === 255 ? { rotation: 255 } : {}),
      ...(xf.shrink ? { shrink: true } : {}),
    };
  }
}
