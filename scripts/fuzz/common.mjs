// Shared pieces of the poison suite's generators: a seeded random source, CRC-32, byte helpers,
// and the corpus mutations (truncation at a fraction, seeded byte flips). Plain JavaScript with
// no Node built-ins, so that test/poison.test.ts can run the same generators inside workerd.

/** mulberry32: a small seeded generator; the same seed gives the same files. */
export function rng(seed) {
  let a = seed >>> 0 || 0x9e3779b9;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n) => Math.floor(next() * n),
    pick: (list) => list[Math.floor(next() * list.length)],
  };
}

/** A seed for one named thing derived from the run's seed (FNV-1a of the name, mixed). */
export function subSeed(seed, name) {
  let h = 0x811c9dc5 ^ (seed >>> 0);
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193) >>> 0;
  return h >>> 0;
}

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

/** CRC-32 (PNG, ZIP); `crc` continues an earlier value. */
export function crc32(bytes, crc = 0) {
  let c = (crc ^ 0xffffffff) >>> 0;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

export const utf8 = (s) => new TextEncoder().encode(s);

export function concat(parts) {
  const total = parts.reduce((n, p) => n + p.length, 0);
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export const u32be = (n) => Uint8Array.of((n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255);
export const u16be = (n) => Uint8Array.of((n >>> 8) & 255, n & 255);
export const u32le = (n) => Uint8Array.of(n & 255, (n >>> 8) & 255, (n >>> 16) & 255, (n >>> 24) & 255);
export const u16le = (n) => Uint8Array.of(n & 255, (n >>> 8) & 255);

/** The first `fraction` of the file (at least one byte, at most all but one). */
export function truncated(bytes, fraction) {
  const n = Math.min(bytes.length - 1, Math.max(1, Math.floor(bytes.length * fraction)));
  return bytes.slice(0, n);
}

/**
 * A copy with `count` bytes XOR-ed with a random non-zero value at seeded places. The first
 * `keepHead` bytes are left alone so that the type is still detected from the content (an upload
 * refused as an unknown type tests nothing).
 */
export function byteFlipped(bytes, seed, count, keepHead = 16) {
  const r = rng(seed);
  const out = bytes.slice();
  const span = Math.max(1, out.length - keepHead);
  for (let i = 0; i < count; i++) {
    const at = keepHead + r.int(span);
    if (at < out.length) out[at] ^= 1 + r.int(255);
  }
  return out;
}
