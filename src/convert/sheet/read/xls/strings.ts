/**
 * BIFF's strings. BIFF8 (Excel 97-2003) writes UTF-16, each string either in full 16-bit code units
 * or "compressed" to their low bytes (Latin-1) as a flag byte says; BIFF5 (Excel 5/95) writes 8-bit
 * text in the workbook's CODEPAGE. The shared string table (SST) runs on over CONTINUE records, and a
 * string cut by a record boundary inside its characters starts the next record with a fresh flag
 * byte: the rest may be compressed while the start was not, or the other way round.
 */
import { decodeByte, type CodePage } from '../../../../codecs/binary';
import { LimitExceeded } from '../../../../lib/limits';
import { SHARED_STRINGS_MAX } from '../xlsx/index';

/** How a workbook's text is written: the BIFF version and, for BIFF5's 8-bit strings, their code page. */
export interface TextCodec {
  biff: 5 | 8;
  codePage: CodePage;
}

const utf16le = new TextDecoder('utf-16le');

/** Bytes as Latin-1 (BIFF8's compressed strings are UTF-16 with the high bytes left out). */
function latin1(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 4096) out += String.fromCharCode(...bytes.subarray(i, i + 4096));
  return out;
}

function codePageText(bytes: Uint8Array, cp: CodePage): string {
  const units = new Uint16Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) units[i] = decodeByte(bytes[i]!, cp);
  let out = '';
  for (let i = 0; i < units.length; i += 4096) out += String.fromCharCode(...units.subarray(i, i + 4096));
  return out;
}

/** A reader across a record's data and its CONTINUE records' (or just one record's), as one run of bytes. */
export class SegmentReader {
  private seg = 0;

  constructor(
    private readonly parts: readonly Uint8Array[],
    private pos = 0,
  ) {}

  /** At the end of the last record (stepping over records left with nothing to read). */
  get atEnd(): boolean {
    while (this.seg < this.parts.length && this.pos >= this.parts[this.seg]!.length) this.nextSegment();
    return this.seg >= this.parts.length;
  }

  private nextSegment(): void {
    this.seg++;
    this.pos = 0;
  }

  u8(): number {
    if (this.atEnd) throw new RangeError('a string runs past the end of its record');
    return this.parts[this.seg]![this.pos++]!;
  }

  u16(): number {
    return this.u8() | (this.u8() << 8);
  }

  u32(): number {
    return (this.u16() | (this.u16() << 16)) >>> 0;
  }

  /** Steps over n bytes (rich-text runs, phonetic data), across records with no flag byte. */
  skip(n: number): void {
    while (n > 0) {
      if (this.atEnd) throw new RangeError('a string runs past the end of its record');
      const step = Math.min(n, this.parts[this.seg]!.length - this.pos);
      this.pos += step;
      n -= step;
    }
  }

  /** `count` characters, 16-bit (`wide`) or 8-bit; a record boundary inside them restates the width in its first byte. */
  chars(count: number, wide: boolean, codec: TextCodec): string {
    let out = '';
    let left = count;
    while (left > 0) {
      const part = this.parts[this.seg];
      if (!part) throw new RangeError('a string runs past the end of its record');
      if (this.pos >= part.length) {
        this.nextSegment();
        if (this.seg >= this.parts.length) throw new RangeError('a string runs past the end of its record');
        if (codec.biff === 8) wide = (this.u8() & 1) === 1;
        continue;
      }
      const n = Math.min(left, wide ? (part.length - this.pos) >> 1 : part.length - this.pos);
      if (n === 0) {
        this.pos = part.length; // half a code unit at the end of a record: damage, the next one goes on
        continue;
      }
      const bytes = part.subarray(this.pos, this.pos + (wide ? 2 * n : n));
      out += wide ? utf16le.decode(bytes) : codec.biff === 8 ? latin1(bytes) : codePageText(bytes, codec.codePage);
      this.pos += bytes.length;
      left -= n;
    }
    return out;
  }

  /**
   * A string with its character count (`cchSize` bytes) first: in BIFF8 a flag byte follows (bit 0
   * 16-bit characters; in the SST, bit 3 rich-text runs and bit 2 phonetic data after the text); in
   * BIFF5 the 8-bit characters follow at once.
   */
  string(cchSize: 1 | 2, codec: TextCodec, richExtended = false): string {
    const count = cchSize === 1 ? this.u8() : this.u16();
    if (codec.biff === 5) return this.chars(count, false, codec);
    const flags = this.u8();
    const runs = richExtended && flags & 0x08 ? this.u16() : 0;
    const phonetic = richExtended && flags & 0x04 ? this.u32() : 0;
    const text = this.chars(count, (flags & 1) === 1, codec);
    this.skip(4 * runs);
    this.skip(phonetic);
    return text;
  }
}

/** A string at `offset` of one record's data (FONT, FORMAT, BOUNDSHEET, LABEL, HEADER…). */
export function recordString(data: Uint8Array, offset: number, cchSize: 1 | 2, codec: TextCodec): string {
  return new SegmentReader([data], offset).string(cchSize, codec);
}

/**
 * The shared string table: a count of distinct strings, then the strings across the SST record and
 * its CONTINUE records. The declared count only bounds the loop; strings are kept as they are read,
 * so a table claiming 2^31 strings in a few bytes allocates nothing for it.
 */
export function readSst(parts: readonly Uint8Array[], codec: TextCodec): string[] {
  const r = new SegmentReader(parts);
  r.skip(4); // cstTotal: the references to the table, not its size
  const declared = r.u32();
  const out: string[] = [];
  while (out.length < declared && !r.atEnd) {
    if (out.length >= SHARED_STRINGS_MAX) throw new LimitExceeded('shared_strings', `the workbook holds more than ${SHARED_STRINGS_MAX.toLocaleString('en')} distinct strings`);
    out.push(r.string(2, codec, true));
  }
  return out;
}
