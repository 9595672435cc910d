/**
 * A baseline JPEG encoder fed a band of rows at a time (to-jpg): a 300-dpi A4 page is 26 MB of
 * RGB, and MuPDF's asJPEG (progressive: every coefficient held until the end) took WASM memory to
 * ~97 MB for one. Here a page is rendered and encoded 16 rows at a time, and the output leaves in
 * chunks. Standard (ITU T.81 Annex K) quantization tables scaled as libjpeg scales them, standard
 * Huffman tables, 4:2:0 chroma for colour, the AAN floating-point DCT. JFIF carries the resolution.
 */
import { joinChunks } from '../lib/bytes';
import { fdct, isFlat } from './jpeg-dct';
import { AC_CHROMA, AC_LUMA, DC_CHROMA, DC_LUMA, codesOf, fittedTable, type Table } from './jpeg-huffman';

const ZIGZAG = [0, 1, 5, 6, 14, 15, 27, 28, 2, 4, 7, 13, 16, 26, 29, 42, 3, 8, 12, 17, 25, 30, 41, 43, 9, 11, 18, 24, 31, 40, 44, 53, 10, 19, 23, 32, 39, 45, 52, 54, 20, 22, 33, 38, 46, 51, 55, 60, 21, 34, 37, 47, 50, 56, 59, 61, 35, 36, 48, 49, 57, 58, 62, 63];
const LUMA_Q = [16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55, 14, 13, 16, 24, 40, 57, 69, 56, 14, 17, 22, 29, 51, 87, 80, 62, 18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92, 49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99];
const CHROMA_Q = [17, 18, 24, 47, 99, 99, 99, 99, 18, 21, 26, 66, 99, 99, 99, 99, 24, 26, 56, 99, 99, 99, 99, 99, 47, 66, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99];
const AAN = [1.0, 1.387039845, 1.306562965, 1.175875602, 1.0, 0.785694958, 0.5411961, 0.275899379];

/** For each position in zigzag order, the block index (natural order) it comes from. */
const NATURAL = Int32Array.from({ length: 64 }, (_, k) => ZIGZAG.indexOf(k));

/** Rounded half away from zero, as libjpeg rounds quantized coefficients. */
const quantize = (v: number): number => (v < 0 ? -((0.5 - v) | 0) : (v + 0.5) | 0);


/** libjpeg's scaling of a standard table to `quality`, in zigzag order, and the DCT's divisors in natural order. */
function quantization(base: number[], quality: number): { zigzag: Uint8Array; divisors: Float64Array } {
  const scale = quality < 50 ? 5000 / quality : 200 - quality * 2;
  const zigzag = new Uint8Array(64);
  for (let i = 0; i < 64; i++) zigzag[ZIGZAG[i]!] = Math.min(255, Math.max(1, Math.floor((base[i]! * scale + 50) / 100)));
  const divisors = new Float64Array(64);
  for (let row = 0; row < 8; row++) for (let col = 0; col < 8; col++) divisors[row * 8 + col] = 1 / (zigzag[ZIGZAG[row * 8 + col]!]! * AAN[row]! * AAN[col]! * 8);
  return { zigzag, divisors };
}

/**
 * Packed samples encoded whole: a JPEG of w × h pixels, `components` samples each, at `quality`,
 * JFIF at `dpi`. Two passes: the first counts the symbols, the second codes them with Huffman
 * tables fitted to them (libjpeg's optimize_coding), for a smaller file at the same quality.
 */
export function encodeJpeg(samples: Uint8Array, w: number, h: number, components: 1 | 3, quality: number, dpi: number): Uint8Array {
  const counter = new JpegBandEncoder(w, h, components, quality, dpi, 'count');
  counter.addRows(samples, h);
  const encoder = new JpegBandEncoder(w, h, components, quality, dpi, counter.fittedTables());
  encoder.addRows(samples, h);
  return joinChunks(encoder.take());
}

/** The four Huffman tables: DC and AC for luma (and grey), DC and AC for chroma. */
export type HuffmanTables = { dcLuma: Table; acLuma: Table; dcChroma: Table; acChroma: Table };
const STANDARD_TABLES: HuffmanTables = { dcLuma: DC_LUMA, acLuma: AC_LUMA, dcChroma: DC_CHROMA, acChroma: AC_CHROMA };

