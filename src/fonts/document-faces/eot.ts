/**
 * Embedded OpenType (EOT, W3C member submission 2008), the wrapper PowerPoint writes its embedded
 * fonts in (ppt/fonts/*.fntdata): a little-endian header (sizes, version, flags, the names as
 * UTF-16, then by version a root string, a signature and EUDC data) before the font itself.
 * Every size the header declares is checked against the bytes there really are before anything
 * is sliced: a header that runs past them is damage, told as such.
 *
 * The font data may be XOR-obfuscated (one key byte, 0x50), which is undone here, or compressed
 * with MicroType Express, which is not: no npm package decodes MTX (fonteditor-core reads only
 * uncompressed EOT; libeot is C), so such a face is reported and its text falls back to the
 * catalog's substitute.
 */

/** Header versions the format defines: 1.0, 2.1 (root strings), 2.2 (signature, EUDC font). */
const VERSIONS = new Set([0x00010000, 0x00020001, 0x00020002]);
const MAGIC = 0x504c;
/** Flags: the font data is MicroType Express compressed; it is XOR-ed with XOR_KEY. */
const TTEMBED_TTCOMPRESSED = 0x4;
const TTEMBED_XORENCRYPTDATA = 0x10000000;
const XOR_KEY = 0x50;
/** The fixed part of the header, up to FamilyNameSize. */
const FIXED_HEADER = 82;

export type EotFont = { font: Uint8Array } | { problem: string };

/** Whether the bytes begin with an EOT header (its magic number and a version it defines), not a bare font. */
export function isEot(bytes: Uint8Array): boolean {
  if (bytes.length < FIXED_HEADER + 2) return false;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return view.getUint16(34, true) === MAGIC && VERSIONS.has(view.getUint32(8, true));
}

/** A cursor over the header that refuses to read or skip past the end. */
class HeaderReader {
  constructor(
    private readonly view: DataView,
    public at: number,
  ) {}

  /** A USHORT here, or undefined when it would run past the header's end. */
  u16(): number | undefined {
    if (this.at + 2 > this.view.byteLength) return undefined;
    const v = this.view.getUint16(this.at, true);
    this.at += 2;
    return v;
  }

  u32(): number | undefined {
    if (this.at + 4 > this.view.byteLength) return undefined;
    const v = this.view.getUint32(this.at, true);
    this.at += 4;
    return v;
  }

  /** Skips `n` bytes; false when they are not all there. */
  skip(n: number | undefined): boolean {
    if (n === undefined || n > this.view.byteLength - this.at) return false;
    this.at += n;
    return true;
  }

  /** A padding USHORT then a size-prefixed field (the names, the root string): skipped. */
  sizedField(): boolean {
    return this.u16() !== undefined && this.skip(this.u16());
  }
}

/** Where the font data starts: past the names and, by version, the root string, signature and EUDC data. */
function fontDataOffset(view: DataView, version: number): number | undefined {
  const header = new HeaderReader(view, FIXED_HEADER);
  // FamilyNameSize + FamilyName, then Padding2, StyleName, Padding3, VersionName, Padding4, FullName.
  if (!header.skip(header.u16())) return undefined;
  for (let i = 0; i < 3; i++) if (!header.sizedField()) return undefined;
  if (version >= 0x00020001 && !header.sizedField()) return undefined; // Padding5, RootString
  if (version === 0x00020002) {
    // RootStringCheckSum, EUDCCodePage, Padding6, then SignatureSize + Signature, EUDCFlags, EUDCFontSize + EUDCFontData.
    if (!header.skip(10) || !header.skip(header.u16()) || !header.skip(4) || !header.skip(header.u32())) return undefined;
  }
  return header.at;
}

/** The font inside an EOT file, un-XOR-ed; or why it cannot be had. */
export function fontOfEot(bytes: Uint8Array): EotFont {
  if (!isEot(bytes)) return { problem: 'not an Embedded OpenType file (no EOT header)' };
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const eotSize = view.getUint32(0, true);
  const fontDataSize = view.getUint32(4, true);
  const version = view.getUint32(8, true);
  const flags = view.getUint32(12, true);
  if (eotSize > bytes.length) return { problem: `its EOT header declares ${eotSize} bytes; the part holds ${bytes.length}` };
  if (flags & TTEMBED_TTCOMPRESSED) return { problem: 'its font data is MicroType Express compressed, which is not decoded here' };
  const offset = fontDataOffset(view, version);
  if (offset === undefined) return { problem: 'its EOT header runs past the end of the part' };
  if (fontDataSize === 0 || fontDataSize > bytes.length - offset) return { problem: `its EOT header declares ${fontDataSize} bytes of font data; ${bytes.length - offset} follow the header` };
  // A copy (a Buffer's slice() would be a view of the archive's bytes, which the XOR below must not touch).
  const font = new Uint8Array(bytes.subarray(offset, offset + fontDataSize));
  if (flags & TTEMBED_XORENCRYPTDATA) for (let i = 0; i < font.length; i++) font[i]! ^= XOR_KEY;
  return { font };
}
