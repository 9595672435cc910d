/**
 * Fields in a .doc story: 0x13 begins one, 0x14 separates its instruction from its cached result,
 * 0x15 ends it. Fields nest and may span paragraphs, so their stack is kept per story (story.ts).
 * The page-number fields the layout computes replace their cached result; a FORMCHECKBOX shows its
 * state from the FFData in the Data stream; a HYPERLINK links its result.
 */
import { FIELD_NESTING_MAX } from '../../model/limits';
import type { Inline, RunStyle } from '../../model/index';
import { u16, u32 } from '../../../../codecs/binary';
import type { Chp } from './chp';

export interface FieldFrame {
  instr: string;
  inResult: boolean;
  resolved: boolean;
  /** Fields the layout computes: their cached result is not shown. */
  computed?: 'PAGE' | 'NUMPAGES' | 'SECTIONPAGES';
  link?: string;
  /** Form field data (FFData in the Data stream) of a FORMCHECKBOX/FORMTEXT field. */
  formData?: number;
}

/** Fields begun past FIELD_NESTING_MAX (docx/fields.ts): whether each is still in its instruction, and how many are. */
export interface DeeperFields {
  instr: boolean[];
  inInstr: number;
}

/** What the field characters need of the paragraph being read. */
export interface FieldHost {
  /** The Data stream, where form fields keep their FFData. */
  data?: Uint8Array;
  push(inline: Inline): void;
  /** The character `code` as text in the run's font. */
  decode(code: number, chp: Chp): string;
}

/**
 * Follows the field characters and instruction text: true when the character belongs to a field's
 * machinery (a field mark, its instruction, a hidden result) rather than to the text shown.
 */
export function takenByFields(code: number, chp: Chp, style: RunStyle, fields: FieldFrame[], deeper: DeeperFields, host: FieldHost): boolean {
  if (code === 0x13) {
    if (fields.length < FIELD_NESTING_MAX) fields.push({ instr: '', inResult: false, resolved: false });
    else (deeper.instr.push(true), deeper.inInstr++);
    return true;
  }
  if ((code === 0x14 || code === 0x15) && deeper.instr.length) {
    // A field nested past the limit: its instruction hidden, its result shown as text.
    const inInstr = code === 0x14 ? deeper.instr[deeper.instr.length - 1] : deeper.instr.pop();
    if (code === 0x14) deeper.instr[deeper.instr.length - 1] = false;
    if (inInstr) deeper.inInstr--;
    return true;
  }
  if (deeper.inInstr) return true;
  if (code === 0x14 || code === 0x15) {
    const f = fields[fields.length - 1];
    if (!f) return true;
    if (!f.resolved) resolveField(f, fields, style, host);
    if (code === 0x14) f.inResult = true;
    else fields.pop();
    return true;
  }
  const top = fields[fields.length - 1];
  if (top && !top.inResult && code === 0x01 && chp.fData && chp.fcPic !== undefined) top.formData = chp.fcPic;
  if (top && !top.inResult) {
    if (code >= 0x20 && fields.every((f) => f === top || f.inResult)) top.instr += host.decode(code, chp);
    return true;
  }
  return !fields.every((f) => f.inResult && !f.computed);
}

/** The target of the innermost HYPERLINK field around the text. */
export function fieldLink(fields: FieldFrame[]): string | undefined {
  return [...fields].reverse().find((f) => f.link)?.link;
}

/** At the end of its instruction, what the field `f` (the innermost) means. */
function resolveField(f: FieldFrame, fields: FieldFrame[], style: RunStyle, host: FieldHost): void {
  f.resolved = true;
  const m = /^\s*([A-Za-z]+)\s*(.*)$/s.exec(f.instr);
  const name = m?.[1]?.toUpperCase();
  if (name === 'PAGE' || name === 'NUMPAGES' || name === 'SECTIONPAGES') {
    const outer = fields.slice(0, -1).every((g) => g.inResult && !g.computed);
    if (outer) host.push({ kind: 'field', field: name, style });
    f.computed = name;
  } else if (name === 'FORMCHECKBOX') {
    const outer = fields.slice(0, -1).every((g) => g.inResult && !g.computed);
    if (outer) host.push({ kind: 'text', text: checkboxChecked(host.data, f.formData) ? '☒' : '☐', style });
  } else if (name === 'HYPERLINK') {
    const args = m![2]!;
    const anchor = /\\l\s+"([^"]*)"/.exec(args);
    const url = /^\s*"([^"]*)"/.exec(args) ?? /^\s*(\S+)/.exec(args);
    if (url && !url[1]!.startsWith('\\')) f.link = url[1]! + (anchor ? `#${anchor[1]}` : '');
    else if (anchor) f.link = `#${anchor[1]}`;
  }
}

/** FFData: version (4 bytes) then bits whose iType (2 bits) is 1 for a check box and iRes (5 bits) its state. */
function checkboxChecked(data: Uint8Array | undefined, fc: number | undefined): boolean {
  if (fc === undefined || !data || fc + 6 > data.length) return false;
  // The FFData follows a PICF-like header (lcb, cbHeader) unless it starts right away with its version.
  if (u32(data, fc) !== 0xffffffff) fc += u16(data, fc + 4);
  if (fc + 6 > data.length) return false;
  const bits = data[fc + 4]! | (data[fc + 5]! << 8);
  return (bits & 3) === 1 && ((bits >> 2) & 0x1f) === 1;
}
