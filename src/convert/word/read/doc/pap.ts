/**
 * Paragraph properties (PAP): the state paragraph sprms modify, and its conversion to the model's
 * ParagraphProps. The table sprms carried by a row's end mark are collected raw (tapSprms) and read
 * by tables.ts.
 */
import type { Border, ParagraphFrame, ParagraphProps, TabStop } from '../../model/index';
import { i16, u8 } from '../../../../codecs/binary';
import { brc, brc80, brc10, shd, shd80 } from './colors';
import { Op, opI16, opU16, opU8, parseSprms, type Sprm } from './sprm';

export interface Pap {
  istd: number;
  jc: number;
  dxaLeft: number;
  dxaRight: number;
  dxaLeft1: number;
  dyaBefore: number;
  dyaAfter: number;
  /** The space before (after) is auto spacing (sprmPFDyaBeforeAuto / AfterAuto), whatever dyaBefore (dyaAfter) says. */
  autoBefore?: boolean;
  autoAfter?: boolean;
  lspd: { dyaLine: number; fMult: boolean };
  keep: boolean;
  keepFollow: boolean;
  /** sprmPFWidowControl: widow and orphan control (off unless a style or the paragraph sets it). */
  widowControl: boolean;
  /** Right-to-left paragraph (sprmPFBiDi). */
  bidi: boolean;
  /** jc came from sprmPJc80, which is physical (left is left); sprmPJc is logical (left is the start side). */
  jcPhysical: boolean;
  pageBreakBefore: boolean;
  contextualSpacing: boolean;
  inTable: boolean;
  ttp: boolean;
  itap: number;
  innerCell: boolean;
  innerTtp: boolean;
  ilfo: number;
  ilvl: number;
  outLvl: number;
  shading?: string;
  borders: { top?: Border; left?: Border; bottom?: Border; right?: Border; between?: Border };
  tabs: TabStop[];
  /** Table (TAP) sprms seen on this paragraph, in order: meaningful on a row's end mark. */
  tapSprms: Sprm[];
  /** The frame the paragraph is in, when a frame sprm applies (sprmPPc, sprmPDxaAbs...). */
  frame?: FramePap;
}

/** A frame as the binary format gives it: position codes, positions and size in twips. */
interface FramePap {
  /** Vertical anchor: 0 margin, 1 page, 2 paragraph. Horizontal: 0 column, 1 margin, 2 page. */
  pcVert: number;
  pcHorz: number;
  /** Twips, or an alignment: x 0 left, -4 centre, -8 right, -12 inside, -16 outside; y -4 top, -8 centre, -12 bottom, -16 inside, -20 outside. */
  dxaAbs: number;
  dyaAbs: number;
  dxaWidth: number;
  /** Height in twips (0: its text's), at least that when minHeight. */
  height: number;
  minHeight: boolean;
  /** sprmPWr: 0 auto, 1 not beside, 2 around, 3 none, 4 tight, 5 through. */
  wr: number;
  dropCap: boolean;
}

// Without sprmPPc a frame is placed from the column and its paragraph (as LibreOffice reads it).
const noFrame = (): FramePap => ({ pcVert: 2, pcHorz: 0, dxaAbs: 0, dyaAbs: 0, dxaWidth: 0, height: 0, minHeight: false, wr: 0, dropCap: false });

/** Word 6 numbers of the frame sprms (Word 97's are Op.PPc...). */
const WORD6_FRAME: Record<number, number> = {
  [0x10000 + 26]: Op.PDxaAbs, [0x10000 + 27]: Op.PDyaAbs, [0x10000 + 28]: Op.PDxaWidth, [0x10000 + 29]: Op.PPc,
  [0x10000 + 37]: Op.PWr, [0x10000 + 45]: Op.PWHeightAbs, [0x10000 + 46]: Op.PDcs,
};

