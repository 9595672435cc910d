/**
 * word/styles.xml: document defaults and the style sheet, resolved through basedOn chains.
 *
 * Resolution order for a run, as Word applies it: docDefaults → (table style) → paragraph style chain
 * → character style chain → direct formatting. Each chain is resolved once and cached; styles are
 * looked up by styleId. Latent styles only describe UI behaviour and are ignored.
 */
import type { Border } from '../../model/index';
import { attr, child, children, type XmlElement } from '../../../../codecs/xml';
import { mergePara, mergeRun, parseBorders, parsePPr, parseRPr, parseShading, twips, type ParaProps, type RunProps } from './props';
import type { Theme } from '../../../office/theme';

export type CellMargins = { top?: number; right?: number; bottom?: number; left?: number };

export type TableBorderSide = 'top' | 'bottom' | 'left' | 'right' | 'insideH' | 'insideV';
export const TABLE_BORDER_SIDES = ['top', 'bottom', 'left', 'right', 'insideH', 'insideV'] as const;

/** What a table style (or one of its conditional parts) contributes. */
export interface TableLayer {
  pPr: ParaProps;
  rPr: RunProps;
  tableBorders?: Partial<Record<TableBorderSide, Border>>;
  cellBorders?: Partial<Record<TableBorderSide, Border>>;
  cellMargins?: CellMargins;
  shading?: string;
  vAlign?: 'top' | 'center' | 'bottom';
}

export interface ResolvedTableStyle {
  whole: TableLayer;
  /** Conditional formatting by tblStylePr type (firstRow, lastRow, firstCol, band1Horz, nwCell...). */
  conditional: Map<string, TableLayer>;
}

interface StyleDef {
  type: string;
  basedOn?: string;
  pPr: ParaProps;
  rPr: RunProps;
  table?: ResolvedTableStyle;
  isDefault: boolean;
}

export function parseCellMargins(el: XmlElement | undefined): CellMargins | undefined {
  if (!el) return undefined;
  const m: CellMargins = {};
  const side = (name: string, alt: string) => {
    const e = child(el, name) ?? child(el, alt);
    if (!e) return undefined;
    const type = e.attrs['type'] ?? 'dxa';
    return type === 'dxa' || type === 'auto' ? twips(e.attrs['w']) : type === 'nil' ? 0 : undefined;
  };
  const top = side('top', 'top');
  const bottom = side('bottom', 'bottom');
  const left = side('left', 'start');
  const right = side('right', 'end');
  if (top !== undefined) m.top = top;
  if (bottom !== undefined) m.bottom = bottom;
  if (left !== undefined) m.left = left;
  if (right !== undefined) m.right = right;
  return m;
}

export function parseTableLayer(el: XmlElement, theme: Theme): TableLayer {
  const tblPr = child(el, 'tblPr');
  const tcPr = child(el, 'tcPr');
  const layer: TableLayer = { pPr: parsePPr(child(el, 'pPr'), theme), rPr: parseRPr(child(el, 'rPr'), theme) };
  const tb = parseBorders(child(tblPr, 'tblBorders'), theme, TABLE_BORDER_SIDES);
  if (tb) layer.tableBorders = tb;
  const cb = parseBorders(child(tcPr, 'tcBorders'), theme, TABLE_BORDER_SIDES);
  if (cb) layer.cellBorders = cb;
  const cm = parseCellMargins(child(tblPr, 'tblCellMar'));
  if (cm) layer.cellMargins = cm;
  const shd = parseShading(child(tcPr, 'shd'), theme) ?? parseShading(child(tblPr, 'shd'), theme);
  if (shd) layer.shading = shd;
  const va = attr(child(tcPr, 'vAlign'), 'val');
  if (va === 'top' || va === 'center' || va === 'bottom') layer.vAlign = va;
  return layer;
}

export function mergeTableLayer(base: TableLayer, over: TableLayer): TableLayer {
  const out: TableLayer = { pPr: mergePara(base.pPr, over.pPr), rPr: mergeRun(base.rPr, over.rPr) };
  const tb = base.tableBorders || over.tableBorders ? { ...base.tableBorders, ...over.tableBorders } : undefined;
  if (tb) out.tableBorders = tb;
  const cb = base.cellBorders || over.cellBorders ? { ...base.cellBorders, ...over.cellBorders } : undefined;
  if (cb) out.cellBorders = cb;
  const cm = base.cellMargins || over.cellMargins ? { ...base.cellMargins, ...over.cellMargins } : undefined;
  if (cm) out.cellMargins = cm;
  const shading = over.shading ?? base.shading;
  if (shading) out.shading = shading;
  const vAlign = over.vAlign ?? base.vAlign;
  if (vAlign) out.vAlign = vAlign;
  return out;
}

export class Styles {
  /** docDefaults run and paragraph properties. */
  readonly docRun: RunProps;
  readonly docPara: ParaProps;
  readonly defaultParagraphStyle?: string;
  readonly defaultTableStyle?: string;
  private readonly defs = new Map<string, StyleDef>();
  private readonly paraCache = new Map<string, { pPr: ParaProps; rPr: RunProps }>();
  private readonly charCache = new Map<string, RunProps>();
  private readonly tableCache = new Map<string, ResolvedTableStyle>();