export class JpegBandEncoder {
  private readonly out: Uint8Array[] = [];
  private buffer = new Uint8Array(65536);
  private used = 0;
  private bits = 0;
  private bitCount = 0;
  private readonly dc = [0, 0, 0];
  private readonly luma: ReturnType<typeof quantization>;
  private readonly chroma: ReturnType<typeof quantization>;
  private readonly tables: HuffmanTables;
  private readonly codes: { dcLuma: Int32Array; acLuma: Int32Array; dcChroma: Int32Array; acChroma: Int32Array };
  /** In counting mode, how often each symbol would be coded, by table (same keys as `codes`). */
  private readonly counts?: { dcLuma: Int32Array; acLuma: Int32Array; dcChroma: Int32Array; acChroma: Int32Array };
  private readonly block = new Float64Array(64);
  private readonly quantized = new Int32Array(64);
  private rowsDone = 0;

  /**
   * `components` 1 (grey) or 3 (RGB, stored as YCbCr 4:2:0); `dpi` goes into the JFIF header.
   * `tables`: the Huffman tables (the standard ones unless given), or 'count' for an encoder that
   * writes nothing and counts symbols for fittedTables().
   */
  constructor(
    private readonly width: number,
    private readonly height: number,
    private readonly components: 1 | 3,
    quality: number,
    dpi: number,
    tables: HuffmanTables | 'count' = STANDARD_TABLES,
  ) {
    this.luma = quantization(LUMA_Q, quality);
    this.chroma = quantization(CHROMA_Q, quality);
    this.tables = tables === 'count' ? STANDARD_TABLES : tables;
    const t = this.tables;
    this.codes = { dcLuma: codesOf(t.dcLuma), acLuma: codesOf(t.acLuma), dcChroma: codesOf(t.dcChroma), acChroma: codesOf(t.acChroma) };
    if (tables === 'count') this.counts = { dcLuma: new Int32Array(256), acLuma: new Int32Array(256), dcChroma: new Int32Array(256), acChroma: new Int32Array(256) };
    else this.writeHeaders(dpi);
  }

  /** After counting: tables fitted to the symbols counted. */
  fittedTables(): HuffmanTables {
    const c = this.counts!;
    return { dcLuma: fittedTable(c.dcLuma), acLuma: fittedTable(c.acLuma), dcChroma: fittedTable(c.dcChroma), acChroma: fittedTable(c.acChroma) };
  }

  /** Rows per band the encoder takes at a time: whole MCU rows. */
  get bandRows(): number {
    return this.components === 3 ? 16 : 8;
  }

  /**
   * Encodes `rows` packed rows (width × components samples each), a multiple of bandRows except for
   * the picture's last band, whose missing rows repeat its last one.
   */
  addRows(samples: Uint8Array, rows: number): void {
    const step = this.bandRows;
    for (let top = 0; top < rows; top += step) {
      if (this.components === 3) this.colourMcuRow(samples, top, rows);
      else this.greyMcuRow(samples, top, rows);
    }
    this.rowsDone += rows;
    if (this.rowsDone >= this.height) this.finish();
  }

  /** The bytes made since the last call. */
  take(): Uint8Array[] {
    this.flushBuffer();
    return this.out.splice(0);
  }

  /** One 8-row strip of grey: samples less 128 into the plane (edges repeated out to whole blocks), then block by block. */
  private greyMcuRow(samples: Uint8Array, top: number, rows: number): void {
    const width = this.width;
    const padded = Math.ceil(width / 8) * 8;
    const plane = this.planes(padded).y;
    for (let dy = 0; dy < 8; dy++) {
      const from = Math.min(top + dy, rows - 1) * width;
      const to = dy * padded;
      for (let x = 0; x < padded; x++) plane[to + x] = samples[from + (x < width ? x : width - 1)]! - 128;
    }
    for (let x0 = 0; x0 < padded; x0 += 8) this.codeBlock(plane, x0, padded, 0, this.luma.divisors, 'dcLuma', 'acLuma');
  }