function applyFrameSprm(pap: Pap, op: number, s: Sprm): void {
  const f = (pap.frame ??= noFrame());
  switch (op) {
    case Op.PPc: {
      const pc = opU8(s);
      // 3 in either field: that anchor is left as it was.
      if (((pc >> 4) & 3) !== 3) f.pcVert = (pc >> 4) & 3;
      if (((pc >> 6) & 3) !== 3) f.pcHorz = (pc >> 6) & 3;
      break;
    }
    case Op.PDxaAbs: f.dxaAbs = opI16(s); break;
    case Op.PDyaAbs: f.dyaAbs = opI16(s); break;
    case Op.PDxaWidth: f.dxaWidth = opI16(s); break;
    case Op.PWr: f.wr = opU8(s); break;
    case Op.PWHeightAbs: {
      const v = opU16(s);
      f.height = v & 0x7fff;
      f.minHeight = (v & 0x8000) !== 0;
      break;
    }
    case Op.PDcs: f.dropCap = (opU16(s) & 7) !== 0; break;
  }
}

const FRAME_OPS = new Set<number>([Op.PPc, Op.PDxaAbs, Op.PDyaAbs, Op.PDxaWidth, Op.PWr, Op.PWHeightAbs, Op.PDcs]);

/** The model's frame for the binary one. */
function paragraphFrame(f: FramePap): ParagraphFrame {
  const X_ALIGN = { [0]: 'left', [-4]: 'center', [-8]: 'right', [-12]: 'inside', [-16]: 'outside' } as const;
  const Y_ALIGN = { [-4]: 'top', [-8]: 'center', [-12]: 'bottom', [-16]: 'inside', [-20]: 'outside' } as const;
  const WRAP = ['auto', 'notBeside', 'around', 'none', 'tight', 'through'] as const;
  const xAlign = X_ALIGN[f.dxaAbs as keyof typeof X_ALIGN];
  const yAlign = Y_ALIGN[f.dyaAbs as keyof typeof Y_ALIGN];
  const frame: ParagraphFrame = {
    x: xAlign ? 0 : f.dxaAbs / 20,
    y: yAlign ? 0 : f.dyaAbs / 20,
    hAnchor: (['text', 'margin', 'page'] as const)[f.pcHorz] ?? 'text',
    vAnchor: (['margin', 'page', 'text'] as const)[f.pcVert] ?? 'margin',
  };
  if (xAlign && xAlign !== 'left') frame.xAlign = xAlign;
  if (yAlign) frame.yAlign = yAlign;
  if (f.dxaWidth > 0) frame.width = f.dxaWidth / 20;
  if (f.height > 0) {
    frame.height = f.height / 20;
    frame.heightRule = f.minHeight ? 'atLeast' : 'exact';
  }
  const wrap = WRAP[f.wr];
  if (wrap) frame.wrap = wrap;
  if (f.dropCap) frame.dropCap = true;
  return frame;
}

export function defaultPap(): Pap {
  return {
    istd: 0, jc: 0, dxaLeft: 0, dxaRight: 0, dxaLeft1: 0, dyaBefore: 0, dyaAfter: 0,
    lspd: { dyaLine: 240, fMult: true }, keep: false, keepFollow: false, widowControl: false, bidi: false, jcPhysical: false, pageBreakBefore: false,
    contextualSpacing: false, inTable: false, ttp: false, itap: 0, innerCell: false, innerTtp: false,
    ilfo: 0, ilvl: 0, outLvl: 9, borders: {}, tabs: [], tapSprms: [],
  };
}

export function clonePap(p: Pap): Pap {
  return { ...p, lspd: { ...p.lspd }, borders: { ...p.borders }, tabs: [...p.tabs], tapSprms: [...p.tapSprms], frame: p.frame && { ...p.frame } };
}

const TAB_ALIGN: TabStop['align'][] = ['left', 'center', 'right', 'decimal', 'left', 'left', 'left', 'left'];
const TAB_LEADER: NonNullable<TabStop['leader']>[] = ['none', 'dot', 'hyphen', 'underscore', 'underscore', 'dot', 'none', 'none'];

