import { describe, expect, it } from 'vitest';
import { bundledFonts } from '../src/fonts/bundled';
import { renderWordDocument } from '../src/convert/word/layout/render';
import { metafileToSvg } from '../src/paint/metafile';
import type { Inline, WordDocument } from '../src/convert/word/model/index';
import { loadMupdf } from '../src/pdf/mupdf';
import { Bytes, emf } from './metafile-fixtures';

function wmf(): Uint8Array {
  const b = new Bytes();
  b.u32(0x9ac6cdd7).u16(0, 0, 0, 1000, 500, 1440).u32(0).u16(0); // placeable: box 0,0-1000,500
  b.u16(1, 9, 0x300).u32(0).u16(2).u32(0).u16(0); // META_HEADER
  b.u32(5).u16(0x020b, 0, 0); // SETWINDOWORG 0,0
  b.u32(5).u16(0x020c, 500, 1000); // SETWINDOWEXT 1000 x 500
  b.u32(7).u16(0x02fc, 0).u32(0x00ff00).u16(0); // CREATEBRUSHINDIRECT green → slot 0
  b.u32(4).u16(0x012d, 0); // SELECTOBJECT 0
  b.u32(7).u16(0x041b, 300, 400, 100, 200); // RECTANGLE left 200 top 100 right 400 bottom 300
  // CREATEFONTINDIRECT, Russian charset, height -100, face "Times New Roman" → slot 1
  const f = new Bytes().u16(-100, 0, 0, 0, 400).u8(0, 0, 0, 204, 0, 0, 0, 0);
  const name = new Uint8Array(32);
  name.set(new TextEncoder().encode('Times New Roman'));
  f.u8(...name);
  b.u32(3 + f.length / 2).u16(0x02fb).u8(...f.bytes());
  b.u32(4).u16(0x012d, 1);
  b.u32(4).u16(0x012e, 24); // SETTEXTALIGN baseline
  b.u32(8).u16(0x0521, 3).u8(0xcf, 0xf0, 0xe8, 0).u16(450, 100); // TEXTOUT "При" at (100, 450)
  b.u32(3).u16(0);
  return b.bytes();
}

/**
 * A placeable WMF that draws a 4 × 4 icon over a 40 × 40 box the way Windows' icon previews do:
 * DIBSTRETCHBLT of its AND mask (1 bit, stored under the XOR image in one 4 × 8 bitmap, the mask
 * the top half) with SRCAND, then of its colour image (24 bits) with SRCINVERT. The icon is a red
 * left half; the mask makes its right half transparent.
 */
function iconWmf(): Uint8Array {
  const b = new Bytes();
  b.u32(0x9ac6cdd7).u16(0, 0, 0, 40, 40, 1440).u32(0).u16(0); // placeable: box 0,0-40,40
  b.u16(1, 9, 0x300).u32(0).u16(2).u32(0).u16(0);
  b.u32(5).u16(0x020b, 0, 0);
  b.u32(5).u16(0x020c, 40, 40);
  const blit = (rop: number, dib: Bytes) => {
    const params = new Bytes().u32(rop).u16(4, 4, 0, 0, 40, 40, 0, 0); // source h w y x, destination h w y x
    b.u32(3 + (params.length + dib.length) / 2).u16(0x0b41).u8(...params.bytes(), ...dib.bytes());
  };
  // The mask, bottom-up: rows 0-3 (the bottom half, unused here) zero, rows 4-7 (the top half) 0011 (right half transparent).
  const mask = new Bytes().u32(40, 4, 8).u16(1, 1).u32(0, 0, 0, 0, 0, 0).u32(0x000000, 0xffffff);
  for (let row = 0; row < 8; row++) mask.u32(row < 4 ? 0 : 0x30);
  blit(0x008800c6, mask);
  // The colour image: red on the left half, black (XOR leaves the page) on the right; rows of 12 bytes (4 BGR pixels).
  const color = new Bytes().u32(40, 4, 4).u16(1, 24).u32(0, 0, 0, 0, 0, 0);
  for (let row = 0; row < 4; row++) color.u8(0, 0, 255, 0, 0, 255, 0, 0, 0, 0, 0, 0);
  blit(0x00660046, color);
  b.u32(3).u16(0);
  return b.bytes();
}

describe('metafileToSvg', () => {
  it('draws an EMF rectangle and text', () => {
    const svg = metafileToSvg(emf(), 'image/emf')!;
    expect(svg).toMatch(/viewBox="0 0 200 100"/);
    expect(svg).toContain('<path d="M10 20L110 20L110 60L10 60Z" fill="#ff0000" fill-rule="evenodd"/>');
    expect(svg).toMatch(/<text transform="translate\(30 80\)"[^>]*font-family="Arimo" font-size="20" font-weight="bold"[^>]*fill="#000080"[^>]*>Hi<\/text>/);
  });

  it('draws a placeable WMF rectangle and cp1251 text', () => {
    const svg = metafileToSvg(wmf(), 'image/x-wmf')!;
    expect(svg).toMatch(/viewBox="0 0 1000 500"/);
    expect(svg).toContain('<path d="M200 100L400 100L400 300L200 300Z" fill="#00ff00"');
    expect(svg).toMatch(/<text transform="translate\(100 450\)"[^>]*font-family="Tinos" font-size="100"[^>]*>При<\/text>/);
  });

  it('returns undefined for garbage and survives truncation', () => {
    expect(metafileToSvg(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]), 'image/x-wmf')).toBeUndefined();
    expect(metafileToSvg(new Uint8Array(0), 'image/emf')).toBeUndefined();
    expect(metafileToSvg(emf(), 'image/png')).toBeUndefined();
    const e = emf();
    for (let n = 0; n < e.length; n += 7) expect(() => metafileToSvg(e.subarray(0, n), 'image/emf')).not.toThrow();
    const w = wmf();
    for (let n = 0; n < w.length; n += 3) expect(() => metafileToSvg(w.subarray(0, n), 'image/wmf')).not.toThrow();
    const bad = emf();
    bad[92] = 0xff; bad[93] = 0xff; bad[94] = 0xff; bad[95] = 0x7f; // a huge record size
    expect(metafileToSvg(bad, 'image/emf')).toContain('<svg');
  });
});

