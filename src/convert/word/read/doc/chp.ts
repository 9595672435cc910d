/**
 * Character properties (CHP): the state that character sprms modify, and its conversion to the
 * model's RunStyle. Toggle properties (bold, italic...) take 0/1, or 0x80/0x81 meaning "the style's
 * value" / "the opposite of the style's value", so applying needs the style's CHP at hand.
 */
import type { RunStyle } from '../../model/index';
import { colorRef, icoColor, shd, shd80 } from './colors';
import type { FontEntry } from './fonts';
import { Op, opI16, opU16, opU32, opU8, parseSprms } from './sprm';

export interface Chp {
  istd: number;
  ftcAscii: number;
  ftcOther: number;
  hps: number;
  bold: boolean;
  italic: boolean;
  strike: boolean;
  dstrike: boolean;
  outline: boolean;
  /** Complex-script formatting (sprmCFBoldBi, sprmCFItalicBi, sprmCFtcBi, sprmCHpsBi): see complex-script.ts. */
  boldBi: boolean;
  italicBi: boolean;
  ftcBi?: number;
  hpsBi?: number;
  smallCaps: boolean;
  caps: boolean;
  vanish: boolean;
  kul: number;
  ico: number;
  cv?: string;
  highlight: number;
  shading?: string;
  iss: number;
  dxaSpace: number;
  /** sprmCHpsKern: kerning from this size up, half-points (0: none). */
  hpsKern: number;
  fSpec: boolean;
  fObj: boolean;
  fOle2: boolean;
  fData: boolean;
  /** Tracked deletion and insertion (sprmCFRMarkDel, sprmCFRMarkIns), and their authors' indexes in SttbfRMark. */
  fRMarkDel: boolean;
  fRMarkIns: boolean;
  ibstRMark?: number;
  ibstRMarkDel?: number;
  fFldVanish: boolean;
  /** sprmCPicLocation: offset of the PICF in the Data stream (or of a field's form data). */
  fcPic?: number;
  symbol?: { ftc: number; char: number };
}

export function defaultChp(ftc = 0): Chp {
  return {
    istd: 10, ftcAscii: ftc, ftcOther: ftc, hps: 20, bold: false, italic: false, boldBi: false, italicBi: false, strike: false, dstrike: false,
    outline: false, smallCaps: false, caps: false, vanish: false, kul: 0, ico: 0, highlight: 0, iss: 0,
    dxaSpace: 0, hpsKern: 0, fSpec: false, fObj: false, fOle2: false, fData: false, fRMarkDel: false, fRMarkIns: false, fFldVanish: false,
  };
}

type Toggle = 'bold' | 'italic' | 'boldBi' | 'italicBi' | 'strike' | 'outline' | 'smallCaps' | 'caps' | 'vanish';

const TOGGLES: Record<number, Toggle> = {
  [Op.CFBold]: 'bold', [Op.CFItalic]: 'italic', [Op.CFBoldBi]: 'boldBi', [Op.CFItalicBi]: 'italicBi', [Op.CFStrike]: 'strike', [Op.CFOutline]: 'outline',
  [Op.CFSmallCaps]: 'smallCaps', [Op.CFCaps]: 'caps', [Op.CFVanish]: 'vanish',
};

export interface ChpContext {
  word6: boolean;
  /** The CHPX grpprls of a character style and its bases, base first (for sprmCIstd). */
  charStyleGrpprls(istd: number): Uint8Array[];
  /** The CHP the paragraph style gives: the base for 0x80/0x81 toggles and sprmCPlain. */
  styleBase: Chp;
}

