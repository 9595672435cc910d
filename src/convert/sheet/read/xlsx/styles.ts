/**
 * xl/styles.xml: the cell formats (cellXfs) a cell's s="n" names, each with its number format,
 * font, fill, borders and alignment resolved; and the workbook's default font, whose digits
 * measure column widths. Lists are capped before anything is built from them.
 */
import { attr, child, children, type XmlElement } from '../../../../codecs/xml';
import type { Theme } from '../../../office/theme';
import type { BorderSide, CellStyle, Font } from '../../model';
import { colorOf } from './colors';

/** At most this many entries of each list (Excel writes at most 64,000 cell formats). */
export const STYLE_LIST_MAX = 65_536;

/** The built-in number formats by id (ECMA-376 18.8.30), as Excel shows them in an en-US locale. */
export const BUILT_IN: Record<number, string> = {
  0: 'General', 1: '0', 2: '0.00', 3: '#,##0', 4: '#,##0.00', 9: '0%', 10: '0.00%', 11: '0.00E+00', 12: '# ?/?', 13: '# ??/??',
  14: 'mm-dd-yy', 15: 'd-mmm-yy', 16: 'd-mmm', 17: 'mmm-yy', 18: 'h:mm AM/PM', 19: 'h:mm:ss AM/PM', 20: 'h:mm', 21: 'h:mm:ss', 22: 'm/d/yy h:mm',
  37: '#,##0 ;(#,##0)', 38: '#,##0 ;[Red](#,##0)', 39: '#,##0.00;(#,##0.00)', 40: '#,##0.00;[Red](#,##0.00)',
  45: 'mm:ss', 46: '[h]:mm:ss', 47: 'mmss.0', 48: '##0.0E+0', 49: '@',
};

export const DEFAULT_FONT: Font = { name: 'Calibri', size: 11 };

const capped = (el: XmlElement | undefined, name: string) => children(el, name).slice(0, STYLE_LIST_MAX);
const on = (el: XmlElement | undefined) => !!el && attr(el, 'val') !== '0' && attr(el, 'val') !== 'false' && attr(el, 'val') !== 'none';

function fontOf(el: XmlElement, theme: Theme): Font {
  const size = Number(attr(child(el, 'sz'), 'val'));
  return {
    name: attr(child(el, 'name'), 'val') ?? DEFAULT_FONT.name,
    size: size > 0 && size < 410 ? size : DEFAULT_FONT.size,
    ...(on(child(el, 'b')) ? { bold: true } : {}),
    ...(on(child(el, 'i')) ? { italic: true } : {}),
    ...(on(child(el, 'u')) ? { underline: true } : {}),
    ...(on(child(el, 'strike')) ? { strike: true } : {}),
    ...(colorOf(child(el, 'color'), theme) ? { color: colorOf(child(el, 'color'), theme) } : {}),
  };
}

/** The share of a pattern's cell its foreground covers (ECMA-376 ST_PatternType). */
const PATTERN_DENSITY: Record<string, number> = {
  solid: 1, darkGray: 0.75, mediumGray: 0.5, lightGray: 0.25, gray125: 0.125, gray0625: 0.0625,
  darkHorizontal: 0.5, darkVertical: 0.5, darkDown: 0.5, darkUp: 0.5, darkGrid: 0.75, darkTrellis: 0.75,
  lightHorizontal: 0.25, lightVertical: 0.25, lightDown: 0.25, lightUp: 0.25, lightGrid: 0.4375, lightTrellis: 0.375,
};

/** `fg` laid over `bg` by `share`, as one colour. */
function mixed(fg: string, bg: string, share: number): string {
  const channel = (hex: string, i: number) => parseInt(hex.slice(i, i + 2), 16);
  return [0, 2, 4].map((i) => Math.round(channel(fg, i) * share + channel(bg, i) * (1 - share)).toString(16).padStart(2, '0')).join('').toUpperCase();
}

