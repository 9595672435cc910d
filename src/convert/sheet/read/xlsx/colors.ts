/**
 * SpreadsheetML colours (<color rgb="FFRRGGBB"/>, theme="4" tint="-0.25", indexed="22"), as RRGGBB.
 * A theme colour's tint moves its HSL lightness toward white (positive) or black (negative), as
 * Excel applies it; indexed colours are the legacy 64-colour palette.
 */
import { attr, type XmlElement } from '../../../../codecs/xml';
import type { Theme } from '../../../office/theme';

/** Theme colour indexes in SpreadsheetML's order (lt1 and dk1 come first, unlike the scheme's). */
const THEME_ORDER = ['lt1', 'dk1', 'lt2', 'dk2', 'accent1', 'accent2', 'accent3', 'accent4', 'accent5', 'accent6', 'hlink', 'folHlink'];

/** The default palette of indexed colours 0-63 (64: system text, 65: system background). */
export const PALETTE: readonly string[] = (
  '000000 FFFFFF FF0000 00FF00 0000FF FFFF00 FF00FF 00FFFF 000000 FFFFFF FF0000 00FF00 0000FF FFFF00 FF00FF 00FFFF ' +
  '800000 008000 000080 808000 800080 008080 C0C0C0 808080 9999FF 993366 FFFFCC CCFFFF 660066 FF8080 0066CC CCCCFF ' +
  '000080 FF00FF FFFF00 00FFFF 800080 800000 008080 0000FF 00CCFF CCFFFF CCFFCC FFFF99 99CCFF FF99CC CC99FF FFCC99 ' +
  '3366FF 33CCCC 99CC00 FFCC00 FF9900 FF6600 666699 969696 003366 339966 003300 333300 993300 993366 333399 333333'
).split(' ');

/** An indexed colour as RRGGBB, from the default palette or a workbook's own (XLS PALETTE). */
export function indexedColor(index: number, palette: readonly string[] = PALETTE): string | undefined {
  if (index === 64) return '000000';
  if (index === 65) return 'FFFFFF';
  if (!(index >= 0 && index < 64)) return undefined;
  return palette[index];
}

/** A <color> element (or fgColor, bgColor...) as RRGGBB; undefined for automatic or unreadable colours. */
export function colorOf(el: XmlElement | undefined, theme: Theme): string | undefined {
  if (!el || attr(el, 'auto') === '1') return undefined;
  const rgb = attr(el, 'rgb');
  let base: string | undefined;
  if (rgb && /^[0-9a-fA-F]{6}([0-9a-fA-F]{2})?$/.test(rgb)) base = rgb.slice(-6).toUpperCase();
  else if (attr(el, 'theme') !== undefined) base = theme.colors.get(THEME_ORDER[Number(attr(el, 'theme'))] ?? '');
  else if (attr(el, 'indexed') !== undefined) base = indexedColor(Number(attr(el, 'indexed')));
  const tint = Number(attr(el, 'tint') ?? 0);
  return base && tint ? tinted(base, Math.max(-1, Math.min(1, tint))) : base;
}

/** Excel's tint: HSL lightness L·(1+tint) below zero, L·(1−tint) + tint above. */
function tinted(rgb: string, tint: number): string {
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(rgb.slice(i, i + 2), 16) / 255) as [number, number, number];
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const l = (max + min) / 2;
  const d = max - min;
  const s = d === 0 ? 0 : d / (1 - Math.abs(2 * l - 1));
  let h = 0;
  if (d) h = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  const l2 = tint < 0 ? l * (1 + tint) : l * (1 - tint) + tint;
  const c = (1 - Math.abs(2 * l2 - 1)) * s;
  const x = c * (1 - Math.abs((h % 2 + 2) % 2 - 1));
  const m = l2 - c / 2;
  const sector = Math.floor(((h % 6) + 6) % 6);
  const [r1, g1, b1] = [[c, x, 0], [x, c, 0], [0, c, x], [0, x, c], [x, 0, c], [c, 0, x]][sector]!;
  return [r1!, g1!, b1!].map((v) => Math.round((v + m) * 255).toString(16).padStart(2, '0')).join('').toUpperCase();
}
