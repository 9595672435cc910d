/**
 * A font file a document carries, checked before anything lays text out in it: a TrueType or
 * OpenType face whose table directory and every table lie within the file, with the tables our
 * measuring and the PDF writer read (cmap, head, hhea, hmtx, maxp, and glyf + loca or CFF). Its
 * style (bold, italic) and its embedding licence (OS/2 fsType) are read from it too.
 */
import type { FaceStyle } from '../catalog';
import { faceStyle } from '../catalog';
import { MAX_FONT_TABLES } from '../sfnt';

export interface FaceFile {
  /** TrueType outlines (glyf), which our PDF writer subsets and embeds itself; or CFF, which MuPDF's writer embeds. */
  outlines: 'glyf' | 'cff';
  /** The style the face says it is (OS/2 fsSelection, else head macStyle). */
  style: FaceStyle;
  /** OS/2 fsType: the embedding licence bits (0 where the face has no OS/2 table). */
  fsType: number;
}

const TRUETYPE = new Set([0x00010000, 0x74727565 /* 'true' */]);
const OTTO = 0x4f54544f;
const TTCF = 0x74746366;
const HEAD_MAGIC = 0x5f0f3cf5;
/** Tables read, with the least length each must have. */
const REQUIRED: Record<string, number> = { cmap: 4, head: 54, hhea: 36, hmtx: 4, maxp: 6 };
/**
 * OS/2 fsType bit 1, Restricted License embedding: the face must not be embedded (nor, so, put into
 * a PDF). LibreOffice uses an embedded face for viewing unless this bit is set
 * (EmbeddedFontsHelper::sufficientTTFRights, FontRights::ViewingAllowed), so print-and-preview
 * (bit 2), editable (bit 3) and installable (0) faces are drawn here, restricted ones are not.
 */
export const FS_TYPE_RESTRICTED = 0x0002;

const tagAt = (b: Uint8Array, at: number) => String.fromCharCode(b[at]!, b[at + 1]!, b[at + 2]!, b[at + 3]!);

/** The face's tables by tag, each within the file; or why the file is not a face this reads. */
function tableDirectory(bytes: Uint8Array, view: DataView): Map<string, { offset: number; length: number }> | string {
  if (bytes.length < 12) return 'too short to be a font';
  const version = view.getUint32(0);
  if (version === TTCF) return 'a font collection (TTC), which is not read';
  if (!TRUETYPE.has(version) && version !== OTTO) return 'not a TrueType or OpenType font';
  const count = view.getUint16(4);
  if (!count || count > MAX_FONT_TABLES) return `its directory lists ${count} tables`;
  if (12 + count * 16 > bytes.length) return 'its table directory runs past the end of the file';
  const tables = new Map<string, { offset: number; length: number }>();
  for (let i = 0; i < count; i++) {
    const at = 12 + i * 16;
    const offset = view.getUint32(at + 8);
    const length = view.getUint32(at + 12);
    if (offset > bytes.length || length > bytes.length - offset) return `its ${tagAt(bytes, at).trim()} table runs past the end of the file`;
    tables.set(tagAt(bytes, at), { offset, length });
  }
  return tables;
}

/** The face's outlines, style and licence; or, as a string, why it cannot be used. */
export function readFaceFile(bytes: Uint8Array): FaceFile | string {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tables = tableDirectory(bytes, view);
  if (typeof tables === 'string') return tables;
  for (const [tag, least] of Object.entries(REQUIRED)) {
    const table = tables.get(tag);
    if (!table) return `it has no ${tag} table`;
    if (table.length < least) return `its ${tag} table is cut short`;
  }
  const head = tables.get('head')!.offset;
  if (view.getUint32(head + 12) !== HEAD_MAGIC) return 'its head table is damaged';
  const unitsPerEm = view.getUint16(head + 18);
  if (unitsPerEm < 16 || unitsPerEm > 16384) return `its head table gives ${unitsPerEm} units per em`;
  if (!view.getUint16(tables.get('maxp')!.offset + 4)) return 'it has no glyphs';
  const outlines = tables.has('glyf') && tables.has('loca') ? 'glyf' : tables.has('CFF ') || tables.has('CFF2') ? 'cff' : undefined;
  if (!outlines) return 'it has no outlines (glyf or CFF)';
  const os2 = tables.get('OS/2');
  const fsType = os2 && os2.length >= 10 ? view.getUint16(os2.offset + 8) : 0;
  // fsSelection: bit 0 italic, bit 5 bold; head macStyle: bit 0 bold, bit 1 italic.
  const selection = os2 && os2.length >= 64 ? view.getUint16(os2.offset + 62) : undefined;
  const macStyle = view.getUint16(head + 44);
  const bold = selection !== undefined ? !!(selection & 0x20) : !!(macStyle & 1);
  const italic = selection !== undefined ? !!(selection & 1) : !!(macStyle & 2);
  return { outlines, style: faceStyle(bold, italic), fsType };
}
