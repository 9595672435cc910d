/**
 * Placeholder pictures: where MuPDF's HTML engine cannot draw something (metafiles, shapes) or
 * should not touch it (PNGs written as they are), the layout puts a 2×1 RGB picture whose first
 * pixel is a magic colour naming the kind and whose second pixel is the item's index (24 bits).
 * Whoever meets it later (the page device, or the written PDF) reads the pixels back.
 */
import type * as Mupdf from 'mupdf';
import { base64, encodePng } from '../../../codecs/dib';

export type Magic = readonly [number, number, number];

export const METAFILE_MAGIC: Magic = [0x4d, 0x46, 0xa7];
export const SHAPE_MAGIC: Magic = [0x53, 0x48, 0x9e];
export const PICTURE_MAGIC: Magic = [0x50, 0x4e, 0x71];

/** The PNG of the placeholder for item `index` of a kind. */
export function placeholderPng(magic: Magic, index: number): Uint8Array {
  const rgb = new Uint8Array([...magic, index & 0xff, (index >> 8) & 0xff, (index >> 16) & 0xff]);
  return encodePng({ width: 2, height: 1, rgb });
}

/** The data: URL of the placeholder for item `index` of a kind. */
export function placeholderUrl(magic: Magic, index: number): string {
  return `data:image/png;base64,${base64(placeholderPng(magic, index))}`;
}

/** The index a placeholder's samples carry (`components` per pixel), or undefined when they are not one of this kind. */
export function placeholderIndex(samples: ArrayLike<number>, components: number, magic: Magic): number | undefined {
  const n = components;
  if (n < 3 || samples.length < 2 * n || samples[0] !== magic[0] || samples[1] !== magic[1] || samples[2] !== magic[2]) return undefined;
  return samples[n]! | (samples[n + 1]! << 8) | (samples[n + 2]! << 16);
}

/** The index an image drawn by the layout carries, if it is a placeholder of this kind. */
export function imagePlaceholderIndex(image: Mupdf.Image, magic: Magic): number | undefined {
  if (image.getWidth() !== 2 || image.getHeight() !== 1) return undefined;
  const pix = image.toPixmap();
  try {
    return placeholderIndex(pix.getPixels(), pix.getNumberOfComponents() + pix.getAlpha(), magic);
  } finally {
    pix.destroy();
  }
}
