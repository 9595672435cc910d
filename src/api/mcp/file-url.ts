/**
 * `file_url` of the MCP tools: the file an agent points at, fetched by the service. Every hop goes
 * through the outbound URL guard (lib/outbound-url.ts) before it is connected to; redirects are
 * followed by hand, at most MAX_REDIRECTS, each target checked again; the plan's size limit is
 * enforced while the body streams in (a lying or missing Content-Length changes nothing); the
 * whole fetch has one time limit. Each failure is a FileUrlError whose message an agent can act on.
 *
 * Every network failure (refused, reset, DNS, TLS, the time limit, a body cut short) is one and the
 * same message, so that the answer tells nobody whether a port is open; the cause goes to the log.
 */
import { outboundUrlProblem, type UrlPolicy } from '../../lib/outbound-url';

export const MAX_REDIRECTS = 3;
export const FETCH_TIMEOUT_MS = 30_000;

export class FileUrlError extends Error {
  override name = 'FileUrlError';
}

export interface FetchedFile {
  bytes: Uint8Array;
  /** A file name for the upload record: the URL's last path segment, or "file". */
  filename: string;
}

/**
 * Fetches `raw` for `field` ("file_url", "file_urls[1]"), at most `maxBytes`, all of it within
 * `timeoutMs` (FETCH_TIMEOUT_MS; a test passes less).
 */
export async function fetchFileUrl(raw: string, field: string, maxBytes: number, policy: UrlPolicy, fetcher: typeof fetch = fetch, timeoutMs = FETCH_TIMEOUT_MS): Promise<FetchedFile> {
  const deadline = AbortSignal.timeout(timeoutMs);
  let url = raw;
  for (let hop = 0; ; hop++) {
    const problem = outboundUrlProblem(url, policy);
    if (problem) throw new FileUrlError(`${field} ${hop ? `redirects to ${url}, which ` : ''}${problem}; give a public https:// link to the file`);
    let res: Response;
    try {
      res = await fetcher(url, { redirect: 'manual', signal: deadline, headers: { 'user-agent': 'pdf-edge-mcp/1.0' } });
    } catch (err) {
      throw unreachable(field, url, err);
    }
    if (res.status >= 300 && res.status < 400 && res.headers.get('location')) {
      await res.body?.cancel();
      if (hop >= MAX_REDIRECTS) throw new FileUrlError(`${field}: more than ${MAX_REDIRECTS} redirects; give the file's final link`);
      url = new URL(res.headers.get('location')!, url).href;
      continue;
    }
    if (!res.ok) {
      await res.body?.cancel();
      throw new FileUrlError(`${field}: ${url} answered HTTP ${res.status}${res.status === 404 ? ' (not found)' : ''}; check that the link is public and points at the file`);
    }
    let bytes: Uint8Array;
    try {
      bytes = await readLimited(res, field, maxBytes, deadline, () => tooSlow(field, timeoutMs));
    } catch (err) {
      if (err instanceof FileUrlError) throw err;
      // The host answered already, so saying it was too slow tells nothing about its ports.
      throw deadline.aborted ? tooSlow(field, timeoutMs) : unreachable(field, url, err);
    }
    return { bytes, filename: filenameOf(url) };
  }
}

/** The one answer for a link the network did not deliver; what happened is logged, never told. */
function unreachable(field: string, url: string, err: unknown): FileUrlError {
  console.warn(JSON.stringify({ event: 'file_url_unreachable', field, url, error: String(err), name: (err as Error)?.name }));
  return new FileUrlError(`${field}: the file could not be fetched from ${url}; check that the link works from the public Internet`);
}

/** The time limit ran out while the body was coming (the response had begun). */
function tooSlow(field: string, timeoutMs: number): FileUrlError {
  return new FileUrlError(`${field}: the link did not send its file within ${timeoutMs / 1000} s; use a faster host or upload the file another way`);
}

/**
 * The body, at most `maxBytes`, given up when `deadline` fires: each read races the deadline, so a
 * body that trickles (or a runtime that does not abort a body's reads with the fetch) still ends on time.
 */
async function readLimited(res: Response, field: string, maxBytes: number, deadline: AbortSignal, timedOut: () => FileUrlError): Promise<Uint8Array> {
  const tooLarge = () => new FileUrlError(`${field}: the file is larger than the ${Math.round(maxBytes / 1_000_000)} MB your plan allows per file`);
  const declared = Number(res.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await res.body?.cancel();
    throw tooLarge();
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = res.body?.getReader();
  if (reader) {
    let stop: () => void = () => {};
    const expired = new Promise<'expired'>((resolve) => {
      stop = () => resolve('expired');
      deadline.addEventListener('abort', stop, { once: true });
    });
    if (deadline.aborted) stop();
    for (;;) {
      const read = await Promise.race([reader.read(), expired]);
      if (read === 'expired') {
        reader.cancel().catch(() => {});
        throw timedOut();
      }
      const { done, value } = read;
      if (done) break;
      size += value.length;
      if (size > maxBytes) {
        await reader.cancel();
        throw tooLarge();
      }
      chunks.push(value);
    }
  }
  if (size === 0) throw new FileUrlError(`${field}: the link gave an empty file`);
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) (bytes.set(c, at), (at += c.length));
  return bytes;
}

function filenameOf(url: string): string {
  const segment = new URL(url).pathname.split('/').pop() ?? '';
  let name = segment;
  try {
    name = decodeURIComponent(segment);
  } catch {
    // a malformed escape: the segment as it is
  }
  return name.replace(/[^\p{L}\p{N}._ -]+/gu, '_') || 'file';
}
