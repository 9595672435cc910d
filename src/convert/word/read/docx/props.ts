/**
 * Parsing of WordprocessingML property elements (w:rPr, w:pPr, borders, shading) into partial model
 * values, one layer at a time; ./styles.ts stacks the layers (defaults → styles → direct).
 *
 * A layer only carries what its element states, so stacking is a plain "later wins" merge. Word's
 * "automatic" values are kept as sentinels ('auto' colour, 'none' highlight) while stacking, because
 * they must override an inherited colour, and dropped when the final RunStyle is produced.
 */
import type { Border, ParagraphFrame, ParagraphProps, RunStyle, TabStop } from '../../model/index';
import { attr, child, children, type XmlElement } from '../../../../codecs/xml';
import { resolveColor, themeFont, type Theme } from '../../../office/theme';

/** Run properties of one layer; rStyle is the character style reference (direct formatting only). */
/**
 * Run properties of one layer. The complex-script ones (w:rFonts cs, w:szCs, w:bCs, w:iCs) format
 * the run's Arabic, Hebrew and other complex-script text in place of font, size, bold and italic.
 */
export type RunProps = RunStyle & { rStyle?: string; fontCs?: string; sizeCs?: number; boldCs?: boolean; italicCs?: boolean };

/** Paragraph properties of one layer, with the numbering reference still unresolved. */
export type ParaProps = Omit<ParagraphProps, 'list' | 'markStyle'> & {
  numId?: string;
  ilvl?: number;
  pStyle?: string;
};

export const twips = (v: string | undefined): number | undefined => num(v, 20);
export const halfPoints = (v: string | undefined): number | undefined => num(v, 2);
export const emu = (v: string | undefined): number | undefined => num(v, 12700);

/** Points per unit of the universal measures Strict OOXML allows in place of twips and half-points ("2.5cm", "12pt"). */
const UNIVERSAL: Record<string, number> = { pt: 1, in: 72, cm: 72 / 2.54, mm: 72 / 25.4, pc: 12, pi: 12 };

function num(v: string | undefined, div: number): number | undefined {
  if (v === undefined) return undefined;
  const n = parseFloat(v);
  if (!Number.isFinite(n)) return undefined;
  const unit = UNIVERSAL[v.trim().slice(-2)];
  return unit !== undefined && /[a-z]{2}$/.test(v.trim()) ? n * unit : n / div;
}

/** An on/off attribute value: "1", "true", "on" are on; absent is off. */
export function onOff(v: string | undefined): boolean {
  return v !== undefined && !(v === '0' || v === 'false' || v === 'off');
}

/** A toggle property (w:b, w:i...): present means on unless val is false/0/off. */
export function toggle(el: XmlElement | undefined): boolean | undefined {
  if (!el) return undefined;
  const v = el.attrs['val'];
  return !(v === '0' || v === 'false' || v === 'off');
}

const HIGHLIGHT: Record<string, string> = {
  yellow: 'FFFF00', green: '00FF00', cyan: '00FFFF', magenta: 'FF00FF', blue: '0000FF', red: 'FF0000',
  darkBlue: '000080', darkCyan: '008080', darkGreen: '008000', darkMagenta: '800080', darkRed: '800000',
  darkYellow: '808000', darkGray: '808080', lightGray: 'C0C0C0', black: '000000', white: 'FFFFFF',
};

const UNDERLINE: Record<string, RunStyle['underline']> = {
  single: 'single', words: 'single', thick: 'single', double: 'double', dotted: 'dotted', dottedHeavy: 'dotted',
  dash: 'dashed', dashedHeavy: 'dashed', dashLong: 'dashed', dashLongHeavy: 'dashed', dotDash: 'dashed',
  dashDotHeavy: 'dashed', dotDotDash: 'dashed', dashDotDotHeavy: 'dashed', wave: 'wave', wavyHeavy: 'wave',
  wavyDouble: 'wave', none: 'none',
};

/** w:shd → fill colour ('auto'/'none' when clear), from fill, else a solid pattern's colour. */
export function parseShading(el: XmlElement | undefined, theme: Theme): string | undefined {
  if (!el) return undefined;
  const a = el.attrs;
  if (a['val'] === 'solid') {
    const c = resolveColor(theme, a['color'], a['themeColor'], a['themeTint'], a['themeShade']);
    if (c) return c === 'auto' ? '000000' : c;
  }
  const fill = resolveColor(theme, a['fill'], a['themeFill'], a['themeFillTint'], a['themeFillShade']);
  return fill ?? (a['val'] === 'clear' || a['val'] === 'nil' ? 'auto' : undefined);
}

