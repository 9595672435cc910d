/** Result names and Content-Disposition (DECISIONS: Conventions). */

/**
 * Characters a file name never keeps: C0 and C1 controls, line and paragraph separators, and the
 * invisible format characters, among them the bidi controls (U+061C, U+200E/F, U+202A–202E,
 * U+2066–2069) that make `invoice\u202Efdp.exe` read as `invoiceexe.pdf`. ZWNJ and ZWJ
 * (U+200C/D) stay: Persian and Indic names and emoji need them.
 */
const INVISIBLE = /[\p{Cc}\u2028\u2029]|(?![\u200c\u200d])\p{Cf}/gu;

/** The name without controls and invisible format characters (see INVISIBLE). */
export function stripInvisible(name: string): string {
  return name.replace(INVISIBLE, '');
}

export function resultName(originalName: string, ext: string): string {
  originalName = stripInvisible(originalName).trim();
  const dot = originalName.lastIndexOf('.');
  let base = dot > 0 ? originalName.slice(0, dot) : originalName;
  if (!base) base = 'document';
  if (!base.endsWith('_service')) base += '_service';
  return `${base}.${ext}`;
}

/** RFC 6266: an ASCII fallback plus the UTF-8 name percent-encoded. */
export function contentDisposition(filename: string): string {
  filename = stripInvisible(filename);
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** A file name from a multipart part, stripped of any path, controls and invisible format characters. */
export function cleanFilename(name: string | undefined | null): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  const cleaned = stripInvisible(base).trim().slice(0, 255);
  return cleaned || 'document';
}
