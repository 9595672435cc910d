/** Metafiles written here: a little-endian record builder and an EMF of a red rectangle and the navy text "Hi" in Arial. */
/** Little-endian record builder. */
export class Bytes {
  private out: number[] = [];
  u8(...v: number[]) { this.out.push(...v.map((x) => x & 0xff)); return this; }
  u16(...v: number[]) { for (const x of v) this.u8(x, x >> 8); return this; }
  u32(...v: number[]) { for (const x of v) this.u8(x, x >> 8, x >> 16, x >> 24); return this; }
  utf16(s: string) { for (const c of s) this.u16(c.charCodeAt(0)); return this; }
  get length() { return this.out.length; }
  bytes() { return new Uint8Array(this.out); }
}

export function emf(clipRight?: number): Uint8Array {
  const b = new Bytes();
  // EMR_HEADER (88 bytes): bounds 0,0-199,99; frame in 0.01 mm matching 1 px = 0.25 mm (device 800x400 px = 200x100 mm).
  b.u32(1, 88, 0, 0, 199, 99, 0, 0, 5000, 2500, 0x464d4520, 0x10000, 0, 0, 0, 0, 0, 0, 800, 400, 200, 100);
  b.u32(39, 24, 1, 0, 0x0000ff, 0); // CREATEBRUSHINDIRECT #1 solid red (COLORREF 0x00BBGGRR)
  b.u32(37, 12, 1); // SELECTOBJECT brush
  b.u32(37, 12, 0x80000008); // SELECTOBJECT NULL_PEN
  if (clipRight !== undefined) b.u32(30, 24, 0, 0, clipRight, 100); // INTERSECTCLIPRECT
  b.u32(43, 24, 10, 20, 110, 60); // RECTANGLE
  // EXTCREATEFONTINDIRECTW #2: height -20, weight 700, face "Arial"
  const face = new Bytes().utf16('Arial');
  b.u32(82, 12 + 92, 2, -20, 0, 0, 0, 700).u8(0, 0, 0, 0, 0, 0, 0, 0).bytes();
  const padded = new Uint8Array(64);
  padded.set(face.bytes());
  b.u8(...padded);
  b.u32(37, 12, 2);
  b.u32(24, 12, 0x00800000); // SETTEXTCOLOR navy (R=0,G=0,B=0x80)
  b.u32(22, 12, 24); // SETTEXTALIGN baseline
  // EXTTEXTOUTW "Hi" at (30, 80), string at offset 76, no dx
  b.u32(84, 80, 0, 0, 0, 0, 1, 0, 0, 30, 80, 2, 76, 0, 0, 0, 0, 0, 0).utf16('Hi');
  b.u32(14, 20, 0, 0, 20); // EOF
  return b.bytes();
}