/**
 * A fill's colour: a solid fill's foreground; a pattern's foreground mixed over its background by
 * how much of the cell the pattern covers, as LibreOffice prints patterns (it has no cell patterns).
 */
function fillOf(el: XmlElement, theme: Theme): string | undefined {
  const pattern = child(el, 'patternFill');
  const type = attr(pattern, 'patternType');
  if (!pattern || !type || type === 'none') return undefined;
  const fg = colorOf(child(pattern, 'fgColor'), theme);
  if (type === 'solid') return fg;
  return mixed(fg ?? '000000', colorOf(child(pattern, 'bgColor'), theme) ?? 'FFFFFF', PATTERN_DENSITY[type] ?? 0.5);
}

/** An xsd:boolean attribute that is set. */
export const truthy = (v: string | undefined) => v === '1' || v === 'true';

const SIDES = ['left', 'right', 'top', 'bottom'] as const;

function bordersOf(el: XmlElement, theme: Theme): CellStyle['borders'] {
  const out: CellStyle['borders'] = {};
  for (const side of SIDES) {
    const s = child(el, side) ?? (side === 'left' ? child(el, 'start') : side === 'right' ? child(el, 'end') : undefined);
    const style = attr(s, 'style') as BorderSide['style'] | 'none' | undefined;
    if (!s || !style || style === 'none') continue;
    const color = colorOf(child(s, 'color'), theme);
    out[side] = color ? { style, color } : { style };
  }
  return out;
}

function alignmentOf(el: XmlElement | undefined): Partial<CellStyle> {
  if (!el) return {};
  const rotation = Number(attr(el, 'textRotation') ?? 0);
  const indent = Number(attr(el, 'indent') ?? 0);
  return {
    ...(attr(el, 'horizontal') ? { horizontal: attr(el, 'horizontal') as CellStyle['horizontal'] } : {}),
    ...(attr(el, 'vertical') ? { vertical: attr(el, 'vertical') as CellStyle['vertical'] } : {}),
    ...(truthy(attr(el, 'wrapText')) ? { wrap: true } : {}),
    ...(indent > 0 && indent < 256 ? { indent } : {}),
    ...(rotation > 0 && rotation <= 180 ? { rotation: rotation > 90 ? 90 - rotation : rotation } : rotation === 255 ? { rotation } : {}),
    ...(truthy(attr(el, 'shrinkToFit')) ? { shrink: true } : {}),
  };
}

/** The cell formats and the default font of a styles part (none: Excel's defaults). */
export function readStyles(root: XmlElement | undefined, theme: Theme): { styles: CellStyle[]; defaultFont: Font } {
  const formats = new Map<number, string>();
  for (const f of capped(child(root, 'numFmts'), 'numFmt')) {
    const id = Number(attr(f, 'numFmtId'));
    const code = attr(f, 'formatCode');
    if (Number.isInteger(id) && code !== undefined) formats.set(id, code);
  }
  const fonts = capped(child(root, 'fonts'), 'font').map((f) => fontOf(f, theme));
  const fills = capped(child(root, 'fills'), 'fill').map((f) => fillOf(f, theme));
  const borders = capped(child(root, 'borders'), 'border').map((b) => bordersOf(b, theme));
  const defaultFont = fonts[0] ?? DEFAULT_FONT;
  const styles = capped(child(root, 'cellXfs'), 'xf').map((xf): CellStyle => {
    const id = Number(attr(xf, 'numFmtId') ?? 0);
    const fill = fills[Number(attr(xf, 'fillId') ?? 0)];
    return {
      format: formats.get(id) ?? BUILT_IN[id] ?? 'General',
      font: fonts[Number(attr(xf, 'fontId') ?? 0)] ?? defaultFont,
      ...(fill ? { fill } : {}),
      borders: borders[Number(attr(xf, 'borderId') ?? 0)] ?? {},
      ...alignmentOf(child(xf, 'alignment')),
    };
  });
  if (!styles.length) styles.push({ format: 'General', font: defaultFont, borders: {} });
  return { styles, defaultFont };
}
