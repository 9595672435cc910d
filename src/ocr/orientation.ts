/**
 * Pages scanned sideways or upside down (OCR Worker). This Tesseract build has no orientation
 * detector (that needs the legacy engine and a 10 MB model), so a page Tesseract reads poorly as
 * it is is read again turned 180, 90 and 270 degrees, and the turn it reads best is kept. The
 * page pictures are the grey PNGs the API Worker draws (src/operations/ocr.ts: 8-bit grey, rows
 * unfiltered); a turned one goes to Tesseract as PGM.
 */
import { unzlibSync } from 'fflate';
import type { OcrWord } from './tesseract';

/** Clockwise turns tried after the page as it is, in order of likelihood. */
export const TURNS = [180, 90, 270] as const;
export type Turn = 0 | (typeof TURNS)[number];

/** What the OCR Worker leaves for a page: the clockwise turn it was read at, and the words in the turned picture's pixels. */
export interface PageReading {
  turn: Turn;
  words: OcrWord[];
}

/**
 * From the picture turned `turn` degrees clockwise back to the picture as drawn on the page, in
 * points (y down, as the page's visible frame): x = a x' + c y' + e, y = b x' + d y' + f, for a
 * picture `w` × `h` points as drawn.
 */
export function unturn(turn: Turn, w: number, h: number): [number, number, number, number, number, number] {
  if (turn === 90) return [0, -1, 1, 0, 0, h];
  if (turn === 180) return [-1, 0, 0, -1, w, h];
  if (turn === 270) return [0, 1, -1, 0, w, 0];
  return [1, 0, 0, 1, 0, 0];
}

/** Words read with at least this mean confidence are taken as they are (Tesseract's 0-100 scale). */
export const CONFIDENT = 60;
/** Pictures narrower than this (pixels) either way are not tried turned: a line or two of text. */
export const MIN_TURNED_SIDE = 300;
/** A turned reading replaces the reading as it is only when this much more confident. */
export const BETTER_BY = 20;

/** Mean confidence of the words, weighted by their length (stray one-letter readings count little). */
export function readingConfidence(words: readonly OcrWord[]): number {
  let [sum, weight] = [0, 0];
  for (const w of words) {
    const letters = [...w.text].length;
    sum += Math.max(0, w.conf) * letters;
    weight += letters;
  }
  return weight ? sum / weight : 0;
}

/** Whether most words of three letters or more stand taller than they are wide: text running up or down the picture. */
export function runsVertically(words: readonly OcrWord[]): boolean {
  const long = words.filter((w) => [...w.text].length >= 3);
  return long.length > 0 && long.filter((w) => w.y1 - w.y0 > w.x1 - w.x0).length * 2 > long.length;
}

/** Our grey PNG's size and samples. */
export function greyPngSamples(png: Uint8Array): { width: number; height: number; samples: Uint8Array } {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  const [width, height] = [view.getUint32(16), view.getUint32(20)];
  const idat: Uint8Array[] = [];
  for (let at = 8; at + 8 <= png.length; ) {
    const length = view.getUint32(at);
    const type = String.fromCharCode(...png.subarray(at + 4, at + 8));
    if (type === 'IDAT') idat.push(png.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  const joined = new Uint8Array(idat.reduce((n, c) => n + c.length, 0));
  idat.reduce((at, c) => (joined.set(c, at), at + c.length), 0);
  const rows = unzlibSync(joined);
  const samples = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) samples.set(rows.subarray(y * (width + 1) + 1, (y + 1) * (width + 1)), y * width);
  return { width, height, samples };
}

/** The picture turned `turn` degrees clockwise, as PGM bytes. */
export function turnedPgm(width: number, height: number, samples: Uint8Array, turn: Turn): Uint8Array {
  const [w, h] = turn === 90 || turn === 270 ? [height, width] : [width, height];
  const head = new TextEncoder().encode(`P5\n${w} ${h}\n255\n`);
  const out = new Uint8Array(head.length + w * h);
  out.set(head);
  const body = out.subarray(head.length);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      // The source pixel of turned pixel (x, y).
      const [sx, sy] = turn === 0 ? [x, y] : turn === 180 ? [width - 1 - x, height - 1 - y] : turn === 90 ? [y, height - 1 - x] : [width - 1 - y, x];
      body[y * w + x] = samples[sy * width + sx]!;
    }
  }
  return out;
}
