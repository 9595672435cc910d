/**
 * The records a BIFF8 sheet tells its drawing's objects with, between and after its MSODRAWING
 * records: each shape's OBJ (its object type and id, and whether it prints), the TXO after a shape
 * that holds text (its alignment, then its characters and font runs in the CONTINUE records after
 * it), and the NOTE of each cell comment (its cell, whether it is shown, the id of its text box).
 * An OBJ follows the MSODRAWING that ends its shape, so the n-th object is the n-th shape with
 * client data in the joined drawing (drawings.ts pairs them).
 */
import { u16 } from '../../../../codecs/binary';
import type { TextParagraph, TextRun } from '../../../office/model';
import type { Font } from '../../model';
import { SegmentReader, type TextCodec } from './strings';

export const RT_OBJ = 0x005d;
export const RT_TXO = 0x01b6;
export const RT_NOTE = 0x001c;

/** OBJ's object types (ftCmo ot) this prints something of. */
export const OT = { group: 0x00, line: 0x01, rect: 0x02, oval: 0x03, arc: 0x04, chart: 0x05, text: 0x06, picture: 0x08, polygon: 0x09, comment: 0x19, officeArt: 0x1e } as const;
const DRAWN = new Set<number>([OT.group, OT.line, OT.rect, OT.oval, OT.arc, OT.text, OT.picture, OT.polygon, OT.comment, OT.officeArt]);
/** ftCmo's fPrint: the object prints with the sheet ("Print object"). */
const PRINTS = 0x0010;
/** Characters of object text a sheet keeps at most, all its text boxes and comments together. */
export const OBJECT_TEXT_MAX = 262_144;
/** Objects a sheet keeps at most (the drawing's shapes are bounded alike). */
const OBJECTS_MAX = 20_000;

export interface ObjectText {
  text: string;
  /** Font runs: from which character on, which FONT. */
  runs: { from: number; font: number }[];
  align: TextParagraph['align'];
  anchor: 'top' | 'center' | 'bottom';
}

export interface SheetObject {
  type: number;
  id: number;
  /** Drawn and printed: a type this prints, with "Print object" ticked. */
  prints: boolean;
  text?: ObjectText;
}

export interface NoteRecord {
  row: number;
  col: number;
  shown: boolean;
  /** The id of the OBJ of its text box. */
  id: number;
}

const ALIGN: Record<number, TextParagraph['align']> = { 1: 'left', 2: 'center', 3: 'right', 4: 'justify' };
const ANCHOR: Record<number, ObjectText['anchor']> = { 1: 'top', 2: 'center', 3: 'bottom' };

/** The objects and notes of one sheet, as its records come. */
export class SheetObjects {
  readonly objects: SheetObject[] = [];
  readonly notes: NoteRecord[] = [];
  private textLeft = OBJECT_TEXT_MAX;

  constructor(private readonly codec: TextCodec) {}

  /** OBJ: its first subrecord is ftCmo (ft 0x15): object type, id, options. */
  obj(d: Uint8Array): void {
    if (this.objects.length >= OBJECTS_MAX) return;
    const cmo = d.length >= 10 && u16(d, 0) === 0x15;
    const type = cmo ? u16(d, 4) : -1;
    this.objects.push({ type, id: cmo ? u16(d, 6) : -1, prints: cmo && DRAWN.has(type) && (u16(d, 8) & PRINTS) !== 0 });
  }

  /** TXO and its CONTINUE records: alignment, then the characters (with their width flag), then 8-byte font runs. Belongs to the last OBJ. */
  txo(parts: Uint8Array[]): void {
    const owner = this.objects.at(-1);
    const d = parts[0]!;
    if (!owner || owner.text || d.length < 14 || this.codec.biff !== 8) return;
    const options = u16(d, 0);
    const count = Math.min(u16(d, 10), this.textLeft);
    const runBytes = u16(d, 12);
    const body = parts.slice(1);
    let text = '';
    if (count > 0 && body.length) {
      const r = new SegmentReader(body, 0);
      try {
        text = r.chars(count, (r.u8() & 1) === 1, this.codec);
      } catch (e) {
        if (!(e instanceof RangeError)) throw e; // text cut short: what was read is lost, the shape still prints
      }
    }
    this.textLeft -= text.length;
    // The runs are the last cbRuns bytes of the CONTINUE records, after the characters.
    const tail = body.length === 1 ? body[0]! : Uint8Array.from(body.flatMap((p) => [...p.subarray(Math.max(0, p.length - runBytes))]));
    const runs: ObjectText['runs'] = [];
    for (let at = Math.max(0, tail.length - runBytes); at + 4 <= tail.length && runs.length < 1024; at += 8) {
      const from = u16(tail, at);
      if (from < text.length) runs.push({ from, font: u16(tail, at + 2) });
    }
    owner.text = { text: text.replace(/\r\n?/g, '\n'), runs, align: ALIGN[(options >> 1) & 7] ?? 'left', anchor: ANCHOR[(options >> 4) & 7] ?? 'top' };
  }

  /** NOTE (BIFF8): row, column, options (fShow 0x0002), the id of its object. */
  note(d: Uint8Array): void {
    if (this.codec.biff !== 8 || d.length < 8 || this.notes.length >= OBJECTS_MAX) return;
    this.notes.push({ row: u16(d, 0), col: u16(d, 2), shown: (u16(d, 4) & 0x0002) !== 0, id: u16(d, 6) });
  }
}

/** An object's text as paragraphs (one per line), each run in the FONT it names. */
export function objectParagraphs(t: ObjectText, fontAt: (index: number) => Font): TextParagraph[] {
  const runs: TextRun[] = [];
  const starts = t.runs.length && t.runs[0]!.from === 0 ? t.runs : [{ from: 0, font: 0 }, ...t.runs];
  starts.forEach((run, k) => {
    const font = fontAt(run.font);
    const text = t.text.slice(run.from, starts[k + 1]?.from ?? t.text.length);
    if (text) runs.push({ text, font: font.name, size: font.size, color: font.color ?? '000000', ...(font.bold ? { bold: true } : {}), ...(font.italic ? { italic: true } : {}), ...(font.underline ? { underline: true } : {}), ...(font.strike ? { strike: true } : {}) });
  });
  const first = fontAt(starts[0]!.font);
  return [{ align: t.align, runs, size: first.size, font: first.name }];
}