/** Applies a character grpprl to chp in place. */
export function applyChpx(chp: Chp, grpprl: Uint8Array, ctx: ChpContext): void {
  for (const s of parseSprms(grpprl, ctx.word6)) {
    const toggle = TOGGLES[s.op];
    if (toggle) {
      const v = opU8(s);
      chp[toggle] = v === 0 ? false : v === 1 ? true : v === 0x80 ? ctx.styleBase[toggle] : v === 0x81 ? !ctx.styleBase[toggle] : chp[toggle];
      continue;
    }
    switch (s.op) {
      case Op.CIstd: {
        const istd = opU16(s);
        chp.istd = istd;
        // The character style's own sprms apply at this point; they never name a character style
        // themselves, so this cannot recurse further.
        if (istd !== 10) for (const g of ctx.charStyleGrpprls(istd)) applyChpx(chp, g, { ...ctx, charStyleGrpprls: () => [] });
        break;
      }
      case Op.CPlain:
        Object.assign(chp, { ...ctx.styleBase, fSpec: chp.fSpec, fcPic: chp.fcPic });
        break;
      case Op.CFDStrike: chp.dstrike = opU8(s) === 1; break;
      case Op.CHps: chp.hps = opU16(s); break;
      case Op.CHpsBi: chp.hpsBi = opU16(s); break;
      case Op.CFtcBi: chp.ftcBi = opU16(s); break;
      case Op.CKul: chp.kul = opU8(s); break;
      case Op.CIco: chp.ico = opU8(s); chp.cv = undefined; break;
      case Op.CCv: chp.cv = colorRef(s.operand, 0) ?? undefined; if (!chp.cv) chp.ico = 0; break;
      case Op.CHighlight: chp.highlight = opU8(s); break;
      case Op.CShd80: chp.shading = shd80(opU16(s)); break;
      case Op.CShd: chp.shading = shd(s.operand, 0); break;
      case Op.CIss: chp.iss = opU8(s); break;
      case Op.CDxaSpace: chp.dxaSpace = opI16(s); break;
      case Op.CHpsKern: chp.hpsKern = opU16(s); break;
      case Op.CRgFtc0:
        chp.ftcAscii = opU16(s);
        // Word 6 has a single font per run.
        if (ctx.word6) chp.ftcOther = chp.ftcAscii;
        break;
      case Op.CRgFtc2: chp.ftcOther = opU16(s); break;
      case Op.CFSpec: chp.fSpec = opU8(s) === 1; break;
      case Op.CFObj: chp.fObj = opU8(s) === 1; break;
      case Op.CFOle2: chp.fOle2 = opU8(s) === 1; break;
      case Op.CFData: chp.fData = opU8(s) === 1; break;
      case Op.CFRMarkDel: chp.fRMarkDel = opU8(s) === 1; break;
      case Op.CFRMarkIns: chp.fRMarkIns = opU8(s) === 1; break;
      case Op.CIbstRMark: chp.ibstRMark = opU16(s); break;
      case Op.CIbstRMarkDel: chp.ibstRMarkDel = opU16(s); break;
      case Op.CFFldVanish: chp.fFldVanish = opU8(s) === 1; break;
      case Op.CPicLocation: chp.fcPic = opU32(s); break;
      case Op.CSymbol: chp.symbol = { ftc: opU16(s), char: opU16(s, 2) }; break;
    }
  }
}

const UNDERLINES: Record<number, RunStyle['underline']> = {
  1: 'single', 2: 'single', 3: 'double', 4: 'dotted', 6: 'single', 7: 'dashed', 9: 'dashed', 10: 'dotted',
  11: 'wave', 20: 'dotted', 23: 'dashed', 25: 'dashed', 26: 'dotted', 27: 'wave', 39: 'dashed', 43: 'wave', 55: 'dashed',
};

/** The style of a run's complex-script text (its size when it states no sprmCHpsBi). */
export function complexRunStyle(chp: Chp, fonts: FontEntry[]): RunStyle {
  const ftc = chp.ftcBi ?? chp.ftcOther;
  return runStyle({ ...chp, ftcAscii: chp.ftcBi ?? chp.ftcAscii, ftcOther: ftc, hps: chp.hpsBi ?? chp.hps, bold: chp.boldBi, italic: chp.italicBi }, fonts);
}

export function runStyle(chp: Chp, fonts: FontEntry[]): RunStyle {
  const style: RunStyle = {};
  const font = fonts[chp.ftcAscii]?.name;
  if (font) style.font = font;
  const other = fonts[chp.ftcOther]?.name;
  if (other && other !== font) style.fontOther = other;
  style.size = chp.hps / 2;
  if (chp.bold) style.bold = true;
  if (chp.italic) style.italic = true;
  if (chp.kul) style.underline = UNDERLINES[chp.kul] ?? 'single';
  if (chp.strike) style.strike = true;
  if (chp.dstrike) style.doubleStrike = true;
  const color = chp.cv ?? icoColor(chp.ico);
  if (color) style.color = color;
  const highlight = icoColor(chp.highlight) ?? chp.shading;
  if (highlight) style.highlight = highlight;
  if (chp.iss === 1) style.vertAlign = 'superscript';
  else if (chp.iss === 2) style.vertAlign = 'subscript';
  if (chp.caps) style.caps = true;
  if (chp.smallCaps) style.smallCaps = true;
  if (chp.vanish) style.hidden = true;
  if (chp.dxaSpace) style.spacing = chp.dxaSpace / 20;
  if (chp.hpsKern) style.kern = chp.hpsKern / 2;
  return style;
}
