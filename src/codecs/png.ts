/**
 * Writing PNG files and data URIs: the chart rasteriser, metafile bitmaps and the layout's
 * placeholder pictures all make PNGs, with one encoder.
 */
import { zlibSync } from 'fflate';

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

/** Pictures with fewer sample bytes than this are stored uncompressed. */
const TINY_BYTES = 256;

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  let c = 0xffffffff;
  for (let i = 4; i < 8 + data.length; i++) c = CRC_TABLE[(c ^ out[i]!) & 0xff]! ^ (c >>> 8);
  dv.setUint32(8 + data.length, (c ^ 0xffffffff) >>> 0);
  return out;
}

/**
 * A PNG from rows that are already filtered (each starts with its filter type byte).
 * colorType: 0 grey, 2 RGB, 3 palette (then `palette` holds RGB triples), 6 RGBA; 8 bits per sample.
 */
export function assemblePng(width: number, height: number, colorType: 0 | 2 | 3 | 6, filteredRows: Uint8Array, palette?: Uint8Array): Uint8Array {
  const ihdr = new Uint8Array(13);
  const dv = new DataView(ihdr.buffer);
  dv.setUint32(0, width);
  dv.setUint32(4, height);
  ihdr.set([8, colorType, 0, 0, 0], 8);
  const parts = [
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    ...(palette ? [chunk('PLTE', palette)] : []),
    // Tiny pictures (the layout's 2×1 placeholders, a thousand in a diagram-heavy document) are
    // stored: compressing gains nothing there, and fflate's level 6 sets up 80 µs of tables per call.
    chunk('IDAT', zlibSync(filteredRows, { level: filteredRows.length < TINY_BYTES ? 0 : 6 })),
    chunk('IEND', new Uint8Array(0)),
  ];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * Bytes of base64 text (whitespace allowed), with Uint8Array.fromBase64 where the runtime has it;
 * else through atob, copied by a plain loop (Uint8Array.from with a mapping callback took 290 ms
 * for the 2 MB of fonts in one page).
 */
export function fromBase64(text: string): Uint8Array {
  const clean = text.replace(/\s+/g, '');
  const native = (Uint8Array as unknown as { fromBase64?: (s: string) => Uint8Array }).fromBase64;
  if (typeof native === 'function') return native(clean);
  const binary = atob(clean);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

/** The bytes of a data: URL, base64 or percent-encoded; undefined for anything else. */
export function dataUrlBytes(url: string): Uint8Array | undefined {
  const comma = url.indexOf(',');
  if (!/^data:/i.test(url) || comma < 0) return undefined;
  const payload = url.slice(comma + 1);
  return /;base64$/i.test(url.slice(0, comma)) ? fromBase64(payload) : new TextEncoder().encode(decodeURIComponent(payload));
}

/** Base64 of bytes, with Uint8Array.toBase64 where the runtime has it (workerd does: many times faster than btoa). */
export function base64(bytes: Uint8Array): string {
  const native = (bytes as Uint8Array & { toBase64?: () => string }).toBase64;
  if (typeof native === 'function') return native.call(bytes);
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}