/** A border element (w:top, w:insideH...): widths in eighths of a point, space in points. */
export function parseBorder(el: XmlElement | undefined, theme: Theme): Border | undefined {
  if (!el) return undefined;
  const a = el.attrs;
  const val = a['val'] ?? 'single';
  if (val === 'nil' || val === 'none') return { width: 0, style: 'none', color: '000000' };
  const style: Border['style'] = /^(double|triple|thinThick|thickThin|thinThickThin|thickThinThin)/.test(val)
    ? 'double'
    : val === 'dotted'
      ? 'dotted'
      : /dash/i.test(val)
        ? 'dashed'
        : 'single';
  const color = resolveColor(theme, a['color'], a['themeColor'], a['themeTint'], a['themeShade']);
  // Art borders (val="apples"...) and a missing sz: Word's minimum visible line (1/4 pt, sz=2).
  const width = Math.max(0.25, (parseFloat(a['sz'] ?? '2') || 2) / 8);
  const border: Border = { width, style, color: !color || color === 'auto' ? '000000' : color };
  const space = parseFloat(a['space'] ?? '');
  if (Number.isFinite(space)) border.space = space;
  return border;
}

export function parseBorders<K extends string>(el: XmlElement | undefined, theme: Theme, sides: readonly K[]): Partial<Record<K, Border>> | undefined {
  if (!el) return undefined;
  const out: Partial<Record<K, Border>> = {};
  for (const side of sides) {
    // Bidi-aware documents write start/end for left/right.
    const e = child(el, side) ?? (side === 'left' ? child(el, 'start') : side === 'right' ? child(el, 'end') : undefined);
    const b = parseBorder(e, theme);
    if (b) out[side] = b;
  }
  return out;
}

export function parseRPr(el: XmlElement | undefined, theme: Theme): RunProps {
  const p: RunProps = {};
  if (!el) return p;
  for (const c of el.children) {
    if (typeof c === 'string') continue;
    const a = c.attrs;
    switch (c.name) {
      case 'rStyle':
        if (a['val']) p.rStyle = a['val'];
        break;
      case 'rFonts': {
        const ascii = themeFont(theme, a['asciiTheme']) ?? a['ascii'];
        const other = themeFont(theme, a['hAnsiTheme']) ?? a['hAnsi'] ?? themeFont(theme, a['cstheme']) ?? a['cs'];
        // Each attribute only overrides its own script slot: an rFonts with just hAnsi keeps the
        // inherited Latin (ascii) font.
        if (ascii) p.font = ascii;
        if (other) p.fontOther = other;
        const cs = themeFont(theme, a['cstheme']) ?? a['cs'];
        if (cs) p.fontCs = cs;
        break;
      }
      case 'szCs': {
        const v = halfPoints(a['val']);
        if (v !== undefined && v > 0) p.sizeCs = v;
        break;
      }
      case 'bCs': p.boldCs = toggle(c); break;
      case 'iCs': p.italicCs = toggle(c); break;
      case 'sz': {
        const v = halfPoints(a['val']);
        if (v !== undefined && v > 0) p.size = v;
        break;
      }
      case 'b': p.bold = toggle(c); break;
      case 'i': p.italic = toggle(c); break;
      case 'strike': p.strike = toggle(c); break;
      case 'dstrike': p.doubleStrike = toggle(c); break;
      case 'caps': p.caps = toggle(c); break;
      case 'smallCaps': p.smallCaps = toggle(c); break;
      case 'vanish': p.hidden = toggle(c); break;
      case 'u': p.underline = UNDERLINE[a['val'] ?? 'single'] ?? 'single'; break;
      case 'color': {
        const col = resolveColor(theme, a['val'], a['themeColor'], a['themeTint'], a['themeShade']);
        if (col) p.color = col;
        break;
      }
      case 'highlight': p.highlight = HIGHLIGHT[a['val'] ?? ''] ?? 'none'; break;
      case 'shd': {
        // Highlight beats run shading when both are present.
        if (p.highlight === undefined || p.highlight === 'none') {
          const s = parseShading(c, theme);
          if (s) p.highlight = s === 'auto' ? 'none' : s;
        }
        break;
      }
      case 'vertAlign': {
        const v = a['val'];
        p.vertAlign = v === 'superscript' || v === 'subscript' ? v : ('baseline' as never);
        break;
      }
      case 'spacing': {
        const v = twips(a['val']);
        if (v !== undefined) p.spacing = v;
        break;
      }
      case 'kern': {
        // 0 turns an inherited kerning off: kept as 0 until finalRunStyle.
        const v = halfPoints(a['val']);
        if (v !== undefined) p.kern = Math.max(0, v);
        break;
      }
    }
  }
  return p;
}

const ALIGN: Record<string, ParagraphProps['align']> = {
  left: 'left', start: 'left', right: 'right', end: 'right', center: 'center',
  both: 'justify', distribute: 'justify', lowKashida: 'justify', mediumKashida: 'justify', highKashida: 'justify', thaiDistribute: 'justify',
};

