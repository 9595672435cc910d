/**
 * Complex fields (w:fldChar begin / separate / end with w:instrText between).
 *
 * A field shows its cached result, the runs between separate and end, except the page-number fields
 * the layout computes itself (PAGE, NUMPAGES, SECTIONPAGES), whose cached result is replaced by a
 * field inline. Fields nest (an IF containing a PAGE) and may span paragraphs (a TOC), so the state is
 * a stack kept per story (body, header, note...), not per paragraph.
 */

import { FIELD_NESTING_MAX } from '../../model/limits';

export type PageField = 'PAGE' | 'NUMPAGES' | 'SECTIONPAGES';

interface Frame {
  instr: string;
  phase: 'instr' | 'result';
  page?: PageField;
  link?: string;
  /** FORMCHECKBOX state from w:ffData: the field shows ☐/☒. */
  checkbox?: boolean;
  /** The cached result is replaced by what the reader emitted at separate. */
  hideResult?: boolean;
}

export interface FieldInfo {
  page?: PageField;
  link?: string;
}

/** The field type and what we use of its instruction: page-number kind or hyperlink target. */
export function classifyInstr(instr: string): FieldInfo {
  const trimmed = instr.trim();
  const type = (trimmed.split(/\s+/)[0] ?? '').toUpperCase();
  if (type === 'PAGE' || type === 'NUMPAGES' || type === 'SECTIONPAGES') return { page: type };
  if (type === 'HYPERLINK') {
    const anchor = /\\l\s+"([^"]*)"/.exec(trimmed);
    const target = /^HYPERLINK\s+"([^"]*)"/i.exec(trimmed) ?? /^HYPERLINK\s+(\S+)/i.exec(trimmed);
    const t = target?.[1];
    if (t && !t.startsWith('\\')) return { link: anchor ? `${t}#${anchor[1]}` : t };
    if (anchor) return { link: '#' + anchor[1] };
  }
  return {};
}

export class FieldStack {
  private readonly frames: Frame[] = [];
  /** Fields begun past FIELD_NESTING_MAX: whether each is still in its instruction. */
  private readonly deeper: boolean[] = [];
  /** How many of `deeper` are in their instruction. */
  private deeperInstr = 0;

  /** True while content must not be shown: inside an instruction, or a page field's stale result. */
  get suppressed(): boolean {
    if (this.deeperInstr) return true;
    for (const f of this.frames) if (f.phase === 'instr' || f.page || f.hideResult) return true;
    return false;
  }

  /** The hyperlink of the innermost HYPERLINK field whose result is being shown. */
  get link(): string | undefined {
    for (let i = this.frames.length - 1; i >= 0; i--) if (this.frames[i]!.link) return this.frames[i]!.link;
    return undefined;
  }

  begin(checkbox?: boolean): void {
    if (this.frames.length >= FIELD_NESTING_MAX) {
      this.deeper.push(true);
      this.deeperInstr++;
      return;
    }
    const frame: Frame = { instr: '', phase: 'instr' };
    if (checkbox !== undefined) frame.checkbox = checkbox;
    this.frames.push(frame);
  }

  instrText(text: string): void {
    if (this.deeper.length) return;
    const top = this.frames[this.frames.length - 1];
    if (top && top.phase === 'instr') top.instr += text;
  }

  /**
   * Instruction done, result follows. Returns the page field to emit in place of the result, if the
   * field is one and its result would be visible.
   */
  separate(): { page?: PageField; text?: string } {
    if (this.deeper.length) {
      if (this.deeper[this.deeper.length - 1]) this.deeperInstr--;
      this.deeper[this.deeper.length - 1] = false;
      return {};
    }
    const top = this.frames[this.frames.length - 1];
    if (!top || top.phase !== 'instr') return {};
    const visible = !this.suppressedBelow();
    top.phase = 'result';
    const info = classifyInstr(top.instr);
    if (info.link) top.link = info.link;
    if (info.page) {
      top.page = info.page;
      return visible ? { page: info.page } : {};
    }
    const box = this.checkboxGlyph(top);
    if (box !== undefined) {
      // The form field draws the box itself; its (usually empty) result is not shown.
      top.hideResult = true;
      return visible ? { text: box } : {};
    }
    return {};
  }

  private checkboxGlyph(frame: Frame): string | undefined {
    if (frame.checkbox === undefined || !/^\s*FORMCHECKBOX/i.test(frame.instr)) return undefined;
    return frame.checkbox ? '☒' : '☐';
  }

  /** Field ends. Returns what to emit for a field that had no separate: a page field or a checkbox. */
  end(): { page?: PageField; text?: string } {
    if (this.deeper.length) {
      if (this.deeper.pop()) this.deeperInstr--;
      return {};
    }
    const top = this.frames.pop();
    if (!top || top.phase !== 'instr' || this.suppressed) return {};
    const info = classifyInstr(top.instr);
    if (info.page) return { page: info.page };
    const box = this.checkboxGlyph(top);
    return box !== undefined ? { text: box } : {};
  }

  private suppressedBelow(): boolean {
    for (let i = 0; i < this.frames.length - 1; i++) {
      const f = this.frames[i]!;
      if (f.phase === 'instr' || f.page || f.hideResult) return true;
    }
    return false;
  }
}
