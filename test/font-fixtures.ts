/**
 * Font parts as decks embed them, written here around a real face: an EOT file (the header of the
 * W3C submission, little-endian, names as UTF-16LE, versions 1.0, 2.1 and 2.2, the data XOR-ed
 * when flagged) and a Word-style obfuscated font (its first 32 bytes XOR-ed with a GUID's bytes).
 */

export const EOT_MTX_COMPRESSED = 0x4;
export const EOT_XOR = 0x10000000;

const utf16 = (text: string) => Array.from(text).flatMap((c) => [c.charCodeAt(0) & 0xff, c.charCodeAt(0) >> 8]);
const u16 = (n: number) => [n & 0xff, (n >> 8) & 0xff];
const u32 = (n: number) => [n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff, (n >>> 24) & 0xff];
/** A padding USHORT, a size, the bytes. */
const sized = (bytes: number[]) => [...u16(0), ...u16(bytes.length), ...bytes];

export interface EotOptions {
  version?: 0x00010000 | 0x00020001 | 0x00020002;
  flags?: number;
  family?: string;
  /** Declared font data size, where a test wants a header that lies. */
  fontDataSize?: number;
}

/** `font` wrapped in an EOT header (version 2.1 unless asked), XOR-ed with 0x50 when `flags` has EOT_XOR. */
export function eotOf(font: Uint8Array, { version = 0x00020001, flags = 0, family = 'MadeUp Sans', fontDataSize }: EotOptions = {}): Uint8Array {
  const names = [...u16(utf16(family).length), ...utf16(family), ...sized(utf16('Regular')), ...sized(utf16('Version 1.0')), ...sized(utf16(`${family} Regular`))];
  const v21 = version >= 0x00020001 ? sized(utf16('https://example.com/')) : [];
  const v22 = version === 0x00020002 ? [...u32(0), ...u32(0), ...u16(0), ...u16(0), ...u32(0), ...u32(0)] : [];
  const headerLength = 82 + names.length + v21.length + v22.length;
  const fixed = new Uint8Array(82);
  const view = new DataView(fixed.buffer);
  view.setUint32(0, headerLength + font.length, true);
  view.setUint32(4, fontDataSize ?? font.length, true);
  view.setUint32(8, version, true);
  view.setUint32(12, flags, true);
  fixed[26] = 1; // Charset: DEFAULT_CHARSET
  view.setUint32(28, 400, true); // Weight
  view.setUint16(34, 0x504c, true); // MagicNumber
  const data = font.slice();
  if (flags & EOT_XOR) for (let i = 0; i < data.length; i++) data[i] = data[i]! ^ 0x50;
  const out = new Uint8Array(headerLength + data.length);
  out.set(fixed);
  out.set([...names, ...v21, ...v22], 82);
  out.set(data, headerLength);
  return out;
}

/** `font` obfuscated as Word obfuscates an embedded font with `guid` ("{…}"): its first 32 bytes XOR-ed with the GUID's bytes, last first. */
export function obfuscatedOf(font: Uint8Array, guid: string): Uint8Array {
  const hex = guid.replace(/[{}-]/g, '');
  const key = Array.from({ length: 16 }, (_, i) => parseInt(hex.slice(30 - 2 * i, 32 - 2 * i), 16));
  const out = font.slice();
  for (let i = 0; i < 32; i++) out[i] = out[i]! ^ key[i % 16]!;
  return out;
}
