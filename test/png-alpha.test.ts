import { describe, expect, it } from 'vitest';
import { unzlibSync, zlibSync } from 'fflate';
import { splitAlphaPng } from '../src/converters/word/layout/png-alpha';
import { loadMupdf } from '../src/engines/mupdf';

// The split must give back exactly the pixels that were filtered in, for every PNG filter type: the
// colours as a PDF reader (MuPDF) decodes them through the PNG predictor, the alpha as it is.

/** The colour samples of a split as a PDF image object decodes them (Flate, then PNG predictor 15). */
async function decodedColors(deflated: Uint8Array, width: number, height: number, colors: 1 | 3): Promise<Uint8Array> {
  const mupdf = await loadMupdf();
  const pdf = new mupdf.PDFDocument();
  try {
    const dict = pdf.newDictionary();
    dict.put('Type', pdf.newName('XObject'));
    dict.put('Subtype', pdf.newName('Image'));
    dict.put('Width', width);
    dict.put('Height', height);
    dict.put('ColorSpace', pdf.newName(colors === 3 ? 'DeviceRGB' : 'DeviceGray'));
    dict.put('BitsPerComponent', 8);
    dict.put('Filter', pdf.newName('FlateDecode'));
    const parms = pdf.newDictionary();
    parms.put('Predictor', 15);
    parms.put('Colors', colors);
    parms.put('BitsPerComponent', 8);
    parms.put('Columns', width);
    dict.put('DecodeParms', parms);
    const image = pdf.loadImage(pdf.addRawStream(deflated, dict));
    const pixmap = image.toPixmap();
    expect([pixmap.getWidth(), pixmap.getHeight(), pixmap.getNumberOfComponents(), pixmap.getAlpha()]).toEqual([width, height, colors, 0]);
    const samples = new Uint8Array(pixmap.getPixels());
    pixmap.destroy();
    image.destroy();
    return samples;
  } finally {
    pdf.destroy();
  }
}

/** PNG's forward filters on one row (bpp bytes per pixel), the inverse of what the split undoes. */
function filterRow(type: number, row: Uint8Array, above: Uint8Array, bpp: number): Uint8Array {
  const out = new Uint8Array(row.length + 1);
  out[0] = type;
  for (let x = 0; x < row.length; x++) {
    const left = x >= bpp ? row[x - bpp]! : 0;
    const up = above[x]!;
    const corner = x >= bpp ? above[x - bpp]! : 0;
    let predicted = 0;
    if (type === 1) predicted = left;
    else if (type === 2) predicted = up;
    else if (type === 3) predicted = (left + up) >> 1;
    else if (type === 4) {
      const p = left + up - corner;
      const pl = Math.abs(p - left);
      const pu = Math.abs(p - up);
      const pc = Math.abs(p - corner);
      predicted = pl <= pu && pl <= pc ? left : pu <= pc ? up : corner;
    }
    out[x + 1] = (row[x]! - predicted) & 0xff;
  }
  return out;
}

/** Pixels with some structure (gradients, noise) and the IDAT data of them, each row with the next filter type. */
function image(width: number, height: number, channels: 2 | 4, alphaOf: (x: number, y: number) => number) {
  const pixels = new Uint8Array(width * height * channels);
  let seed = 7;
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const at = (y * width + x) * channels;
      seed = (seed * 1103515245 + 12345) >>> 0;
      for (let c = 0; c < channels - 1; c++) pixels[at + c] = (x * 13 + y * 7 * (c + 1) + (seed >>> 24)) & 0xff;
      pixels[at + channels - 1] = alphaOf(x, y);
    }
  const rowBytes = width * channels;
  const filtered = new Uint8Array(height * (rowBytes + 1));
  for (let y = 0; y < height; y++) {
    const row = pixels.subarray(y * rowBytes, (y + 1) * rowBytes);
    const above = y ? pixels.subarray((y - 1) * rowBytes, y * rowBytes) : new Uint8Array(rowBytes);
    filtered.set(filterRow(y % 5, row, above, channels), y * (rowBytes + 1));
  }
  return { pixels, idat: zlibSync(filtered) };
}

describe('splitting a PNG with alpha (png-alpha.ts)', () => {
  it('RGBA: colour and alpha samples come back exactly, through all five filter types', async () => {
    const { pixels, idat } = image(37, 23, 4, (x, y) => (x * 7 + y * 11) & 0xff);
    const split = splitAlphaPng(idat, 37, 23, 3)!;
    const color = await decodedColors(split.color, 37, 23, 3);
    const alpha = unzlibSync(split.alpha!);
    expect(color.length).toBe(37 * 23 * 3);
    expect(alpha.length).toBe(37 * 23);
    for (let i = 0; i < 37 * 23; i++) {
      expect([color[i * 3], color[i * 3 + 1], color[i * 3 + 2], alpha[i]]).toEqual([pixels[i * 4], pixels[i * 4 + 1], pixels[i * 4 + 2], pixels[i * 4 + 3]]);
    }
  });

  it('grey+alpha likewise', async () => {
    const { pixels, idat } = image(19, 11, 2, (x) => (x < 5 ? 0 : 200));
    const split = splitAlphaPng(idat, 19, 11, 1)!;
    expect(Array.from(await decodedColors(split.color, 19, 11, 1))).toEqual(Array.from(pixels.filter((_, i) => i % 2 === 0)));
    expect(Array.from(unzlibSync(split.alpha!))).toEqual(Array.from(pixels.filter((_, i) => i % 2 === 1)));
  });

  it('all-opaque alpha gives no mask', () => {
    const { idat } = image(16, 16, 4, () => 255);
    expect(splitAlphaPng(idat, 16, 16, 3)!.alpha).toBeUndefined();
  });

  it('damaged data is left to the slower decoder: short scanlines, a bad filter type, not zlib', () => {
    const { idat } = image(16, 16, 4, () => 255);
    expect(splitAlphaPng(idat, 16, 17, 3)).toBeUndefined();
    const badFilter = new Uint8Array(16 * 65);
    badFilter[0] = 9;
    expect(splitAlphaPng(zlibSync(badFilter), 16, 16, 3)).toBeUndefined();
    expect(splitAlphaPng(new Uint8Array([1, 2, 3, 4]), 16, 16, 3)).toBeUndefined();
  });
});
