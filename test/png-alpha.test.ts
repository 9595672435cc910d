import { describe, expect, it } from 'vitest';
import { unzlibSync, zlibSync } from 'fflate';
import { pngAlpha } from '../src/codecs/png-alpha';
import type * as Mupdf from 'mupdf';
import { loadMupdf } from '../src/pdf/mupdf';
import { assemblePng } from '../src/codecs/png';
import { bundledFonts } from '../src/fonts/bundled';
import { renderWordDocument } from '../src/convert/word/layout/render';
import type { WordDocument } from '../src/convert/word/model/index';

// The alpha taken out must be exactly the samples that were filtered in, for every PNG filter type
// (on the first row, with nothing above, too); the colours stay in the PNG's own data (checked
// through a PDF reader in word-pictures.test.ts).

const page = { width: 612, height: 792, marginTop: 72, marginRight: 72, marginBottom: 72, marginLeft: 72, header: 36, footer: 36 };

/** A PNG as the converter writes it into a PDF: its colours as MuPDF decodes the image object (in RGB or grey), its soft mask's samples. */
async function written(png: Uint8Array, grey: boolean): Promise<{ colorSpace: string; colors: Uint8Array; mask?: Uint8Array }> {
  const mupdf = await loadMupdf();
  const model: WordDocument = {
    sections: [{ page, headers: {}, footers: {}, blocks: [{ kind: 'paragraph', props: {}, inlines: [{ kind: 'image', data: png, contentType: 'image/png', width: 80, height: 40 }] }] }],
    notes: new Map(),
    defaultFont: 'Calibri',
    defaultSize: 11,
  };
  const pdf = mupdf.Document.openDocument(renderWordDocument(model, mupdf, bundledFonts), 'application/pdf') as Mupdf.PDFDocument;
  try {
    let ref: Mupdf.PDFObject | undefined;
    pdf.findPage(0).get('Resources', 'XObject').forEach((x) => {
      if (x.get('Subtype').asName() === 'Image') ref = x;
    });
    const samples = (image: Mupdf.Image, space: Mupdf.ColorSpace) => {
      const decoded = image.toPixmap();
      const converted = decoded.convertToColorSpace(space);
      const out = new Uint8Array(converted.getPixels());
      decoded.destroy();
      converted.destroy();
      image.destroy();
      return out;
    };
    const mask = ref!.get('SMask');
    return {
      colorSpace: ref!.get('ColorSpace').get(0).asName(),
      colors: samples(pdf.loadImage(ref!), grey ? mupdf.ColorSpace.DeviceGray : mupdf.ColorSpace.DeviceRGB),
      mask: mask.isStream() ? samples(pdf.loadImage(mask), mupdf.ColorSpace.DeviceGray) : undefined,
    };
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

/** Pixels with some structure (gradients, noise) and the IDAT data of them, each row with the next filter type (the first: `firstFilter`). */
function image(width: number, height: number, channels: 2 | 4, alphaOf: (x: number, y: number) => number, firstFilter = 0) {
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
    filtered.set(filterRow((y + firstFilter) % 5, row, above, channels), y * (rowBytes + 1));
  }
  return { pixels, filtered, idat: zlibSync(filtered) };
}

describe("a PNG's alpha samples (png-alpha.ts)", () => {
  it('RGBA: the alpha comes back exactly, through all five filter types, on the first row too', () => {
    for (let first = 0; first < 5; first++) {
      const { pixels, idat } = image(37, 23, 4, (x, y) => (x * 7 + y * 11) & 0xff, first);
      const alpha = unzlibSync(pngAlpha(idat, 37, 23, 3)!.alpha!);
      expect(Array.from(alpha)).toEqual(Array.from(pixels.filter((_, i) => i % 4 === 3)));
    }
  });

  it('grey+alpha likewise', () => {
    for (let first = 0; first < 5; first++) {
      const { pixels, idat } = image(19, 11, 2, (x, y) => (x < 5 ? 0 : 200 + y), first);
      expect(Array.from(unzlibSync(pngAlpha(idat, 19, 11, 1)!.alpha!))).toEqual(Array.from(pixels.filter((_, i) => i % 2 === 1)));
    }
  });

  it('all-opaque alpha gives no mask, whatever the filters', () => {
    for (let first = 0; first < 5; first++) {
      const { idat } = image(16, 16, 4, () => 255, first);
      expect(pngAlpha(idat, 16, 16, 3)!.alpha).toBeUndefined();
    }
  });

  it('the opaque check misses no pixel: one of 254 anywhere in the first rows, under every filter type', () => {
    for (let first = 0; first < 5; first++)
      for (let y = 0; y < 3; y++)
        for (const x of [0, 1, 7]) {
          const { idat } = image(8, 4, 4, (px, py) => (px === x && py === y ? 254 : 255), first);
          expect(unzlibSync(pngAlpha(idat, 8, 4, 3)!.alpha!)[y * 8 + x]).toBe(254);
        }
  });

  it('one transparent pixel is enough for a mask', () => {
    const { idat } = image(16, 16, 4, (x, y) => (x === 15 && y === 15 ? 254 : 255));
    expect(unzlibSync(pngAlpha(idat, 16, 16, 3)!.alpha!)[255]).toBe(254);
  });

  it("in the PDF, the PNG's own data shows its colours exactly (the alpha ignored), the mask its alpha", async () => {
    const { pixels, filtered } = image(37, 23, 4, (x, y) => (x * 7 + y * 11) & 0xff);
    const rgba = await written(assemblePng(37, 23, 6, filtered), false);
    expect(rgba.colorSpace).toBe('DeviceN');
    expect(Array.from(rgba.colors)).toEqual(Array.from(pixels.filter((_, i) => i % 4 !== 3)));
    expect(Array.from(rgba.mask!)).toEqual(Array.from(pixels.filter((_, i) => i % 4 === 3)));
    const grey = image(19, 11, 2, () => 255, 2);
    const greyAlpha = await written(assemblePng(19, 11, 4 as 6, grey.filtered), true);
    expect(Array.from(greyAlpha.colors)).toEqual(Array.from(grey.pixels.filter((_, i) => i % 2 === 0)));
    expect(greyAlpha.mask).toBeUndefined();
  });

  it('damaged data is left to the slower decoder: short scanlines, a bad filter type, not zlib', () => {
    const { idat } = image(16, 16, 4, () => 255);
    expect(pngAlpha(idat, 16, 17, 3)).toBeUndefined();
    const badFilter = new Uint8Array(16 * 65);
    badFilter[0] = 9;
    expect(pngAlpha(zlibSync(badFilter), 16, 16, 3)).toBeUndefined();
    expect(pngAlpha(new Uint8Array([1, 2, 3, 4]), 16, 16, 3)).toBeUndefined();
  });
});