  /**
   * One 16-row strip: converted to Y, Cb and Cr planes first (Cb and Cr averaged over 2 × 2
   * pixels, edges repeated out to whole MCUs), then coded MCU by MCU: 4 Y blocks, Cb, Cr.
   */
  private colourMcuRow(samples: Uint8Array, top: number, rows: number): void {
    const width = this.width;
    const padded = Math.ceil(width / 16) * 16;
    const half = padded >> 1;
    const planes = this.planes(padded);
    const luma = planes.y, cb = planes.cb, cr = planes.cr;
    const last = (width - 1) * 3;
    // Two rows and two columns at a time: Y for each pixel, Cb and Cr once for the 2 × 2 square
    // (colour conversion is linear, so converting the square's summed RGB is converting its mean).
    for (let dy = 0; dy < 16; dy += 2) {
      const row0 = Math.min(top + dy, rows - 1) * width * 3;
      const row1 = Math.min(top + dy + 1, rows - 1) * width * 3;
      const y0 = dy * padded;
      const y1 = y0 + padded;
      const c = (dy >> 1) * half;
      for (let x = 0; x < padded; x += 2) {
        const left = x * 3 < last ? x * 3 : last;
        const right = x * 3 + 3 < last ? x * 3 + 3 : last;
        const ra = samples[row0 + left]!, ga = samples[row0 + left + 1]!, ba = samples[row0 + left + 2]!;
        const rb = samples[row0 + right]!, gb = samples[row0 + right + 1]!, bb = samples[row0 + right + 2]!;
        const rc = samples[row1 + left]!, gc = samples[row1 + left + 1]!, bc = samples[row1 + left + 2]!;
        const rd = samples[row1 + right]!, gd = samples[row1 + right + 1]!, bd = samples[row1 + right + 2]!;
        luma[y0 + x] = 0.299 * ra + 0.587 * ga + 0.114 * ba - 128;
        luma[y0 + x + 1] = 0.299 * rb + 0.587 * gb + 0.114 * bb - 128;
        luma[y1 + x] = 0.299 * rc + 0.587 * gc + 0.114 * bc - 128;
        luma[y1 + x + 1] = 0.299 * rd + 0.587 * gd + 0.114 * bd - 128;
        const r = ra + rb + rc + rd, g = ga + gb + gc + gd, b = ba + bb + bc + bd;
        cb[c + (x >> 1)] = (-0.168736 * r - 0.331264 * g + 0.5 * b) * 0.25;
        cr[c + (x >> 1)] = (0.5 * r - 0.418688 * g - 0.081312 * b) * 0.25;
      }
    }
    const lq = this.luma.divisors, cq = this.chroma.divisors;
    for (let x0 = 0; x0 < padded; x0 += 16) {
      // The four luma blocks of the MCU: top left, top right, bottom left, bottom right.
      this.codeBlock(luma, x0, padded, 0, lq, 'dcLuma', 'acLuma');
      this.codeBlock(luma, x0 + 8, padded, 0, lq, 'dcLuma', 'acLuma');
      this.codeBlock(luma, 8 * padded + x0, padded, 0, lq, 'dcLuma', 'acLuma');
      this.codeBlock(luma, 8 * padded + x0 + 8, padded, 0, lq, 'dcLuma', 'acLuma');
      this.codeBlock(cb, x0 >> 1, half, 1, cq, 'dcChroma', 'acChroma');
      this.codeBlock(cr, x0 >> 1, half, 2, cq, 'dcChroma', 'acChroma');
    }
  }

  private planeBuffers?: { y: Float64Array; cb: Float64Array; cr: Float64Array };

  private planes(padded: number): { y: Float64Array; cb: Float64Array; cr: Float64Array } {
    this.planeBuffers ??= { y: new Float64Array(padded * 16), cb: new Float64Array(padded * 4), cr: new Float64Array(padded * 4) };
    return this.planeBuffers;
  }

  /** The block at plane[at] (rows `stride` apart) coded, or counted in counting mode. */
  private codeBlock(plane: Float64Array, at: number, stride: number, component: number, divisors: Float64Array, dc: 'dcLuma' | 'dcChroma', ac: 'acLuma' | 'acChroma'): void {
    const end = this.quantizeBlock(plane, at, stride, divisors);
    if (this.counts) this.countBlock(end, component, this.counts[dc], this.counts[ac]);
    else this.encodeBlock(end, component, this.codes[dc], this.codes[ac]);
  }