const TAB_ALIGN: Record<string, TabStop['align']> = {
  left: 'left', start: 'left', center: 'center', right: 'right', end: 'right', decimal: 'decimal', clear: 'clear', bar: 'left', num: 'left',
};

const LEADER: Record<string, TabStop['leader']> = {
  dot: 'dot', middleDot: 'dot', hyphen: 'hyphen', underscore: 'underscore', heavy: 'underscore', none: 'none',
};

export function parsePPr(el: XmlElement | undefined, theme: Theme): ParaProps {
  const p: ParaProps = {};
  if (!el) return p;
  for (const c of el.children) {
    if (typeof c === 'string') continue;
    const a = c.attrs;
    switch (c.name) {
      case 'pStyle':
        if (a['val']) p.pStyle = a['val'];
        break;
      case 'jc': {
        const v = ALIGN[a['val'] ?? ''];
        if (v) p.align = v;
        break;
      }
      case 'ind': readIndents(p, a); break;
      case 'spacing': readSpacing(p, a); break;
      case 'contextualSpacing': p.contextualSpacing = toggle(c); break;
      case 'pageBreakBefore': p.pageBreakBefore = toggle(c); break;
      case 'keepNext': p.keepNext = toggle(c); break;
      case 'keepLines': p.keepLines = toggle(c); break;
      case 'widowControl': p.widowControl = toggle(c); break;
      case 'bidi': p.bidi = toggle(c); break;
      case 'shd': {
        const s = parseShading(c, theme);
        if (s) p.shading = s;
        break;
      }
      case 'pBdr': {
        const b = parseBorders(c, theme, ['top', 'bottom', 'left', 'right', 'between'] as const);
        if (b) p.borders = b;
        break;
      }
      case 'tabs': p.tabs = parseTabs(c); break;
      case 'framePr': {
        const frame = parseFramePr(a);
        if (frame) p.frame = frame;
        break;
      }
      case 'outlineLvl': {
        const v = parseInt(a['val'] ?? '', 10);
        if (v >= 0 && v <= 8) p.outlineLevel = v;
        break;
      }
      case 'numPr': {
        const numId = attr(child(c, 'numId'), 'val');
        const ilvl = parseInt(attr(child(c, 'ilvl'), 'val') ?? '', 10);
        if (numId !== undefined) p.numId = numId;
        if (Number.isFinite(ilvl)) p.ilvl = Math.max(0, Math.min(8, ilvl));
        break;
      }
    }
  }
  return p;
}

/** w:ind: the start and end indents, and the first line's indent or hanging (which wins). */
function readIndents(p: ParaProps, a: Record<string, string>): void {
  const left = twips(a['left'] ?? a['start']);
  const right = twips(a['right'] ?? a['end']);
  const hanging = twips(a['hanging']);
  const first = twips(a['firstLine']);
  if (left !== undefined) p.indentLeft = left;
  if (right !== undefined) p.indentRight = right;
  if (hanging !== undefined) p.firstLine = -hanging;
  else if (first !== undefined) p.firstLine = first;
}

/** w:spacing: the space before and after (stated, or Word's HTML-like autospacing) and the line spacing. */
function readSpacing(p: ParaProps, a: Record<string, string>): void {
  // Autospacing is the HTML-like 14 pt that Word uses instead of the stated value.
  if (onOff(a['beforeAutospacing'])) {
    p.spaceBefore = 14;
    p.autoSpaceBefore = true;
  } else {
    const v = twips(a['before']);
    if (v !== undefined) {
      p.spaceBefore = v;
      p.autoSpaceBefore = false;
    }
  }
  if (onOff(a['afterAutospacing'])) {
    p.spaceAfter = 14;
    p.autoSpaceAfter = true;
  } else {
    const v = twips(a['after']);
    if (v !== undefined) {
      p.spaceAfter = v;
      p.autoSpaceAfter = false;
    }
  }
  const line = parseFloat(a['line'] ?? '');
  if (Number.isFinite(line)) {
    const rule = a['lineRule'] ?? 'auto';
    if (rule === 'exact' || rule === 'exactly') p.line = { rule: 'exact', value: Math.abs(line) / 20 };
    else if (rule === 'atLeast') p.line = { rule: 'atLeast', value: line / 20 };
    else if (line > 0) p.line = { rule: 'auto', value: line / 240 };
  }
}

/** w:tabs: the stops with a position, with their alignment and leader. */
function parseTabs(c: XmlElement): TabStop[] {
  const tabs: TabStop[] = [];
  for (const t of children(c, 'tab')) {
    const pos = twips(t.attrs['pos']);
    if (pos === undefined) continue;
    const stop: TabStop = { pos, align: TAB_ALIGN[t.attrs['val'] ?? 'left'] ?? 'left' };
    const leader = LEADER[t.attrs['leader'] ?? ''];
    if (leader && leader !== 'none') stop.leader = leader;
    tabs.push(stop);
  }
  return tabs;
}

