import { deflateSync, inflateRawSync, inflateSync } from 'node:zlib';

/**
 * Inflates whose output size is known (declared by the file, so not trusted), by the runtime's
 * native zlib (node:zlib: C++ in workerd and in Node).
 *
 * The output goes into one buffer of the declared size when that is not bigger than
 * MAX_CHUNK_BYTES: workerd's synchronous node:zlib calls hand the whole input to C++ at once
 * whatever the chunk size; Node's loop over 16 KiB chunks in JavaScript and joins them, which took
 * half of a 30 MB inflate's time there (17 ms against 8).
 *
 * The bound is NOT the declared size itself. workerd grows its output buffer in steps and throws
 * "Memory limit exceeded" as soon as a step would pass `maxOutputLength`, even when the data
 * would have fitted: with the bound at the exact size, entries of about 32-128 KB failed inside
 * the Worker while Node read them (styles.xml, numbering.xml and document.xml of real DOCX files:
 * headings lost their styles, whole documents were refused as damaged). Measured in workerd over
 * 900 random sizes (1 B-8 MB) and compressibilities: 1.5x the size still failed, 2x + 64 KiB
 * never did. So zlib is allowed that much, and the length is checked here afterwards: still a
 * bound on what a hostile size can make us allocate, and the same outcome in both runtimes.
 */
export function knownSizeInflate(size: number): { maxOutputLength: number; chunkSize: number } {
  return {
    maxOutputLength: Math.min(2 * size + GROWTH_SLACK_BYTES, MAX_OUTPUT_BYTES),
    chunkSize: Math.min(Math.max(MIN_CHUNK_BYTES, size), MAX_CHUNK_BYTES),
  };
}

/** Raw deflate data (zip entries) of at most `size` bytes; throws when it is damaged or longer. */
export function inflateRawKnownSize(data: Uint8Array, size: number): Uint8Array {
  return atMost(bounded(() => inflateRawSync(data, knownSizeInflate(size)), size), size);
}

/** zlib data (PNG IDAT, PDF Flate) of at most `size` bytes; throws when it is damaged or longer. */
export function inflateKnownSize(data: Uint8Array, size: number): Uint8Array {
  return atMost(bounded(() => inflateSync(data, knownSizeInflate(size)), size), size);
}

/**
 * zlib data of `data` at `level`, with the same output bound as the inflates: workerd's deflateSync
 * with its defaults threw "Memory limit exceeded" on a 1-bit scan page's pixels (decoded, a few MB)
 * that Node deflated. Deflate never grows data by more than a few bytes per 16 KB block.
 */
export function deflateBounded(data: Uint8Array, level: number): Uint8Array {
  return deflateSync(data, { level, ...knownSizeInflate(data.length) });
}

function atMost(out: Uint8Array, size: number): Uint8Array {
  if (out.length > size) throw tooLong(size);
  return out;
}

/**
 * The inflate, its output bound reached told as what it is: data longer than declared (a lying
 * header, or a bomb). workerd says "Memory limit exceeded" there and Node "Cannot create a Buffer
 * larger than...", which read as the isolate running out of memory: the task runner retried such
 * files (a DOCX whose document.xml lied about its size was inflated three times, then failed).
 */
function bounded(inflate: () => Uint8Array, size: number): Uint8Array {
  try {
    return inflate();
  } catch (e) {
    const message = e instanceof Error ? `${e.message} ${(e as { code?: string }).code ?? ''}` : String(e);
    if (/memory limit exceeded|larger than|ERR_BUFFER_TOO_LARGE|buffer.*too large/i.test(message)) throw tooLong(size);
    throw e;
  }
}

const tooLong = (size: number) => new RangeError(`inflates to more than the ${size} bytes declared`);

/** workerd refuses a larger maxOutputLength (a RangeError, whatever the data); no Worker holds more anyway. */
const MAX_OUTPUT_BYTES = 128 * 1024 * 1024;
/** Room for workerd's buffer growth past the declared size (see knownSizeInflate). */
const GROWTH_SLACK_BYTES = 64 * 1024;
/** zlib's Z_MIN_CHUNK: both runtimes refuse a smaller chunk. */
const MIN_CHUNK_BYTES = 64;
/** A size a damaged or hostile file declares is not allocated up front beyond this. */
const MAX_CHUNK_BYTES = 16 * 1024 * 1024;