/** sprmPChgTabs / sprmPChgTabsPapx: delete some stops, add others. */
function changeTabs(pap: Pap, s: Sprm, withClose: boolean): void {
  const g = s.operand;
  let o = 0;
  const del = u8(g, o++);
  const deleted: number[] = [];
  for (let i = 0; i < del; i++) deleted.push(i16(g, o + 2 * i));
  const close: number[] = [];
  if (withClose) for (let i = 0; i < del; i++) close.push(i16(g, o + 2 * del + 2 * i));
  o += del * (withClose ? 4 : 2);
  const add = u8(g, o++);
  const tabs = pap.tabs.filter(
    (t) => !deleted.some((d, i) => Math.abs(t.pos * 20 - d) <= Math.max(1, close[i] ?? 0)),
  );
  for (let i = 0; i < add; i++) {
    const pos = i16(g, o + 2 * i);
    const tbd = u8(g, o + 2 * add + i);
    const jc = tbd & 7;
    if (jc === 4) continue; // bar tab: a vertical line, not a stop
    const stop: TabStop = { pos: pos / 20, align: TAB_ALIGN[jc]! };
    const leader = TAB_LEADER[(tbd >> 3) & 7]!;
    if (leader !== 'none') stop.leader = leader;
    const at = tabs.findIndex((t) => t.pos === stop.pos);
    if (at >= 0) tabs.splice(at, 1);
    tabs.push(stop);
  }
  pap.tabs = tabs.sort((a, b) => a.pos - b.pos);
}

function border(s: Sprm, word6: boolean): Border | undefined {
  if (word6) return brc10(opU16(s));
  return s.operand.length >= 8 ? brc(s.operand, s.operand.length === 8 ? 0 : 1) : brc80(s.operand, 0);
}

const BORDER_OPS: Record<number, keyof Pap['borders']> = {
  [Op.PBrcTop80]: 'top', [Op.PBrcLeft80]: 'left', [Op.PBrcBottom80]: 'bottom', [Op.PBrcRight80]: 'right',
  [Op.PBrcBetween80]: 'between', [Op.PBrcTop]: 'top', [Op.PBrcLeft]: 'left', [Op.PBrcBottom]: 'bottom',
  [Op.PBrcRight]: 'right', [Op.PBrcBetween]: 'between',
};

/** Word 6 border sprms 38..42 (BRC, 2 bytes). */
const WORD6_BORDERS: Record<number, keyof Pap['borders']> = {
  [0x10000 + 38]: 'top', [0x10000 + 39]: 'left', [0x10000 + 40]: 'bottom', [0x10000 + 41]: 'right', [0x10000 + 42]: 'between',
};

export function applyPapx(pap: Pap, grpprl: Uint8Array, word6: boolean): void {
  for (const s of parseSprms(grpprl, word6)) {
    const side = BORDER_OPS[s.op] ?? WORD6_BORDERS[s.op];
    if (side) {
      pap.borders[side] = border(s, word6 || s.op >= 0x10000);
      continue;
    }
    const frameOp = WORD6_FRAME[s.op] ?? (FRAME_OPS.has(s.op) ? s.op : undefined);
    if (frameOp !== undefined) {
      applyFrameSprm(pap, frameOp, s);
      continue;
    }
    switch (s.op) {
      case Op.PIstd: pap.istd = opU16(s); break;
      case Op.PJc80:
      case Op.PJc:
        pap.jc = opU8(s);
        pap.jcPhysical = s.op === Op.PJc80;
        break;
      case Op.PFBiDi: pap.bidi = opU8(s) !== 0; break;
      case Op.PFKeep: pap.keep = opU8(s) !== 0; break;
      case Op.PFKeepFollow: pap.keepFollow = opU8(s) !== 0; break;
      case Op.PFWidowControl: pap.widowControl = opU8(s) !== 0; break;
      case Op.PFPageBreakBefore: pap.pageBreakBefore = opU8(s) !== 0; break;
      case Op.PIlvl: pap.ilvl = opU8(s); break;
      case Op.PIlfo: pap.ilfo = opI16(s); break;
      case Op.PDxaRight80:
      case Op.PDxaRight: pap.dxaRight = opI16(s); break;
      case Op.PDxaLeft80:
      case Op.PDxaLeft: pap.dxaLeft = opI16(s); break;
      case Op.PDxaLeft180:
      case Op.PDxaLeft1: pap.dxaLeft1 = opI16(s); break;
      case Op.PDyaLine: pap.lspd = { dyaLine: opI16(s), fMult: opI16(s, 2) !== 0 }; break;
      case Op.PDyaBefore: pap.dyaBefore = opU16(s); break;
      case Op.PDyaAfter: pap.dyaAfter = opU16(s); break;
      case Op.PFDyaBeforeAuto: pap.autoBefore = opU8(s) !== 0; break;
      case Op.PFDyaAfterAuto: pap.autoAfter = opU8(s) !== 0; break;
      case Op.PChgTabs: changeTabs(pap, s, true); break;
      case Op.PChgTabsPapx: changeTabs(pap, s, false); break;
      case Op.PFInTable: pap.inTable = opU8(s) !== 0; break;
      case Op.PFTtp: pap.ttp = opU8(s) !== 0; break;
      case Op.PItap: pap.itap = opU16(s); break;
      case Op.PFInnerTableCell: pap.innerCell = opU8(s) !== 0; break;
      case Op.PFInnerTtp: pap.innerTtp = opU8(s) !== 0; break;
      case Op.POutLvl: pap.outLvl = opU8(s); break;
      case Op.PFContextualSpacing: pap.contextualSpacing = opU8(s) !== 0; break;
      case Op.PShd80: pap.shading = shd80(opU16(s)); break;
      case Op.PShd: pap.shading = shd(s.operand, 0); break;
      default:
        // Table sprms (sgc 5: bits 10-12 of the opcode) ride on the row's end mark.
        if (s.op < 0x10000 && ((s.op >> 10) & 7) === 5) pap.tapSprms.push(s);
        else if (s.op >= 0x10000 + 182 && s.op <= 0x10000 + 200) pap.tapSprms.push(s);
    }
  }
}

