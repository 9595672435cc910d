/**
 * The faces a document carries (a deck's embedded fonts), read from its parts: only those of
 * families its text is written in, at most DOCUMENT_FACES_MAX of them, each part's declared size
 * checked against the limits before it is unpacked. A part is a bare TrueType/OpenType face, an
 * EOT file (eot.ts) or an obfuscated Office font (obfuscated.ts); a face that cannot be used is
 * told to the problem sink and its text falls back to the catalog's substitute for its family.
 */
import type { FaceStyle } from '../catalog';
import { fontOfEot, isEot } from './eot';
import { FS_TYPE_RESTRICTED, readFaceFile } from './face-file';
import { deobfuscatedFont } from './obfuscated';

/** A font part a document names, not read yet. */
export interface FontPartRef {
  /** The family the document's text names it by ("Open Sans"). */
  family: string;
  /** The style the document files it under; undefined: the face's own (read from its OS/2 table). */
  style?: FaceStyle;
  part: string;
  /** The part's unpacked size as the archive declares it: checked against the limits before the part is read. */
  size: number;
  /** The GUID an obfuscated part is XOR-ed with (its w:fontKey or file name); undefined: not obfuscated. */
  obfuscationKey?: string;
  /** The part's bytes; undefined when they cannot be read (the package tells why). */
  read(): Uint8Array | undefined;
}

/** A face of the document, checked: its family as the document names it, its style and the font file. */
export interface DocumentFace {
  family: string;
  style: FaceStyle;
  bytes: Uint8Array;
  part: string;
  outlines: 'glyf' | 'cff';
}

/** What a face that cannot be used is told to (the converter's problem sink). */
export type FaceProblemSink = (problem: { part: string; reason: string }) => void;

/** Faces read at most: four styles of four families; a deck's text is in fewer. */
export const DOCUMENT_FACES_MAX = 16;
/**
 * Bytes of one face and of all together: a Latin face is 50–800 KB, a CJK face cut to the
 * characters used a few MB. Each face is held three times while a deck converts (its bytes,
 * MuPDF's copy, the PDF's subset), beside the deck and its layout in a 128 MB isolate.
 */
export const DOCUMENT_FACE_BYTES_MAX = 8 * 1_048_576;
export const DOCUMENT_FACES_BYTES_MAX = 16 * 1_048_576;

/** A family name as faces and text are matched by: the case and the spaces around it do not count. */
export const familyKey = (name: string): string => name.trim().toLowerCase();

/** The font file inside a part: an EOT file unwrapped, an obfuscated font XOR-ed back; or why there is none. */
function fontFile(bytes: Uint8Array, ref: FontPartRef): Uint8Array | string {
  if (isEot(bytes)) {
    const eot = fontOfEot(bytes);
    return 'font' in eot ? eot.font : eot.problem;
  }
  // A copy of its own: a stored part is a view of the archive, an inflated one may be a Node Buffer (whose slice() is a view).
  if (ref.obfuscationKey === undefined) return new Uint8Array(bytes);
  return deobfuscatedFont(bytes, ref.obfuscationKey) ?? 'an obfuscated font whose key holds no GUID';
}

/** The face of one part, checked; or why it cannot be used. */
function faceOf(ref: FontPartRef, bytes: Uint8Array): DocumentFace | string {
  const font = fontFile(bytes, ref);
  if (typeof font === 'string') return font;
  const file = readFaceFile(font);
  if (typeof file === 'string') return file;
  if (file.fsType & FS_TYPE_RESTRICTED) return 'its licence forbids embedding it (OS/2 fsType: restricted)';
  return { family: ref.family.trim(), style: ref.style ?? file.style, bytes: font, part: ref.part, outlines: file.outlines };
}

/** The document's faces of the families `usedNames` holds, within the limits; what is passed over is told to `problems`. */
export function loadDocumentFaces(refs: readonly FontPartRef[], usedNames: Iterable<string | undefined>, problems: FaceProblemSink): DocumentFace[] {
  const used = new Set<string>();
  for (const name of usedNames) if (name) used.add(familyKey(name));
  const faces: DocumentFace[] = [];
  const taken = new Set<string>();
  const partsRead = new Set<string>();
  let total = 0;
  const skip = (part: string, reason: string) => problems({ part, reason: `${reason}: its text is drawn in the substitute face` });
  for (const ref of refs) {
    const key = familyKey(ref.family);
    const styleKey = `${key}/${ref.style ?? ''}`;
    if (!used.has(key) || taken.has(styleKey) || partsRead.has(`${key}/${ref.part}`)) continue;
    if (faces.length >= DOCUMENT_FACES_MAX) {
      skip(ref.part, `the document embeds more than ${DOCUMENT_FACES_MAX} faces its text uses; the rest are not read`);
      break;
    }
    if (ref.size > DOCUMENT_FACE_BYTES_MAX) {
      skip(ref.part, `an embedded font of ${ref.size} bytes; at most ${DOCUMENT_FACE_BYTES_MAX} are read`);
      continue;
    }
    if (total + ref.size > DOCUMENT_FACES_BYTES_MAX) {
      skip(ref.part, `the embedded fonts pass ${DOCUMENT_FACES_BYTES_MAX} bytes together`);
      continue;
    }
    partsRead.add(`${key}/${ref.part}`);
    const bytes = ref.read();
    if (!bytes) continue;
    total += Math.max(ref.size, bytes.length);
    const face = faceOf(ref, bytes);
    if (typeof face === 'string') {
      skip(ref.part, `an embedded font that is not used (${face})`);
      continue;
    }
    // Two parts filed under one style (an ODP's style read from the faces): the first stands.
    const faceKey = `${key}/${face.style}`;
    if (taken.has(faceKey)) continue;
    taken.add(faceKey);
    if (ref.style) taken.add(styleKey);
    faces.push(face);
  }
  return faces;
}
