/**
 * What a PDF image dictionary needs to show a baseline or progressive JPEG as it is (DCTDecode):
 * its size and colour components, from its start-of-frame marker. Undefined for what a PDF
 * reader would show otherwise than Word does (CMYK and YCCK, whose Adobe marker decides inversion;
 * 12-bit samples; arithmetic coding) or a file whose markers do not read: MuPDF handles those.
 */
export interface JpegInfo {
  width: number;
  height: number;
  components: 1 | 3;
}

const SOF_BASELINE_OR_PROGRESSIVE = new Set([0xc0, 0xc1, 0xc2]);

export function jpegInfo(b: Uint8Array): JpegInfo | undefined {
  if (b[0] !== 0xff || b[1] !== 0xd8) return undefined;
  for (let at = 2; at + 4 <= b.length; ) {
    if (b[at] !== 0xff) return undefined;
    const marker = b[at + 1]!;
    if (marker === 0xff) {
      at++; // fill byte
      continue;
    }
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      at += 2; // markers without a length
      continue;
    }
    const length = (b[at + 2]! << 8) | b[at + 3]!;
    if (length < 2 || at + 2 + length > b.length) return undefined;
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      if (!SOF_BASELINE_OR_PROGRESSIVE.has(marker) || length < 8) return undefined;
      const precision = b[at + 4];
      const height = (b[at + 5]! << 8) | b[at + 6]!;
      const width = (b[at + 7]! << 8) | b[at + 8]!;
      const components = b[at + 9];
      if (precision !== 8 || !width || !height || (components !== 1 && components !== 3)) return undefined;
      return { width, height, components };
    }
    if (marker === 0xda || marker === 0xd9) return undefined; // scan data before any frame header
    at += 2 + length;
  }
  return undefined;
}
