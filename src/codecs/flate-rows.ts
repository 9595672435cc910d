/**
 * An 8-bit FlateDecode image's rows, inflated and un-predicted a slice at a time, never all at
 * once: MuPDF's readStream decodes the whole image into its heap, and a 9000 × 9000 RGB image that
 * fits in 440 KB of Flate is 243 MB decoded (WASM memory never shrinks; the isolate has 128 MiB).
 */
import { Unzlib } from 'fflate';
import { joinChunks } from '../lib/bytes';

/** The stream's /DecodeParms as far as rows are concerned (PDF 32000 7.4.4.4). */
export interface FlateParams {
  predictor: number;
  colors: number;
  bitsPerComponent: number;
  columns: number;
}

/** Compressed input handed to zlib at a time: each slice inflates to at most about 1,032 times its size (4 MB). */
const SLICE_BYTES = 4 * 1024;

/**
 * Calls `row` with each of the `h` rows (w × n bytes, valid only during the call) of zlib data
 * `raw`; true when all of them were there. PNG predictors (10-15, a type byte per row) and the
 * TIFF predictor 2 are undone; data after the last row is not inflated.
 */
export function flateRows(raw: Uint8Array, w: number, h: number, n: number, params: FlateParams, row: (samples: Uint8Array) => void): boolean {
  const { predictor } = params;
  if (params.bitsPerComponent !== 8 || (predictor > 1 && (params.colors !== n || params.columns !== w))) return false;
  const png = predictor >= 10;
  const width = w * n;
  const stride = width + (png ? 1 : 0);
  let current = new Uint8Array(stride);
  let previous = new Uint8Array(stride);
  let filled = 0;
  let rows = 0;
  const take = (chunk: Uint8Array) => {
    let at = 0;
    while (at < chunk.length && rows < h) {
      const n2 = Math.min(stride - filled, chunk.length - at);
      current.set(chunk.subarray(at, at + n2), filled);
      filled += n2;
      at += n2;
      if (filled < stride) return;
      if (png) unpredictPng(current, previous, n);
      else if (predictor === 2) unpredictTiff(current, n);
      row(png ? current.subarray(1) : current);
      [current, previous] = [previous, current];
      filled = 0;
      rows++;
    }
  };
  try {
    const inflater = new Unzlib((chunk) => take(chunk));
    for (let at = 0; at < raw.length && rows < h; at += SLICE_BYTES) inflater.push(raw.subarray(at, at + SLICE_BYTES), at + SLICE_BYTES >= raw.length);
  } catch {
    // Damaged data: the rows read so far decide (a file's last bytes are often cut short).
  }
  return rows === h;
}

/** PNG filters (None, Sub, Up, Average, Paeth) of one row, its type in byte 0, in place. */
function unpredictPng(row: Uint8Array, prev: Uint8Array, bpp: number): void {
  const type = row[0];
  row[0] = 0;
  for (let i = 1; i < row.length; i++) {
    const left = i > bpp ? row[i - bpp]! : 0;
    const up = prev[i]!;
    const upLeft = i > bpp ? prev[i - bpp]! : 0;
    if (type === 1) row[i] = row[i]! + left;
    else if (type === 2) row[i] = row[i]! + up;
    else if (type === 3) row[i] = row[i]! + ((left + up) >> 1);
    else if (type === 4) row[i] = row[i]! + paeth(left, up, upLeft);
  }
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const [pa, pb, pc] = [Math.abs(p - a), Math.abs(p - b), Math.abs(p - c)];
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** TIFF predictor 2 (horizontal differencing) of one row of 8-bit samples, in place. */
function unpredictTiff(row: Uint8Array, n: number): void {
  for (let i = n; i < row.length; i++) row[i] = row[i]! + row[i - n]!;
}

/**
 * zlib data inflated in JavaScript, a slice at a time, when it comes to at most `cap` bytes;
 * undefined when it is longer or damaged. MuPDF's readStream would decode it into its own heap
 * first, whatever its size (a 440 KB image stream took the heap to 312 MB).
 */
export function inflateAtMost(raw: Uint8Array, cap: number): Uint8Array | undefined {
  const chunks: Uint8Array[] = [];
  let total = 0;
  let done = false;
  try {
    const inflater = new Unzlib((chunk, final) => {
      total += chunk.length;
      if (total <= cap) chunks.push(chunk);
      if (final) done = true;
    });
    for (let at = 0; at < raw.length && total <= cap; at += SLICE_BYTES) inflater.push(raw.subarray(at, at + SLICE_BYTES), at + SLICE_BYTES >= raw.length);
  } catch {
    return undefined;
  }
  return done && total <= cap ? joinChunks(chunks) : undefined;
}

/**
 * zlib data inflated and deflated again as a stream, for data too large to hold decoded (qpdf's
 * --recompress-flate on a 9000 × 9000 image: 440 KB of Flate, 243 MB decoded, 303 KB again):
 * inflated a slice at a time, deflated by the runtime's CompressionStream (native zlib at its
 * default level). Undefined when damaged, when it inflates past `maxDecoded`, or when it does not
 * come out smaller.
 */
export async function reflateStreaming(raw: Uint8Array, maxDecoded: number): Promise<Uint8Array | undefined> {
  const compressor = new CompressionStream('deflate');
  const writer = compressor.writable.getWriter();
  const reader = compressor.readable.getReader();
  const out: Uint8Array[] = [];
  let outBytes = 0;
  const reading = (async () => {
    for (let part = await reader.read(); !part.done; part = await reader.read()) {
      out.push(part.value);
      outBytes += part.value.length;
    }
  })();
  let decoded = 0;
  let done = false;
  try {
    const ready: Uint8Array[] = [];
    const inflater = new Unzlib((chunk, final) => {
      decoded += chunk.length;
      ready.push(chunk);
      if (final) done = true;
    });
    for (let at = 0; at < raw.length && decoded <= maxDecoded && outBytes < raw.length; at += SLICE_BYTES) {
      inflater.push(raw.subarray(at, at + SLICE_BYTES), at + SLICE_BYTES >= raw.length);
      // Each chunk waits for the compressor to take it (its queue's backpressure), so inflated
      // data is never queued faster than it is deflated: a 1 GiB bomb held 113 MB live before.
      for (const chunk of ready.splice(0)) {
        await writer.ready;
        await writer.write(chunk);
      }
    }
  } catch {
    done = false; // damaged: kept as it is
  }
  await writer.close().catch(() => {});
  await reading.catch(() => {});
  return done && decoded <= maxDecoded && outBytes < raw.length ? joinChunks(out) : undefined;
}