const FRAME_X_ALIGN = new Set(['left', 'center', 'right', 'inside', 'outside']);
const FRAME_Y_ALIGN = new Set(['top', 'center', 'bottom', 'inside', 'outside']);
const FRAME_WRAP = new Set(['around', 'notBeside', 'none', 'tight', 'through', 'auto']);

/**
 * w:framePr. Unstated anchors are the column and the paragraph, as LibreOffice reads them (and as
 * the binary format's frames are without sprmPPc).
 */
function parseFramePr(a: Record<string, string>): ParagraphFrame | undefined {
  const anchor = (v: string | undefined, fallback: 'text') => (v === 'page' || v === 'margin' || v === 'text' ? v : fallback);
  const frame: ParagraphFrame = { x: twips(a['x']) ?? 0, y: twips(a['y']) ?? 0, hAnchor: anchor(a['hAnchor'], 'text'), vAnchor: anchor(a['vAnchor'], 'text') };
  const width = twips(a['w']);
  const height = twips(a['h']);
  if (width) frame.width = width;
  if (height) frame.height = height;
  const rule = a['hRule'];
  if (rule === 'exact' || rule === 'atLeast' || rule === 'auto') frame.heightRule = rule;
  if (FRAME_X_ALIGN.has(a['xAlign'] ?? '')) frame.xAlign = a['xAlign'] as ParagraphFrame['xAlign'];
  if (FRAME_Y_ALIGN.has(a['yAlign'] ?? '')) frame.yAlign = a['yAlign'] as ParagraphFrame['yAlign'];
  if (FRAME_WRAP.has(a['wrap'] ?? '')) frame.wrap = a['wrap'] as ParagraphFrame['wrap'];
  if (a['dropCap'] === 'drop' || a['dropCap'] === 'margin') frame.dropCap = true;
  return frame;
}

/** Stack paragraph layers: later wins, borders merge by side, tab stops accumulate (clear removes). */
export function mergePara(base: ParaProps, over: ParaProps): ParaProps {
  const out: ParaProps = { ...base, ...over };
  if (base.borders && over.borders) out.borders = { ...base.borders, ...over.borders };
  if (base.tabs && over.tabs) {
    const byPos = new Map<number, TabStop>();
    for (const t of base.tabs) byPos.set(t.pos, t);
    for (const t of over.tabs) byPos.set(t.pos, t);
    out.tabs = [...byPos.values()].sort((x, y) => x.pos - y.pos);
  }
  return out;
}

export function mergeRun(base: RunProps, over: RunProps): RunProps {
  return { ...base, ...over };
}

/**
 * The final model RunStyle: sentinels removed, off toggles dropped to keep the model small.
 * `complex`: the style of the run's complex-script text (complex-script.ts): its w:rFonts cs font,
 * w:szCs (its size when it states none), w:bCs and w:iCs. `link`: in place of the run's own.
 */
export function finalRunStyle(p: RunProps, complex = false, link = p.link): RunStyle {
  const s: RunStyle = {};
  const font = complex ? (p.fontCs ?? p.font) : p.font;
  const fontOther = complex ? (p.fontCs ?? p.fontOther) : p.fontOther;
  const size = complex ? (p.sizeCs ?? p.size) : p.size;
  if (font) s.font = font;
  if (fontOther && fontOther !== font) s.fontOther = fontOther;
  if (size) s.size = size;
  if (complex ? p.boldCs : p.bold) s.bold = true;
  if (complex ? p.italicCs : p.italic) s.italic = true;
  if (p.underline && p.underline !== 'none') s.underline = p.underline;
  if (p.strike) s.strike = true;
  if (p.doubleStrike) s.doubleStrike = true;
  if (p.color && p.color !== 'auto') s.color = p.color;
  if (p.highlight && p.highlight !== 'none' && p.highlight !== 'auto') s.highlight = p.highlight;
  if (p.vertAlign === 'superscript' || p.vertAlign === 'subscript') s.vertAlign = p.vertAlign;
  if (p.caps) s.caps = true;
  if (p.smallCaps) s.smallCaps = true;
  if (p.hidden) s.hidden = true;
  if (p.spacing) s.spacing = p.spacing;
  if (p.kern) s.kern = p.kern;
  if (link) s.link = link;
  return s;
}

/** Tab stops that remain after 'clear' stops removed inherited ones. */
export function finalTabs(tabs: TabStop[] | undefined): TabStop[] | undefined {
  const kept = tabs?.filter((t) => t.align !== 'clear');
  return kept && kept.length ? kept : undefined;
}
