/** An image's Flate rows read a slice at a time (src/codecs/flate-rows.ts): every PNG filter and the TIFF predictor undone. */
import { describe, expect, it } from 'vitest';
import { zlibSync } from 'fflate';
import { unzlibSync } from 'fflate';
import { flateRows, inflateAtMost, reflateStreaming } from '../src/codecs/flate-rows';

const [W, H, N] = [37, 23, 3];

/** Samples no predictor guesses: each row type has real work to undo. */
const samples = Uint8Array.from({ length: W * H * N }, (_, i) => (i * 7919 + (i >> 5) * 31) % 251);

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const [pa, pb, pc] = [Math.abs(p - a), Math.abs(p - b), Math.abs(p - c)];
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** Rows PNG-filtered, the filter type cycling through None, Sub, Up, Average and Paeth. */
function pngFiltered(): Uint8Array {
  const width = W * N;
  const out = new Uint8Array(H * (width + 1));
  for (let y = 0; y < H; y++) {
    const type = y % 5;
    out[y * (width + 1)] = type;
    for (let i = 0; i < width; i++) {
      const x = samples[y * width + i]!;
      const left = i >= N ? samples[y * width + i - N]! : 0;
      const up = y > 0 ? samples[(y - 1) * width + i]! : 0;
      const upLeft = y > 0 && i >= N ? samples[(y - 1) * width + i - N]! : 0;
      const guess = [0, left, up, (left + up) >> 1, paeth(left, up, upLeft)][type]!;
      out[y * (width + 1) + 1 + i] = (x - guess) & 255;
    }
  }
  return out;
}

function readAll(raw: Uint8Array, predictor: number): { ok: boolean; rows: Uint8Array } {
  const rows = new Uint8Array(W * H * N);
  let y = 0;
  const ok = flateRows(raw, W, H, N, { predictor, colors: N, bitsPerComponent: 8, columns: W }, (row) => rows.set(row, W * N * y++));
  return { ok, rows };
}

describe('flateRows', () => {
  it('undoes all five PNG filters, row by row', () => {
    const { ok, rows } = readAll(zlibSync(pngFiltered()), 15);
    expect(ok).toBe(true);
    expect(rows).toEqual(samples);
  });

  it('undoes the TIFF predictor and reads unpredicted data as it is', () => {
    const tiff = samples.map((x, i) => (i % (W * N) >= N ? (x - samples[i - N]!) & 255 : x));
    expect(readAll(zlibSync(tiff), 2).rows).toEqual(samples);
    expect(readAll(zlibSync(samples), 1).rows).toEqual(samples);
  });

  it('data cut short or not zlib at all reports false instead of throwing', () => {
    const whole = zlibSync(samples);
    expect(readAll(whole.subarray(0, whole.length >> 1), 1).ok).toBe(false);
    expect(readAll(new TextEncoder().encode('not zlib data at all'), 1).ok).toBe(false);
  });

  it('a predictor whose columns or colours do not match the image is refused, not misread', () => {
    const ok = flateRows(zlibSync(pngFiltered()), W, H, N, { predictor: 15, colors: 1, bitsPerComponent: 8, columns: W }, () => {});
    expect(ok).toBe(false);
  });

  it('inflateAtMost gives the bytes within its cap and nothing past it, without inflating the rest', () => {
    const big = zlibSync(new Uint8Array(40 * 1024 * 1024)); // 40 MB of zeros in about 40 KB
    expect(inflateAtMost(big, 1024 * 1024)).toBeUndefined();
    expect(inflateAtMost(zlibSync(samples), samples.length)).toEqual(samples);
    expect(inflateAtMost(zlibSync(samples), samples.length - 1)).toBeUndefined();
    expect(inflateAtMost(zlibSync(samples).subarray(0, 50), samples.length)).toBeUndefined();
  });

  it('reflateStreaming deflates again what it inflates, smaller, and gives up on damage, on its cap and when nothing is gained', async () => {
    const plain = Uint8Array.from({ length: 3_000_000 }, (_, i) => (i % 7919 < 40 ? i & 255 : 255)); // mostly white rows
    const poorly = zlibSync(plain, { level: 0 }); // stored, not compressed
    const again = await reflateStreaming(poorly, 8_000_000);
    expect(again!.length).toBeLessThan(poorly.length);
    expect(unzlibSync(again!)).toEqual(plain);
    expect(await reflateStreaming(poorly, 1_000_000)).toBeUndefined();
    expect(await reflateStreaming(poorly.subarray(0, poorly.length >> 1), 8_000_000)).toBeUndefined();
    expect(await reflateStreaming(zlibSync(plain, { level: 9 }), 8_000_000)).toBeUndefined();
  });
});
