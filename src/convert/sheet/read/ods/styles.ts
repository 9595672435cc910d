/**
 * OpenDocument styles as the sheet model's cell styles: the styles of styles.xml (the default cell
 * style, named styles such as "Default" and their parents) and the automatic styles of content.xml
 * (ce1, co1, ro1, ta1...), each cell style resolved through its style:parent-style-name chain
 * property by property, then turned into a CellStyle (font, fill, borders, alignment and the Excel
 * format code of its data style). Styles are indexed as cells name them; equal ones share an index.
 */
import { attr, child, type XmlElement } from '../../../../codecs/xml';
import { fontOf, hexColor, lengthPoints, ODF_TEXT_MAX, PARENT_DEPTH_MAX, type StyleSources } from '../../../office/odf/styles';
import type { BorderSide, CellStyle, Font } from '../../model';
import { STYLE_LIST_MAX } from '../xlsx/styles';
import { DataStyles } from './data-styles';

// The ODF styles every reader shares (office/odf/styles.ts), where the sheet's readers have always found them.
export { fontOf, hexColor, lengthPoints, paragraphText, StyleSources } from '../../../office/odf/styles';

/** LibreOffice's default cell font, when the file's default style names none. */
export const ODS_DEFAULT_FONT: Font = { name: 'Liberation Sans', size: 10 };

/** A cell style's properties with its parents', nearest last. */
export interface ResolvedProps {
  cell: Record<string, string>;
  paragraph: Record<string, string>;
  text: Record<string, string>;
  dataStyle?: string;
}

/** Shorthands a child's longhand overrides and a child's shorthand clears (fo:border over fo:border-left...). */
const SHORTHANDS: Record<string, string[]> = {
  border: ['border-left', 'border-right', 'border-top', 'border-bottom'],
  margin: ['margin-left', 'margin-right', 'margin-top', 'margin-bottom'],
  'font-name': ['font-family'],
  'font-family': ['font-name'],
  color: ['use-window-font-color'],
  'use-window-font-color': ['color'],
};

function merge(into: Record<string, string>, attrs: Record<string, string> | undefined): void {
  if (!attrs) return;
  for (const key of Object.keys(attrs)) for (const cleared of SHORTHANDS[key] ?? []) if (!(cleared in attrs)) delete into[cleared];
  Object.assign(into, attrs);
}

/** CSS's width keywords, which fo:border allows in place of a length. */
const WIDTH_WORDS: Record<string, number> = { thin: 0.75, medium: 1.75, thick: 2.5 };

/** "0.74pt solid #000000" → the Excel border LibreOffice writes that width and kind for (hair 0.06, thin 0.74, medium 1.76, thick 2.49). */
export function borderSide(value: string | undefined): BorderSide | undefined {
  if (!value || value === 'none' || value === 'hidden') return undefined;
  const words = value.trim().split(/\s+/);
  const width = words.map((w) => lengthPoints(w) ?? WIDTH_WORDS[w]).find((w) => w !== undefined) ?? 0.75;
  const kind = words.find((w) => /^[a-z-]+$/.test(w) && !(w in WIDTH_WORDS)) ?? 'solid';
  if (kind === 'none' || kind === 'hidden' || width <= 0) return undefined;
  const color = words.map(hexColor).find(Boolean);
  const heavy = width >= 1.2;
  let style: BorderSide['style'];
  if (kind.startsWith('double')) style = 'double';
  else if (kind === 'dotted') style = 'dotted';
  else if (kind === 'dashed' || kind === 'fine-dashed') style = heavy ? 'mediumDashed' : 'dashed';
  else if (kind === 'dash-dot') style = heavy ? 'mediumDashDot' : 'dashDot';
  else if (kind === 'dash-dot-dot') style = heavy ? 'mediumDashDotDot' : 'dashDotDot';
  else style = width < 0.3 ? 'hair' : width < 1.2 ? 'thin' : width < 2.2 ? 'medium' : 'thick';
  return color ? { style, color } : { style };
}

const HORIZONTAL: Record<string, CellStyle['horizontal']> = { start: 'left', left: 'left', center: 'center', end: 'right', right: 'right', justify: 'justify' };
const VERTICAL: Record<string, CellStyle['vertical']> = { top: 'top', middle: 'center' };

/** A space's advance in em of common faces and their metric twins (unknown faces: Arial's). */
const SPACE_EM: Record<string, number> = {
  arial: 0.278, 'liberation sans': 0.278, helvetica: 0.278, arimo: 0.278, 'times new roman': 0.25, 'liberation serif': 0.25, tinos: 0.25,
  'courier new': 0.6, 'liberation mono': 0.6, cousine: 0.6, calibri: 0.226, carlito: 0.226, cambria: 0.22, caladea: 0.22,
  'dejavu sans': 0.318, 'dejavu serif': 0.318, verdana: 0.352, tahoma: 0.313, georgia: 0.241, 'century gothic': 0.277, 'segoe ui': 0.274,
};

/**
 * Indent levels from a paragraph's left margin. LibreOffice imports an Excel indent level as three
 * spaces of the default font (Arial 10: 8.34 pt), so a margin is read back as levels of that width;
 * whole levels as they were, other margins as the fraction of a level they are.
 */
