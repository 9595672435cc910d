/**
 * BIFF's record stream: each record a 2-byte type, a 2-byte length and its data, one after the
 * other through the Workbook (or Book) stream; a record longer than BIFF's 8,224 bytes (SST, long
 * strings) goes on in the CONTINUE records that follow it. A record whose length runs past the
 * stream is damage (RangeError, which the reader turns into a 'corrupt' ConversionError).
 */

/** The record types the reader uses, by their MS-XLS names. */
export const RT = {
  BOF: 0x0809,
  EOF: 0x000a,
  CONTINUE: 0x003c,
  FILEPASS: 0x002f,
  CODEPAGE: 0x0042,
  DATEMODE: 0x0022,
  BOUNDSHEET: 0x0085,
  NAME: 0x0018,
  FONT: 0x0031,
  FORMAT: 0x041e,
  XF: 0x00e0,
  PALETTE: 0x0092,
  SST: 0x00fc,
  // Cells.
  NUMBER: 0x0203,
  RK: 0x027e,
  MULRK: 0x00bd,
  LABELSST: 0x00fd,
  LABEL: 0x0204,
  RSTRING: 0x00d6,
  BOOLERR: 0x0205,
  BLANK: 0x0201,
  MULBLANK: 0x00be,
  FORMULA: 0x0006,
  STRING: 0x0207,
  // Rows, columns and the view.
  ROW: 0x0208,
  COLINFO: 0x007d,
  DEFCOLWIDTH: 0x0055,
  STANDARDWIDTH: 0x0099,
  DEFAULTROWHEIGHT: 0x0225,
  MERGEDCELLS: 0x00e5,
  WINDOW2: 0x023e,
  WSBOOL: 0x0081,
  // Printing.
  SETUP: 0x00a1,
  LEFTMARGIN: 0x0026,
  RIGHTMARGIN: 0x0027,
  TOPMARGIN: 0x0028,
  BOTTOMMARGIN: 0x0029,
  HCENTER: 0x0083,
  VCENTER: 0x0084,
  PRINTGRIDLINES: 0x002b,
  PRINTHEADERS: 0x002a,
  HORIZONTALPAGEBREAKS: 0x001b,
  VERTICALPAGEBREAKS: 0x001a,
  HEADER: 0x0014,
  FOOTER: 0x0015,
  HEADERFOOTER: 0x089c,
} as const;

/** BOF's substream types (dt). */
export const BOF_GLOBALS = 0x0005;
export const BOF_WORKSHEET = 0x0010;

/** A record's data and, for the records that run on, the CONTINUE records after it. */
export class RecordCursor {
  type = -1;
  /** The current record's data (a view into the stream). */
  data: Uint8Array = new Uint8Array(0);
  private pos: number;

  constructor(
    private readonly stream: Uint8Array,
    from: number,
  ) {
    if (!(from >= 0 && from <= stream.length)) throw new RangeError(`record offset ${from} outside the stream of ${stream.length} bytes`);
    this.pos = from;
  }

  /** Steps to the next record; false at the end of the stream. */
  next(): boolean {
    const s = this.stream;
    if (this.pos + 4 > s.length) return false;
    const type = s[this.pos]! | (s[this.pos + 1]! << 8);
    const length = s[this.pos + 2]! | (s[this.pos + 3]! << 8);
    const end = this.pos + 4 + length;
    if (end > s.length) throw new RangeError(`record 0x${type.toString(16)} at ${this.pos} runs ${end - s.length} bytes past the stream`);
    this.type = type;
    this.data = s.subarray(this.pos + 4, end);
    this.pos = end;
    return true;
  }

  /** The type of the record after the current one (-1 at the end), without stepping to it. */
  peekType(): number {
    const s = this.stream;
    return this.pos + 4 <= s.length ? s[this.pos]! | (s[this.pos + 1]! << 8) : -1;
  }

  /** The current record's data and that of every CONTINUE record that follows it, which are stepped over. */
  withContinues(): Uint8Array[] {
    const parts = [this.data];
    while (this.peekType() === RT.CONTINUE && this.next()) parts.push(this.data);
    return parts;
  }

  /** Steps over a substream nested in this one (an embedded chart's BOF … EOF), the current record being its BOF. */
  skipSubstream(): void {
    let depth = 1;
    while (depth > 0 && this.next()) {
      if (this.type === RT.BOF) depth++;
      else if (this.type === RT.EOF) depth--;
    }
  }
}

/** An IEEE double of a record's data. */
export function f64(b: Uint8Array, o: number): number {
  if (o < 0 || o + 8 > b.length) throw new RangeError(`record field at ${o} past its ${b.length} bytes`);
  return new DataView(b.buffer, b.byteOffset + o, 8).getFloat64(0, true);
}
