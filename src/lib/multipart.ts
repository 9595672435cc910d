/**
 * multipart/form-data read into ONE buffer, with each part's data as a subarray of it.
 * `request.formData()` plus `file.arrayBuffer()` would hold a 50 MB upload two or three times
 * over in a 128 MB isolate; this holds it once (RFC 7578 framing, no streaming needed since the
 * whole file is needed anyway for type detection and page counting).
 *
 * The search is linear in the body whatever the boundary (issue 40): the delimiter
 * `CRLF--boundary` is found with Knuth–Morris–Pratt (each byte looked at a bounded number of
 * times, so a body of near-matches costs no more than any other), the scan between candidates
 * left to the engine's native `indexOf` for the delimiter's first byte (CR). Boundaries longer
 * than RFC 2046's 70 characters are refused before anything is searched.
 */

/** RFC 2046 §5.1.1: a boundary is 1 to 70 characters. */
export const MAX_BOUNDARY_LENGTH = 70;
/** The header block of one part (Content-Disposition, Content-Type): longer is not a form a client sends. */
export const MAX_PART_HEADER_BYTES = 16 * 1024;
/** Parts in one body: an upload is one file and a few fields; a million empty parts is only work. */
export const MAX_PARTS = 100;

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
  const m = /boundary=(?:"([^"]*)"|([^;\s]+))/i.exec(contentType);
  return m ? (m[1] ?? m[2]!) : null;
}

/** Why a boundary cannot be used (empty, or longer than RFC 2046 allows), or null when it can. */
export function boundaryProblem(boundary: string): string | null {
  if (boundary.length === 0) return 'the multipart boundary is empty';
  if (boundary.length > MAX_BOUNDARY_LENGTH) {
    return `the multipart boundary is ${boundary.length} characters long; RFC 2046 allows at most ${MAX_BOUNDARY_LENGTH}`;
  }
  return null;
}

/** A precomputed search for one needle: KMP's failure table, native indexOf for the first byte. */
class DelimiterSearch {
  private readonly fail: Int32Array;
  constructor(private readonly needle: Uint8Array) {
    const m = needle.length;
    this.fail = new Int32Array(m);
    for (let i = 1, k = 0; i < m; i++) {
      while (k > 0 && needle[i] !== needle[k]) k = this.fail[k - 1]!;
      if (needle[i] === needle[k]) k++;
      this.fail[i] = k;
    }
  }

  /** The first index at or after `from` where the needle starts, or -1. */
  find(hay: Uint8Array, from: number): number {
    const needle = this.needle;
    const m = needle.length;
    const fail = this.fail;
    const first = needle[0]!;
    const n = hay.length;
    let k = 0;
    for (let i = from; i < n; i++) {
      if (k === 0) {
        // Nothing matched yet: only the needle's first byte can start a match.
        i = hay.indexOf(first, i);
        if (i < 0) return -1;
      }
      const b = hay[i];
      while (k > 0 && b !== needle[k]) k = fail[k - 1]!;
      if (b === needle[k]) k++;
      if (k === m) return i - m + 1;
    }
    return -1;
  }
}

const CRLFCRLF = new DelimiterSearch(new Uint8Array([0x0d, 0x0a, 0x0d, 0x0a]));

/** The parts of a multipart body. Header bytes are read as UTF-8 (browsers send file names that way). */
export function parseMultipart(body: Uint8Array, boundary: string): Part[] {
  const problem = boundaryProblem(boundary);
  if (problem) throw new MultipartError(problem);
  const dashBoundary = new TextEncoder().encode(`--${boundary}`);
  const delimiter = new Uint8Array(dashBoundary.length + 2);
  delimiter.set([0x0d, 0x0a]);
  delimiter.set(dashBoundary, 2);
  const search = new DelimiterSearch(delimiter);
  const parts: Part[] = [];
  // The first boundary may open the body without a CRLF before it; anything before it is preamble.
  let at: number;
  if (dashBoundary.every((b, i) => body[i] === b)) at = 0;
  else {
    const found = search.find(body, 0);
    if (found < 0) throw new MultipartError('no multipart boundary found in the body');
    at = found + 2;
  }
  for (let count = 0; ; count++) {
    at += dashBoundary.length;
    if (body[at] === 0x2d && body[at + 1] === 0x2d) return parts; // closing delimiter "--"
    if (count >= MAX_PARTS) throw new MultipartError(`the body has more than ${MAX_PARTS} parts`);
    while (body[at] === 0x20 || body[at] === 0x09) at++; // transport padding
    if (body[at] === 0x0d) at++;
    if (body[at] === 0x0a) at++;
    let dataStart: number;
    let headers: string;
    if (body[at] === 0x0d && body[at + 1] === 0x0a) {
      headers = ''; // a part without header lines
      dataStart = at + 2;
    } else {
      const headerEnd = CRLFCRLF.find(body.subarray(0, Math.min(body.length, at + MAX_PART_HEADER_BYTES + 4)), at);
      if (headerEnd < 0) {
        throw new MultipartError(body.length > at + MAX_PART_HEADER_BYTES + 4 ? `a part's headers are longer than ${MAX_PART_HEADER_BYTES / 1024} KB` : 'a part has no header end');
      }
      headers = new TextDecoder().decode(body.subarray(at, headerEnd));
      dataStart = headerEnd + 4;
    }
    // The CRLF before a delimiter belongs to the delimiter; the part's data may be empty.
    const next = search.find(body, dataStart - 2);
    if (next < 0) throw new MultipartError('the body ends before the closing boundary');
    const dataEnd = Math.max(next, dataStart);
    const disposition = /^content-disposition:(.*)$/im.exec(headers)?.[1] ?? '';
    const name = dispositionParam(disposition, 'name');
    if (name !== null) parts.push({ name, filename: dispositionParam(disposition, 'filename'), data: body.subarray(dataStart, dataEnd) });
    at = next + 2;
  }
}
