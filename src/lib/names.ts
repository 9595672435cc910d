/** Result names and Content-Disposition (DECISIONS: Conventions). */

export function resultName(originalName: string, ext: string): string {
  const dot = originalName.lastIndexOf('.');
  let base = dot > 0 ? originalName.slice(0, dot) : originalName;
  if (!base) base = 'document';
  if (!base.endsWith('_service')) base += '_service';
  return `${base}.${ext}`;
}

/** RFC 6266: an ASCII fallback plus the UTF-8 name percent-encoded. */
export function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** A file name from a multipart part, stripped of any path and control characters. */
export function cleanFilename(name: string | undefined | null): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  const cleaned = base.replace(/[\x00-\x1f\x7f]/g, '').trim().slice(0, 255);
  return cleaned || 'document';
}