  /**
   * The block's DCT, quantized into `quantized` (natural order); returns the zigzag index of the last
   * non-zero AC coefficient (0 for none). A flat block (a page's white margins) skips the DCT: its AC
   * coefficients are all zero. AC coefficients are rounded without a branch on the sign (|v| < 2048
   * here): half-way cases round up, not away from zero.
   */
  private quantizeBlock(plane: Float64Array, at: number, stride: number, divisors: Float64Array): number {
    const quantized = this.quantized;
    if (isFlat(plane, at, stride)) {
      quantized[0] = quantize(plane[at]! * 64 * divisors[0]!);
      return 0;
    }
    const block = this.block;
    fdct(plane, at, stride, block);
    quantized[0] = quantize(block[0]! * divisors[0]!);
    for (let i = 1; i < 64; i++) quantized[i] = ((block[i]! * divisors[i]! + 16384.5) | 0) - 16384;
    let end = 63;
    while (end > 0 && quantized[NATURAL[end]!] === 0) end--;
    return end;
  }

  /** The symbols the block would be coded with, counted. */
  private countBlock(end: number, component: number, dcCounts: Int32Array, acCounts: Int32Array): void {
    const quantized = this.quantized;
    const diff = quantized[0]! - this.dc[component]!;
    this.dc[component] = quantized[0]!;
    dcCounts[diff === 0 ? 0 : 32 - Math.clz32(diff < 0 ? -diff : diff)]!++;
    let zeros = 0;
    for (let k = 1; k <= end; k++) {
      const q = quantized[NATURAL[k]!]!;
      if (q === 0) {
        zeros++;
        continue;
      }
      for (; zeros >= 16; zeros -= 16) acCounts[0xf0]!++;
      acCounts[(zeros << 4) | (32 - Math.clz32(q < 0 ? -q : q))]!++;
      zeros = 0;
    }
    if (end < 63) acCounts[0x00]!++;
  }

  /**
   * The block's DC coefficient, coded as the difference from the component's last: the size
   * category's code, then the difference's low `size` bits (one less when negative). The caller
   * has made room in the buffer.
   */
  private encodeDc(component: number, dcCodes: Int32Array): void {
    const buffer = this.buffer;
    let used = this.used, bits = this.bits, count = this.bitCount;
    const first = this.quantized[0]!;
    const diff = first - this.dc[component]!;
    this.dc[component] = first;
    const size = diff === 0 ? 0 : 32 - Math.clz32(diff < 0 ? -diff : diff);
    const code = dcCodes[size]!;
    // code >>> 5 is the code, code & 31 its length. `count` (bits waiting) stays below 8 between
    // writes, and is brought under 22 before a value's up to 11 bits: nothing passes 32.
    bits = (bits << (code & 31)) | (code >>> 5);
    count += code & 31;
    while (count > 21) {
      count -= 8;
      const byte = (bits >>> count) & 0xff;
      buffer[used++] = byte;
      if (byte === 0xff) buffer[used++] = 0;
    }
    if (size) {
      bits = (bits << size) | ((diff < 0 ? diff - 1 : diff) & ((1 << size) - 1));
      count += size;
    }
    while (count >= 8) {
      count -= 8;
      const byte = (bits >>> count) & 0xff;
      buffer[used++] = byte;
      if (byte === 0xff) buffer[used++] = 0; // stuffing: 0xFF in entropy-coded data is followed by 0
    }
    this.used = used;
    this.bits = bits;
    this.bitCount = count;
  }

