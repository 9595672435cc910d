/** Colours, shading and borders as Word stores them (ico indexes, COLORREFs, SHD, BRC). */
import type { Border } from '../../model/index';
import { u32, u8 } from '../../../../codecs/binary';

/** The 17 legacy colour indexes (ico); 0 is "auto". */
const ICO = [
  '', '000000', '0000FF', '00FFFF', '00FF00', 'FF00FF', 'FF0000', 'FFFF00', 'FFFFFF',
  '000080', '008080', '008000', '800080', '800000', '808000', '808080', 'C0C0C0',
];

export function icoColor(ico: number): string | undefined {
  return ICO[ico] || undefined;
}

/** COLORREF: r, g, b bytes then a flag byte; 0xFF000000 means "auto". */
export function colorRef(b: Uint8Array, o: number): string | undefined {
  if (o + 4 > b.length) return undefined;
  const v = u32(b, o);
  if (v === 0xff000000 || b[o + 3] === 0xff) return undefined;
  const hex = (n: number) => n.toString(16).padStart(2, '0').toUpperCase();
  return hex(b[o]!) + hex(b[o + 1]!) + hex(b[o + 2]!);
}

/** Pattern percentages of the SHD ipat values, for blending foreground into background. */
const IPAT_PERCENT: Record<number, number> = {
  2: 5, 3: 10, 4: 20, 5: 25, 6: 30, 7: 40, 8: 50, 9: 60, 10: 70, 11: 75, 12: 80, 13: 90,
  35: 2.5, 36: 7.5, 37: 12.5, 38: 15, 39: 17.5, 40: 22.5, 41: 27.5, 42: 32.5, 43: 35, 44: 37.5,
  45: 42.5, 46: 45, 47: 47.5, 48: 52.5, 49: 55, 50: 57.5, 51: 62.5, 52: 65, 53: 67.5, 54: 72.5,
  55: 77.5, 56: 82.5, 57: 85, 58: 87.5, 59: 92.5, 60: 95, 61: 97.5, 62: 97,
};

function blend(fore: string, back: string, percent: number): string {
  const ch = (s: string, i: number) => parseInt(s.slice(i, i + 2), 16);
  let out = '';
  for (const i of [0, 2, 4]) {
    const v = Math.round(ch(back, i) + ((ch(fore, i) - ch(back, i)) * percent) / 100);
    out += v.toString(16).padStart(2, '0').toUpperCase();
  }
  return out;
}

/** The visible fill colour of a shading, or undefined for none/auto. */
export function shading(fore: string | undefined, back: string | undefined, ipat: number): string | undefined {
  if (ipat === 0) return back;
  if (ipat === 1) return fore ?? '000000';
  const pct = IPAT_PERCENT[ipat];
  if (pct === undefined) return back;
  return blend(fore ?? '000000', back ?? 'FFFFFF', pct);
}

/** SHD80 (2 bytes): icoFore 5 bits, icoBack 5 bits, ipat 6 bits. */
export function shd80(v: number): string | undefined {
  return shading(icoColor(v & 0x1f), icoColor((v >> 5) & 0x1f), (v >> 10) & 0x3f);
}

/** SHD (10 bytes): cvFore, cvBack, ipat. */
export function shd(b: Uint8Array, o: number): string | undefined {
  if (o + 10 > b.length) return undefined;
  return shading(colorRef(b, o), colorRef(b, o + 4), b[o + 8]! | (b[o + 9]! << 8));
}

function borderStyle(brcType: number): Border['style'] {
  if (brcType === 0 || brcType === 0xff) return 'none';
  if (brcType === 3 || brcType === 10 || (brcType >= 11 && brcType <= 21)) return 'double';
  if (brcType === 6) return 'dotted';
  if (brcType === 7 || brcType === 8 || brcType === 9 || brcType === 22 || brcType === 23) return 'dashed';
  return 'single';
}

function makeBorder(width8: number, brcType: number, color: string | undefined, space: number): Border | undefined {
  const style = borderStyle(brcType);
  if (style === 'none') return { width: 0, style: 'none', color: color ?? '000000' };
  // Hairline (5) has no width of its own; thick (2) is drawn doubled.
  const width = brcType === 5 ? 0.25 : Math.max(0.25, (width8 / 8) * (brcType === 2 ? 2 : 1));
  return { width, style, color: color ?? '000000', space };
}

/** BRC80 (4 bytes): dptLineWidth, brcType, ico, dptSpace/flags. 0xFFFFFFFF means "no border". */
export function brc80(b: Uint8Array, o: number): Border | undefined {
  if (o + 4 > b.length) return undefined;
  if (u32(b, o) === 0xffffffff || u32(b, o) === 0) return undefined;
  return makeBorder(u8(b, o), u8(b, o + 1), icoColor(u8(b, o + 2)), u8(b, o + 3) & 0x1f);
}

/** BRC (8 bytes): cv, dptLineWidth, brcType, dptSpace/flags. */
export function brc(b: Uint8Array, o: number): Border | undefined {
  if (o + 8 > b.length) return undefined;
  if (u32(b, o + 4) === 0xffffffff || u32(b, o + 4) === 0) return undefined;
  return makeBorder(u8(b, o + 4), u8(b, o + 5), colorRef(b, o), u8(b, o + 6) & 0x1f);
}

/** Word 6 BRC (2 bytes): dxpLineWidth 3 bits, brcType 2 bits, fShadow, ico 5 bits, dxpSpace 5 bits. */
export function brc10(v: number): Border | undefined {
  if (v === 0 || v === 0xffff) return undefined;
  const width = v & 7;
  const type = (v >> 3) & 3;
  return makeBorder(width * 6, type === 0 ? 0 : type === 2 ? 3 : 1, icoColor((v >> 6) & 0x1f), (v >> 11) & 0x1f);
}