function indentOf(margin: number | undefined, defaultFont: Font): number | undefined {
  if (!margin || margin <= 0) return undefined;
  const levels = margin / (3 * (SPACE_EM[defaultFont.name.toLowerCase()] ?? 0.278) * defaultFont.size);
  const whole = Math.round(levels);
  const indent = Math.abs(levels - whole) < 0.15 && whole > 0 ? whole : Math.round(levels * 100) / 100;
  return indent > 0 && indent < 256 ? indent : undefined;
}

/** ODF's counter-clockwise angle as the model's: 0-90 up, -90-0 down (Excel's 91-180). */
function rotationOf(cell: Record<string, string>): number | undefined {
  if (cell['direction'] === 'ttb') return 255;
  const raw = Number(String(cell['rotation-angle'] ?? '0').replace(/deg$/, ''));
  if (!Number.isFinite(raw)) return undefined;
  const a = ((Math.round(raw) % 360) + 360) % 360;
  if (a === 0) return undefined;
  if (a <= 90) return a;
  if (a >= 270) return a - 360;
  return a - 180; // upside-down text: the same line, turned the other way round
}

function alignmentOf(props: ResolvedProps, defaultFont: Font): Partial<CellStyle> {
  const { cell, paragraph } = props;
  // text-align-source="value-type" is Excel's General: numbers right, text left, whatever fo:text-align says.
  const horizontal = cell['repeat-content'] === 'true' ? 'fill' : cell['text-align-source'] === 'value-type' ? undefined : HORIZONTAL[paragraph['text-align'] ?? ''];
  const vertical = VERTICAL[cell['vertical-align'] ?? ''];
  const indent = indentOf(lengthPoints(paragraph['margin-left'] ?? paragraph['margin']), defaultFont);
  const rotation = rotationOf(cell);
  return {
    ...(horizontal ? { horizontal } : {}),
    ...(vertical ? { vertical } : {}),
    ...(cell['wrap-option'] === 'wrap' ? { wrap: true } : {}),
    ...(indent ? { indent } : {}),
    ...(rotation ? { rotation } : {}),
    ...(cell['shrink-to-fit'] === 'true' ? { shrink: true } : {}),
  };
}

/** The workbook's cell styles, built as cells name them: index 0 is the "Default" style. */
export class CellStyles {
  readonly list: CellStyle[] = [];
  readonly defaultFont: Font;
  private readonly byName = new Map<string, number>();
  private readonly byValue = new Map<string, number>();
  private readonly resolvedByName = new Map<string, ResolvedProps>();
  private readonly formats: DataStyles;

  constructor(private readonly sources: StyleSources) {
    this.formats = new DataStyles(sources.dataStyles, sources.defaults.get('table-cell'));
    const base = this.resolved('Default');
    this.defaultFont = fontOf(sources, base.text, ODS_DEFAULT_FONT);
    this.add(this.build(base));
  }

  /** The index of the cell style a cell names (undefined or unknown: the default, 0). */
  index(name: string | undefined): number {
    if (name === undefined) return 0;
    let index = this.byName.get(name);
    if (index !== undefined) return index;
    index = this.sources.style('table-cell', name) && this.list.length < STYLE_LIST_MAX ? this.add(this.build(this.resolved(name))) : 0;
    this.byName.set(name, index);
    return index;
  }

  private add(style: CellStyle): number {
    const key = JSON.stringify(style);
    let index = this.byValue.get(key);
    if (index === undefined) {
      index = this.list.push(style) - 1;
      this.byValue.set(key, index);
    }
    return index;
  }

  /** The default style's properties, then each ancestor's from the root down to the style itself. */
  private resolved(name: string): ResolvedProps {
    const known = this.resolvedByName.get(name);
    if (known) return known;
    const chain: XmlElement[] = [];
    const seen = new Set<string>();
    for (let at: string | undefined = name; at !== undefined && !seen.has(at) && chain.length < PARENT_DEPTH_MAX; ) {
      seen.add(at);
      const el = this.sources.style('table-cell', at);
      if (!el) break;
      chain.unshift(el);
      at = attr(el, 'parent-style-name');
    }
    const props: ResolvedProps = { cell: {}, paragraph: {}, text: {} };
    for (const el of [this.sources.defaults.get('table-cell'), ...chain]) {
      merge(props.cell, child(el, 'table-cell-properties')?.attrs);
      merge(props.paragraph, child(el, 'paragraph-properties')?.attrs);
      merge(props.text, child(el, 'text-properties')?.attrs);
      if (el && attr(el, 'data-style-name')) props.dataStyle = attr(el, 'data-style-name');
    }
    this.resolvedByName.set(name, props);
    return props;
  }

  private build(props: ResolvedProps): CellStyle {
    const { cell } = props;
    const borders: CellStyle['borders'] = {};
    for (const side of ['left', 'right', 'top', 'bottom'] as const) {
      const b = borderSide(cell[`border-${side}`] ?? cell['border']);
      if (b) borders[side] = b;
    }
    const fill = hexColor(cell['background-color']);
    return {
      format: this.formats.code(props.dataStyle),
      font: fontOf(this.sources, props.text, this.defaultFont),
      ...(fill ? { fill } : {}),
      borders,
      ...alignmentOf(props, this.defaultFont),
    };
  }
}

/** Excel's most characters in a cell: text past it (text:s c="1000" many times over) is cut, not built. */
export const CELL_TEXT_MAX = ODF_TEXT_MAX;