const page = { width: 612, height: 792, marginTop: 72, marginRight: 72, marginBottom: 72, marginLeft: 72, header: 36, footer: 36 };
const withPicture = (picture: Inline): WordDocument => ({
  sections: [{ page, headers: {}, footers: {}, blocks: [{ kind: 'paragraph', props: {}, inlines: [picture, { kind: 'text', text: ' after', style: { font: 'Calibri', size: 11 } }] }] }],
  notes: new Map(),
  defaultFont: 'Calibri',
  defaultSize: 11,
});

/** The first page's characters (with their boxes) and RGB pixels at 72 dpi. */
async function renderPage(model: WordDocument) {
  const mupdf = await loadMupdf();
  const pdf = mupdf.Document.openDocument(renderWordDocument(model, mupdf, bundledFonts), 'application/pdf');
  try {
    const p = pdf.loadPage(0);
    const chars: { c: string; x: number; y: number }[] = [];
    p.toStructuredText('preserve-whitespace').walk({ onChar: (c, origin) => chars.push({ c, x: origin[0], y: origin[1] }) });
    const pix = p.toPixmap(mupdf.Matrix.identity, mupdf.ColorSpace.DeviceRGB, false);
    const samples = pix.getPixels().slice(), stride = pix.getStride();
    pix.destroy();
    p.destroy();
    const rgb = (x: number, y: number) => [0, 1, 2].map((k) => samples[Math.round(y) * stride + Math.round(x) * 3 + k]!);
    return { chars, rgb };
  } finally {
    pdf.destroy();
  }
}

describe('metafiles in the Word layout', () => {
  it('draws an EMF picture as vector shapes and real text in its box', async () => {
    // 200 × 100 device pixels stretched over 200 × 100 pt: metafile units are points on the page.
    const { chars, rgb } = await renderPage(withPicture({ kind: 'image', data: emf(), contentType: 'image/emf', width: 200, height: 100 }));
    // The red rectangle (10,20)-(110,60): find its top in the middle column, then check its extent.
    let top = -1;
    for (let y = 72; y < 300 && top < 0; y++) {
      const [r, g, b] = rgb(132, y);
      if (r! > 200 && g! < 60 && b! < 60) top = y;
    }
    expect(top).toBeGreaterThan(72 + 20 - 3);
    expect(top).toBeLessThan(72 + 20 + 15);
    const [r, g] = rgb(72 + 100, top + 35);
    expect(r).toBeGreaterThan(200);
    expect(g).toBeLessThan(60);
    expect(rgb(72 + 120, top + 20)).toEqual([255, 255, 255]);
    // "Hi" is extractable text at its baseline (30, 80), 60 below the rectangle's top.
    const h = chars.find((ch) => ch.c === 'H');
    const i = chars[chars.indexOf(h!) + 1];
    expect(h).toBeDefined();
    expect(i?.c).toBe('i');
    expect(Math.abs(h!.x - (72 + 30))).toBeLessThan(2);
    expect(Math.abs(h!.y - (top + 60))).toBeLessThan(3);
    expect(chars.map((ch) => ch.c).join('')).toContain('after');
  });

  it("draws a WMF icon's colour image through its mask, both from packed bitmaps (header, palette and bits in one record)", async () => {
    const { rgb } = await renderPage(withPicture({ kind: 'image', data: iconWmf(), contentType: 'image/x-wmf', width: 40, height: 40 }));
    // The picture sits on the first line; its left half red, its right half the white page.
    let top = -1;
    for (let y = 60; y < 200 && top < 0; y++) if (rgb(72 + 10, y)[0]! > 200 && rgb(72 + 10, y)[1]! < 60) top = y;
    expect(top).toBeGreaterThan(60);
    expect(rgb(72 + 10, top + 20)).toEqual([255, 0, 0]);
    expect(rgb(72 + 30, top + 20)).toEqual([255, 255, 255]);
  });

  it('keeps drawing inside the clip rectangle', async () => {
    const { rgb } = await renderPage(withPicture({ kind: 'image', data: emf(60), contentType: 'image/emf', width: 200, height: 100 }));
    let top = -1;
    for (let y = 72; y < 300 && top < 0; y++) if (rgb(72 + 40, y)[0]! > 200 && rgb(72 + 40, y)[1]! < 60) top = y;
    expect(top).toBeGreaterThan(72);
    expect(rgb(72 + 100, top + 20)).toEqual([255, 255, 255]);
  });

  it('a malformed metafile draws what it can and never breaks the page', async () => {
    const bad = emf();
    bad[92] = 0xff; bad[93] = 0xff; bad[94] = 0xff; bad[95] = 0x7f; // the first record after the header has a huge size
    for (const [data, contentType] of [[bad, 'image/emf'], [new Uint8Array(40), 'image/x-wmf'], [emf().subarray(0, 200), 'image/emf']] as const) {
      const { chars } = await renderPage(withPicture({ kind: 'image', data, contentType, width: 100, height: 50 }));
      expect(chars.map((ch) => ch.c).join('')).toContain('after');
    }
  });
});