export function paragraphProps(pap: Pap): ParagraphProps {
  const p: ParagraphProps = {};
  // jc 3 (both) and the Arabic/Thai justification variants are justified.
  // The model's left and right are logical (see ParagraphProps.bidi): a physical jc swaps them in a right-to-left paragraph.
  const jc = pap.bidi && pap.jcPhysical && (pap.jc === 0 || pap.jc === 2) ? 2 - pap.jc : pap.jc;
  const align = (['left', 'center', 'right', 'justify', 'justify', 'center', 'justify', 'justify', 'justify', 'justify'] as const)[jc];
  if (align && align !== 'left') p.align = align;
  if (pap.dxaLeft) p.indentLeft = pap.dxaLeft / 20;
  if (pap.dxaRight) p.indentRight = pap.dxaRight / 20;
  if (pap.dxaLeft1) p.firstLine = pap.dxaLeft1 / 20;
  if (pap.dyaBefore) p.spaceBefore = pap.dyaBefore / 20;
  if (pap.dyaAfter) p.spaceAfter = pap.dyaAfter / 20;
  // Auto spacing: 14 pt, as in DOCX (see ParagraphProps.autoSpaceBefore).
  if (pap.autoBefore) Object.assign(p, { spaceBefore: 14, autoSpaceBefore: true });
  if (pap.autoAfter) Object.assign(p, { spaceAfter: 14, autoSpaceAfter: true });
  const { dyaLine, fMult } = pap.lspd;
  if (fMult) {
    if (dyaLine !== 240 && dyaLine > 0) p.line = { rule: 'auto', value: dyaLine / 240 };
  } else if (dyaLine > 0) p.line = { rule: 'atLeast', value: dyaLine / 20 };
  else if (dyaLine < 0) p.line = { rule: 'exact', value: -dyaLine / 20 };
  if (pap.contextualSpacing) p.contextualSpacing = true;
  if (pap.pageBreakBefore) p.pageBreakBefore = true;
  if (pap.keepFollow) p.keepNext = true;
  if (pap.keep) p.keepLines = true;
  if (pap.widowControl) p.widowControl = true;
  if (pap.bidi) p.bidi = true;
  if (pap.shading) p.shading = pap.shading;
  const b = Object.fromEntries(Object.entries(pap.borders).filter(([, v]) => v && v.style !== 'none'));
  if (Object.keys(b).length) p.borders = b;
  if (pap.tabs.length) p.tabs = pap.tabs;
  if (pap.outLvl < 9) p.outlineLevel = pap.outLvl;
  if (pap.frame) p.frame = paragraphFrame(pap.frame);
  return p;
}
