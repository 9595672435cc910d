import { unzipSync } from 'fflate';

/** Input kinds the service accepts (DECISIONS: Upload). Anything else is refused with 422. */
export type FileKind = 'pdf' | 'doc' | 'docx' | 'xls' | 'xlsx' | 'ods' | 'ppt' | 'pptx' | 'odp' | 'html' | 'jpg' | 'png' | 'webp';

export const MIME_OF: Record<FileKind, string> = {
  pdf: 'application/pdf',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  ods: 'application/vnd.oasis.opendocument.spreadsheet',
  ppt: 'application/vnd.ms-powerpoint',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  odp: 'application/vnd.oasis.opendocument.presentation',
  html: 'text/html',
  jpg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
};

const startsWith = (b: Uint8Array, sig: number[], at = 0) => sig.every((x, i) => b[at + i] === x);

function ascii(b: Uint8Array, from: number, to: number): string {
  let s = '';
  for (let i = from; i < Math.min(to, b.length); i++) s += String.fromCharCode(b[i]!);
  return s;
}

/** UTF-16LE needle search: OLE directory entries store stream names that way. */
export function hasUtf16(b: Uint8Array, name: string): boolean {
  const needle = new Uint8Array(name.length * 2);
  for (let i = 0; i < name.length; i++) needle[i * 2] = name.charCodeAt(i);
  outer: for (let i = 0; i + needle.length <= b.length; i++) {
    for (let j = 0; j < needle.length; j++) if (b[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}

function detectOle(b: Uint8Array): FileKind | null {
  // The directory may sit anywhere in the compound file; names are UTF-16LE.
  if (hasUtf16(b, 'WordDocument')) return 'doc';
  if (hasUtf16(b, 'Workbook') || hasUtf16(b, 'Book')) return 'xls';
  // After Excel's: a workbook keeps an embedded slide show as its own storage, whose stream names
  // show; a presentation compresses its embedded objects into its own stream, where none does.
  if (hasUtf16(b, 'PowerPoint Document')) return 'ppt';
  return null;
}

function detectOoxml(b: Uint8Array): FileKind | null {
  const names = new Set<string>();
  let cutOff = false;
  try {
    // The filter lists the central directory and decompresses nothing.
    unzipSync(b, { filter: (f) => (names.add(f.name), false) });
  } catch {
    // A truncated archive has no central directory: its local headers still name the parts, so a
    // cut-off DOCX is still a DOCX (and its task fails with "damaged", like a damaged PDF's), even
    // when [Content_Types].xml, which some writers put last, was cut off with the rest.
    for (const name of localHeaderNames(b)) names.add(name);
    cutOff = true;
  }
  if (!names.has('[Content_Types].xml') && !cutOff) return null;
  if ([...names].some((n) => n.startsWith('word/'))) return 'docx';
  if ([...names].some((n) => n.startsWith('xl/'))) return 'xlsx';
  if ([...names].some((n) => n.startsWith('ppt/'))) return 'pptx';
  return null;
}

/** Where the next local file header ("PK\x03\x04") starts from `from`, or the end. */
function nextLocalHeader(b: Uint8Array, from: number): number {
  for (let i = from; i + 4 <= b.length; i++) if (b[i] === 0x50 && b[i + 1] === 0x4b && b[i + 2] === 3 && b[i + 3] === 4) return i;
  return b.length;
}

/** Names in the ZIP's local file headers, read front to back (at most the first 64). */
function localHeaderNames(b: Uint8Array): string[] {
  const names: string[] = [];
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  let at = 0;
  while (at + 30 <= b.length && names.length < 64 && view.getUint32(at, true) === 0x04034b50) {
    const flags = view.getUint16(at + 6, true);
    const compressed = view.getUint32(at + 18, true);
    const nameLength = view.getUint16(at + 26, true);
    const extraLength = view.getUint16(at + 28, true);
    names.push(ascii(b, at + 30, at + 30 + nameLength));
    const data = at + 30 + nameLength + extraLength;
    // With a data descriptor (flag bit 3) the size is not known up front: the next entry is the next local header's signature.
    at = flags & 8 ? nextLocalHeader(b, data) : data + compressed;
  }
  return names;
}

/**
 * Elements a fragment of HTML starts with: a file saved from part of a page (a table, paragraphs)
 * is HTML to a browser, and to us.
 */
const FRAGMENT_START = /^(<!--[\s\S]*?-->\s*)*<(p|div|table|thead|tbody|tr|td|h[1-6]|ul|ol|li|dl|span|section|article|header|footer|main|nav|img|a|b|i|u|strong|em|pre|blockquote|form|style|meta|title|link|br|hr|font|center|figure)[\s>/]/;

function looksLikeHtml(b: Uint8Array): boolean {
  // UTF-16 (with its byte order mark) is read as such; anything else as bytes.
  const utf16 = b[0] === 0xff && b[1] === 0xfe ? 'utf-16le' : b[0] === 0xfe && b[1] === 0xff ? 'utf-16be' : null;
  const text = utf16 ? new TextDecoder(utf16).decode(b.subarray(2, 4098)) : ascii(b, 0, 2048);
  const head = text.replace(/^\uFEFF|^\xEF\xBB\xBF/, '').trimStart().toLowerCase();
  if (head.startsWith('<!doctype html') || head.startsWith('<html')) return true;
  return /^(<!--[\s\S]*?-->\s*|<\?xml[^>]*>\s*)*<(html|head|body)[\s>]/.test(head) || /<html[\s>]/.test(head) || FRAGMENT_START.test(head);
}

/**
 * A password-protected DOCX, XLSX or PPTX: Office wraps the encrypted package in an OLE compound
 * file, so which of the three it is cannot be told without the password.
 */
export function isEncryptedOfficePackage(b: Uint8Array): boolean {
  return startsWith(b, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]) && hasUtf16(b, 'EncryptedPackage');
}

/** An OpenDocument spreadsheet or presentation: its first entry, stored uncompressed, is "mimetype" naming it (ODF 1.2 §3.3). */
function openDocumentKind(b: Uint8Array): FileKind | null {
  if (ascii(b, 30, 38) !== 'mimetype') return null;
  const mime = ascii(b, 38, 86);
  if (mime.startsWith(MIME_OF.ods)) return 'ods';
  if (mime.startsWith(MIME_OF.odp)) return 'odp';
  return null;
}

/** The kind of a file from its bytes, never from its name. */
export function detectKind(b: Uint8Array): FileKind | null {
  // Signatures at offset 0 first: a JPEG or ZIP may carry the text %PDF- in its metadata.
  if (startsWith(b, [0x25, 0x50, 0x44, 0x46, 0x2d])) return 'pdf';
  if (startsWith(b, [0xff, 0xd8, 0xff])) return 'jpg';
  if (startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'WEBP') return 'webp';
  if (startsWith(b, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return detectOle(b);
  if (startsWith(b, [0x50, 0x4b, 0x03, 0x04])) return openDocumentKind(b) ?? detectOoxml(b);
  // Readers accept a PDF header anywhere in the first 1024 bytes: junk before it is common, even
  // an HTML snippet (seen in the corpus), so this comes before the HTML check.
  if (ascii(b, 0, 1024).includes('%PDF-')) return 'pdf';
  if (looksLikeHtml(b)) return 'html';
  return null;
}