  constructor(root: XmlElement | undefined, theme: Theme) {
    const defaults = child(root, 'docDefaults');
    this.docRun = parseRPr(child(child(defaults, 'rPrDefault'), 'rPr'), theme);
    this.docPara = parsePPr(child(child(defaults, 'pPrDefault'), 'pPr'), theme);
    // Without a stated default, Word uses Times New Roman 10 pt (ECMA-376 17.3.2.26/17.3.2.38 defaults).
    if (!this.docRun.font) this.docRun.font = 'Times New Roman';
    if (!this.docRun.size) this.docRun.size = 10;
    for (const s of children(root, 'style')) {
      const id = s.attrs['styleId'];
      if (!id) continue;
      const type = s.attrs['type'] ?? 'paragraph';
      const isDefault = s.attrs['default'] === '1' || s.attrs['default'] === 'true';
      const def: StyleDef = {
        type,
        pPr: parsePPr(child(s, 'pPr'), theme),
        rPr: parseRPr(child(s, 'rPr'), theme),
        isDefault,
      };
      const basedOn = attr(child(s, 'basedOn'), 'val');
      if (basedOn && basedOn !== id) def.basedOn = basedOn;
      if (type === 'table') {
        const conditional = new Map<string, TableLayer>();
        for (const c of children(s, 'tblStylePr')) {
          if (c.attrs['type']) conditional.set(c.attrs['type'], parseTableLayer(c, theme));
        }
        def.table = { whole: parseTableLayer(s, theme), conditional };
      }
      // A style id defined twice: Word keeps the first.
      if (!this.defs.has(id)) this.defs.set(id, def);
      if (isDefault && type === 'paragraph' && !this.defaultParagraphStyle) this.defaultParagraphStyle = id;
      if (isDefault && type === 'table' && !this.defaultTableStyle) this.defaultTableStyle = id;
    }
    if (!this.defaultParagraphStyle && this.defs.get('Normal')?.type === 'paragraph') this.defaultParagraphStyle = 'Normal';
  }

  has(id: string, type: string): boolean {
    return this.defs.get(id)?.type === type;
  }

  /** A paragraph style's properties with its basedOn chain applied (docDefaults not included). */
  paragraphStyle(id: string | undefined): { pPr: ParaProps; rPr: RunProps } {
    const sid = id && this.has(id, 'paragraph') ? id : this.defaultParagraphStyle;
    if (!sid) return { pPr: {}, rPr: {} };
    return this.resolvePara(sid, 0);
  }

  private resolvePara(id: string, depth: number): { pPr: ParaProps; rPr: RunProps } {
    const cached = this.paraCache.get(id);
    if (cached) return cached;
    const def = this.defs.get(id);
    if (!def) return { pPr: {}, rPr: {} };
    // Depth guards against basedOn cycles in damaged documents.
    const base = def.basedOn && depth < 20 ? this.resolvePara(def.basedOn, depth + 1) : { pPr: {}, rPr: {} };
    const own = { ...def.pPr };
    delete own.pStyle;
    const out = { pPr: mergePara(base.pPr, own), rPr: mergeRun(base.rPr, def.rPr) };
    this.paraCache.set(id, out);
    return out;
  }

  /** A character style's run properties with its basedOn chain applied. */
  characterStyle(id: string | undefined): RunProps {
    if (!id || !this.defs.has(id)) return {};
    return this.resolveChar(id, 0);
  }

  private resolveChar(id: string, depth: number): RunProps {
    const cached = this.charCache.get(id);
    if (cached) return cached;
    const def = this.defs.get(id);
    if (!def) return {};
    const base = def.basedOn && depth < 20 ? this.resolveChar(def.basedOn, depth + 1) : {};
    const own = { ...def.rPr };
    delete own.rStyle;
    const out = mergeRun(base, own);
    this.charCache.set(id, out);
    return out;
  }

  /** The numbering a numbering style (w:numStyleLink target) points at. */
  numberingStyleNumId(id: string): string | undefined {
    let def = this.defs.get(id);
    for (let i = 0; def && i < 20; i++) {
      if (def.pPr.numId) return def.pPr.numId;
      def = def.basedOn ? this.defs.get(def.basedOn) : undefined;
    }
    return undefined;
  }

  /** A table style with its basedOn chain merged (or the document's default table style). */
  tableStyle(id: string | undefined): ResolvedTableStyle | undefined {
    const sid = id && this.has(id, 'table') ? id : this.defaultTableStyle;
    return sid ? this.resolveTable(sid, 0) : undefined;
  }

  private resolveTable(id: string, depth: number): ResolvedTableStyle | undefined {
    const cached = this.tableCache.get(id);
    if (cached) return cached;
    const def = this.defs.get(id);
    if (!def?.table) return undefined;
    const base = def.basedOn && depth < 20 ? this.resolveTable(def.basedOn, depth + 1) : undefined;
    let out = def.table;
    if (base) {
      const conditional = new Map(base.conditional);
      for (const [k, v] of def.table.conditional) {
        const b = conditional.get(k);
        conditional.set(k, b ? mergeTableLayer(b, v) : v);
      }
      out = { whole: mergeTableLayer(base.whole, def.table.whole), conditional };
    }
    this.tableCache.set(id, out);
    return out;
  }
}
