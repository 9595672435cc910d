/**
 * multipart/form-data read into ONE buffer, with each part's data as a subarray of it.
 * `request.formData()` plus `file.arrayBuffer()` would hold a 50 MB upload two or three times
 * over in a 128 MB isolate; this holds it once (RFC 7578 framing, no streaming needed since the
 * whole file is needed anyway for type detection and page counting).
 */

export interface Part {
  name: string;
  filename: string | null;
  data: Uint8Array;
}

export class MultipartError extends Error {}

/** The body's bytes, refusing more than `maxBytes` without reading further. */
export async function readBody(body: ReadableStream<Uint8Array> | null, declaredLength: number | null, maxBytes: number): Promise<Uint8Array | null> {
  if (!body) return new Uint8Array(0);
  let buffer = new Uint8Array(declaredLength !== null && declaredLength <= maxBytes ? declaredLength : Math.min(maxBytes, 1 << 20));
  let length = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (length + value.length > maxBytes) {
      await reader.cancel();
      return null;
    }
    if (length + value.length > buffer.length) {
      const grown = new Uint8Array(Math.min(maxBytes, Math.max(buffer.length * 2, length + value.length)));
      grown.set(buffer.subarray(0, length));
      buffer = grown;
    }
    buffer.set(value, length);
    length += value.length;
  }
  return buffer.subarray(0, length);
}

function indexOf(haystack: Uint8Array, needle: Uint8Array, from: number): number {
  const first = needle[0];
  const last = haystack.length - needle.length;
  for (let i = haystack.indexOf(first!, from); i !== -1 && i <= last; i = haystack.indexOf(first!, i + 1)) {
    let j = 1;
    while (j < needle.length && haystack[i + j] === needle[j]) j++;
    if (j === needle.length) return i;
  }
  return -1;
}

function dispositionParam(header: string, name: string): string | null {
  const star = new RegExp(`;\\s*${name}\\*=(?:UTF-8|utf-8)''([^;]*)`).exec(header);
  if (star) {
    try {
      return decodeURIComponent(star[1]!.trim());
    } catch {
      /* fall through to the plain form */
    }
  }
  const quoted = new RegExp(`;\\s*${name}="((?:[^"\\\\]|\\\\.)*)"`).exec(header);
  if (quoted) return quoted[1]!.replace(/\\(.)/g, '$1');
  const bare = new RegExp(`;\\s*${name}=([^;\\s]+)`).exec(header);
  return bare ? bare[1]! : null;
}

export function boundaryOf(contentType: string): string | null {
  const m = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  return m ? (m[1] ?? m[2]!) : null;
}

/** The parts of a multipart body. Header bytes are read as UTF-8 (browsers send file names that way). */
export function parseMultipart(body: Uint8Array, boundary: string): Part[] {
  const delimiter = new TextEncoder().encode(`--${boundary}`);
  const parts: Part[] = [];
  let at = indexOf(body, delimiter, 0);
  if (at < 0) throw new MultipartError('no multipart boundary found in the body');
  for (;;) {
    at += delimiter.length;
    if (body[at] === 0x2d && body[at + 1] === 0x2d) return parts; // closing delimiter "--"
    if (body[at] === 0x0d) at++;
    if (body[at] === 0x0a) at++;
    const headerEnd = indexOf(body, new Uint8Array([0x0d, 0x0a, 0x0d, 0x0a]), at);
    if (headerEnd < 0) throw new MultipartError('a part has no header end');
    const headers = new TextDecoder().decode(body.subarray(at, headerEnd));
    const next = indexOf(body, delimiter, headerEnd + 4);
    if (next < 0) throw new MultipartError('the body ends before the closing boundary');
    const dataEnd = next >= 2 && body[next - 2] === 0x0d && body[next - 1] === 0x0a ? next - 2 : next;
    const disposition = /^content-disposition:(.*)$/im.exec(headers)?.[1] ?? '';
    const name = dispositionParam(disposition, 'name');
    if (name !== null) parts.push({ name, filename: dispositionParam(disposition, 'filename'), data: body.subarray(headerEnd + 4, dataEnd) });
    at = next;
  }
}
