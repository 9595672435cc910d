/**
 * Word's JPEG passthrough reads a JPEG's frame through the one JPEG header reader
 * (engines/image-header.ts): only what every PDF reader's DCTDecode shows as Word does passes.
 */
import { describe, expect, it } from 'vitest';
import { encodeJpeg } from '../src/codecs/jpeg-encoder';
import { jpegInfo } from '../src/convert/word/layout/jpeg-info';

/** The offset of the first start-of-frame marker's precision byte. */
function sofPrecisionAt(jpeg: Uint8Array): number {
  for (let i = 2; i + 1 < jpeg.length; i++) if (jpeg[i] === 0xff && jpeg[i + 1] === 0xc0) return i + 4;
  throw new Error('no SOF0');
}

describe('jpegInfo', () => {
  it('gives size and components of baseline grey and RGB JPEGs; refuses 12-bit samples and non-JPEG bytes', () => {
    const rgb = encodeJpeg(new Uint8Array(40 * 30 * 3).fill(128), 40, 30, 3, 80, 96);
    const grey = encodeJpeg(new Uint8Array(17 * 9).fill(200), 17, 9, 1, 80, 96);
    expect(jpegInfo(rgb)).toEqual({ width: 40, height: 30, components: 3 });
    expect(jpegInfo(grey)).toEqual({ width: 17, height: 9, components: 1 });
    const twelveBit = rgb.slice();
    twelveBit[sofPrecisionAt(twelveBit)] = 12;
    expect(jpegInfo(twelveBit)).toBeUndefined();
    expect(jpegInfo(new Uint8Array([0x89, 0x50, 0x4e, 0x47]))).toBeUndefined();
  });
});