  /**
   * The quantized block Huffman-coded: its DC by encodeDc, then the AC coefficients. Written for
   * speed, encoding being most of to-jpg's time: the bit writer is kept in locals.
   */
  private encodeBlock(end: number, component: number, dcCodes: Int32Array, acCodes: Int32Array): void {
    // A block codes to at most 64 × 27 bits, doubled by 0xFF stuffing: 432 bytes. The writes below do not check.
    if (this.used > this.buffer.length - 512) this.flushBuffer();
    this.encodeDc(component, dcCodes);
    const buffer = this.buffer;
    const quantized = this.quantized;
    let used = this.used, bits = this.bits, count = this.bitCount;
    let code: number, size: number;
    let zeros = 0;
    for (let k = 1; k <= end; k++) {
      const q = quantized[NATURAL[k]!]!;
      if (q === 0) {
        zeros++;
        continue;
      }
      for (; zeros >= 16; zeros -= 16) {
        code = acCodes[0xf0]!;
        bits = (bits << (code & 31)) | (code >>> 5);
        count += code & 31;
        while (count >= 8) {
          count -= 8;
          const byte = (bits >>> count) & 0xff;
          buffer[used++] = byte;
          if (byte === 0xff) buffer[used++] = 0;
        }
      }
      const sign = q >> 31; // -1 when negative, else 0
      size = 32 - Math.clz32((q ^ sign) - sign);
      code = acCodes[(zeros << 4) | size]!;
      bits = (bits << (code & 31)) | (code >>> 5);
      count += code & 31;
      // A long code (up to 16 bits) after 7 waiting bits leaves no room in 32 for 10 value bits.
      while (count > 21) {
        count -= 8;
        const byte = (bits >>> count) & 0xff;
        buffer[used++] = byte;
        if (byte === 0xff) buffer[used++] = 0;
      }
      bits = (bits << size) | ((q + sign) & ((1 << size) - 1));
      count += size;
      while (count >= 8) {
        count -= 8;
        const byte = (bits >>> count) & 0xff;
        buffer[used++] = byte;
        if (byte === 0xff) buffer[used++] = 0;
      }
      zeros = 0;
    }
    if (end < 63) {
      code = acCodes[0x00]!; // end of block
      bits = (bits << (code & 31)) | (code >>> 5);
      count += code & 31;
      while (count >= 8) {
        count -= 8;
        const byte = (bits >>> count) & 0xff;
        buffer[used++] = byte;
        if (byte === 0xff) buffer[used++] = 0;
      }
    }
    this.used = used;
    this.bits = bits & ((1 << count) - 1);
    this.bitCount = count;
  }

  private writeBits(value: number, count: number): void {
    let bits = (this.bits << count) | (value & ((1 << count) - 1));
    let bitCount = this.bitCount + count;
    const buffer = this.buffer;
    while (bitCount >= 8) {
      const byte = (bits >>> (bitCount - 8)) & 0xff;
      buffer[this.used++] = byte;
      if (byte === 0xff) buffer[this.used++] = 0;
      bitCount -= 8;
    }
    this.bits = bits & ((1 << bitCount) - 1);
    this.bitCount = bitCount;
  }

  private byte(b: number): void {
    if (this.used === this.buffer.length) this.flushBuffer();
    this.buffer[this.used++] = b;
  }

  private bytes(list: ArrayLike<number>): void {
    for (let i = 0; i < list.length; i++) this.byte(list[i]!);
  }

  private flushBuffer(): void {
    if (!this.used) return;
    this.out.push(this.buffer.slice(0, this.used));
    this.used = 0;
  }

  private finish(): void {
    if (this.used > this.buffer.length - 16) this.flushBuffer(); // room for the padding writeBits does not check
    if (this.bitCount > 0) this.writeBits(0x7f, 7); // pad the last byte with 1-bits
    this.bytes([0xff, 0xd9]);
  }

  private segment(marker: number, body: number[]): void {
    this.bytes([0xff, marker, (body.length + 2) >> 8, (body.length + 2) & 0xff, ...body]);
  }

  private writeHeaders(dpi: number): void {
    const { width, height, components } = this;
    this.bytes([0xff, 0xd8]);
    this.segment(0xe0, [0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 1, dpi >> 8, dpi & 0xff, dpi >> 8, dpi & 0xff, 0, 0]);
    this.segment(0xdb, [0, ...this.luma.zigzag, ...(components === 3 ? [1, ...this.chroma.zigzag] : [])]);
    const frame = components === 3 ? [1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1] : [1, 0x11, 0];
    this.segment(0xc0, [8, height >> 8, height & 0xff, width >> 8, width & 0xff, components, ...frame]);
    const t = this.tables;
    const tables: [number, Table][] = components === 3 ? [[0x00, t.dcLuma], [0x10, t.acLuma], [0x01, t.dcChroma], [0x11, t.acChroma]] : [[0x00, t.dcLuma], [0x10, t.acLuma]];
    for (const [id, table] of tables) this.segment(0xc4, [id, ...table.counts, ...table.symbols]);
    const scan = components === 3 ? [1, 0x00, 2, 0x11, 3, 0x11] : [1, 0x00];
    this.segment(0xda, [components, ...scan, 0, 63, 0]);
  }
}
