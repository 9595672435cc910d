/**
 * Names the file formats people upload by mistake that we do not read, from their bytes, so a
 * refusal can say what the file is and what to do ("an RTF document: open it in Word and save it
 * as .docx"), not only that its type is not supported. A Word user's ".doc" is often really RTF,
 * a web page, Word 2003 XML or an OpenDocument file: Word opens all of them, so the user never
 * learned the difference.
 */

import { hasUtf16 } from './detect';

/** What the file is, with the way to a format we accept; null when we cannot tell. */
export function describeUnaccepted(b: Uint8Array): string | null {
  const head = ascii(b, 0, 4096);
  if (head.startsWith('{\\rtf')) return 'an RTF document: open it in Word and save it as .docx (Word Document), then upload that';
  if (b[0] === 0x31 && b[1] === 0xbe) return 'a Word for DOS or Word for Windows 1.x/2.0 document: open it in Word or LibreOffice and save it as .docx';
  if (b[0] === 0xdb && b[1] === 0xa5) return 'a Word 2.0 document: open it in Word or LibreOffice and save it as .docx';
  if (head.startsWith('\xffWPC')) return 'a WordPerfect document: open it in LibreOffice or Word and save it as .docx';
  if (head.startsWith('PK\x03\x04')) return describeZip(b, head);
  if (startsWithOle(b)) return describeOle(b);
  const text = head.replace(/^\xef\xbb\xbf/, '').trimStart();
  if (/^MIME-Version:/i.test(text) || /^From:[^\n]*\r?\nSubject:/i.test(text)) {
    return 'a web archive (MHT/MHTML, Word\'s "Single File Web Page"): open it in Word and save it as .docx';
  }
  if (/<\?mso-application\s+progid="Word\.Document"|<w:wordDocument[\s>]/.test(text)) {
    return 'a Word 2003 XML document: open it in Word and save it as .docx (Word Document)';
  }
  if (/<pkg:package[\s>]/.test(text)) return 'a Word flat XML package (Flat OPC): open it in Word and save it as .docx';
  if (/<office:document[\s>]/.test(text)) return 'a flat OpenDocument file (.fodt/.fods): open it in LibreOffice and save it as .docx or PDF';
  if (head.startsWith('GIF8')) return 'a GIF image: save it as PNG or JPG';
  if (head.startsWith('BM') && b.length > 26) return 'a BMP image: save it as PNG or JPG';
  if (head.startsWith('II*\0') || head.startsWith('MM\0*')) return 'a TIFF image: save it as PNG, JPG or PDF';
  return null;
}

function describeZip(b: Uint8Array, head: string): string | null {
  // OpenDocument and EPUB store an uncompressed "mimetype" entry first (ODF 1.2 §3.3, OCF).
  const mime = /^PK\x03\x04[\s\S]{26}mimetype([a-z0-9.+\/-]{10,80})/.exec(head)?.[1] ?? '';
  const odf: Record<string, string> = {
    'application/vnd.oasis.opendocument.text': 'an OpenDocument text (.odt)',
    'application/vnd.oasis.opendocument.spreadsheet': 'an OpenDocument spreadsheet (.ods)',
    'application/vnd.oasis.opendocument.presentation': 'an OpenDocument presentation (.odp)',
    'application/vnd.oasis.opendocument.graphics': 'an OpenDocument drawing (.odg)',
  };
  const name = odf[mime.replace(/-template$/, '')];
  if (name) return `${name}: open it in LibreOffice and save it as ${mime.includes('spreadsheet') ? '.xlsx' : mime.includes('presentation') ? '.pptx' : '.docx'} or PDF, then upload that`;
  if (mime === 'application/epub+zip') return 'an EPUB e-book: this service does not read EPUB';
  if (head.includes('[Content_Types].xml') && /xl\/|ppt\/|word\//.test(head)) return null; // OOXML: detectKind decides
  return 'a ZIP archive: unpack it and upload the documents inside one by one';
}

function describeOle(b: Uint8Array): string | null {
  if (hasUtf16(b, 'PowerPoint Document')) return 'a PowerPoint 97-2003 presentation (.ppt): open it in PowerPoint or LibreOffice and save it as .pptx';
  if (hasUtf16(b, '__substg1.0_')) return 'an Outlook message (.msg): save its attachments and upload those';
  if (hasUtf16(b, 'VisioDocument')) return 'a Visio drawing: export it as PDF';
  return 'an OLE compound file that is not a Word or Excel document';
}

const startsWithOle = (b: Uint8Array) => [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1].every((x, i) => b[i] === x);

function ascii(b: Uint8Array, from: number, to: number): string {
  let s = '';
  for (let i = from; i < Math.min(to, b.length); i++) s += String.fromCharCode(b[i]!);
  return s;
}
