/**
 * Results written while they are made: an operation hands chunks to `write` as it produces them
 * (split's ZIP, one PDF after another) and this module sends them to R2 as a multipart upload in
 * parts of PART_BYTES, so the result never exists whole in the isolate. R2 wants every part but
 * the last to be the same size (at least 5 MiB), so chunks are gathered into part buffers.
 */
export const PART_BYTES = 8 * 1024 * 1024;

export interface StreamedResult {
  /** Bytes written in all. */
  size: number;
  /** The most the writer held at once besides the producer's own memory: its part buffers (one filling, one uploading). */
  heldBytes: number;
}

/** A storage failure while a streamed result was written: transient, unlike the producer's own errors. */
export class ResultStorageError extends Error {
  override name = 'ResultStorageError';
}

/**
 * Thrown by a producer that finds, part-way, that other bytes should be the result (compress:
 * once its output reaches the input's size, the original goes out instead, DECISIONS): what was
 * written is dropped and `bytes` stored in its place.
 */
export class WriteInstead extends Error {
  override name = 'WriteInstead';
  constructor(readonly bytes: Uint8Array) {
    super('the result is replaced by other bytes');
  }
}

/** Runs `produce` with a writer into R2 object `key`; the object exists once it resolves. */
export async function writeStreamed(
  bucket: R2Bucket,
  key: string,
  contentType: string,
  produce: (write: (chunk: Uint8Array) => Promise<void>) => Promise<void>,
  partBytes = PART_BYTES,
): Promise<StreamedResult> {
  let upload: R2MultipartUpload;
  try {
    upload = await bucket.createMultipartUpload(key, { httpMetadata: { contentType } });
  } catch (err) {
    throw new ResultStorageError(`starting the upload of ${key} failed`, { cause: err });
  }
  const parts: R2UploadedPart[] = [];
  let part = new Uint8Array(partBytes);
  let filled = 0;
  let size = 0;
  // One part uploads while the next fills (the producer keeps drawing while R2 stores), so at
  // most two parts are held; a failed upload surfaces at the next flush or at the end.
  let uploading: Promise<void> = Promise.resolve();
  const flush = async () => {
    await uploading;
    const [number, bytes] = [parts.length + 1, part.subarray(0, filled)];
    uploading = upload.uploadPart(number, bytes).then(
      (uploaded) => void parts.push(uploaded),
      (err) => {
        throw new ResultStorageError(`uploading part ${number} of ${key} failed`, { cause: err });
      },
    );
    uploading.catch(() => {}); // observed at the next await; not an unhandled rejection meanwhile
    part = new Uint8Array(partBytes); // the old one is still read by the upload
    filled = 0;
  };
  try {
    await produce(async (chunk) => {
      size += chunk.length;
      for (let at = 0; at < chunk.length; ) {
        const n = Math.min(chunk.length - at, partBytes - filled);
        part.set(chunk.subarray(at, at + n), filled);
        filled += n;
        at += n;
        if (filled === partBytes) await flush();
      }
    });
    if (filled > 0 || parts.length === 0) await flush();
    await uploading;
    try {
      await upload.complete(parts);
    } catch (err) {
      throw new ResultStorageError(`completing the upload of ${key} failed`, { cause: err });
    }
    return { size, heldBytes: 2 * partBytes };
  } catch (err) {
    await uploading.catch(() => {});
    await upload.abort().catch(() => {});
    if (!(err instanceof WriteInstead)) throw err;
    try {
      await bucket.put(key, err.bytes, { httpMetadata: { contentType } });
    } catch (cause) {
      throw new ResultStorageError(`storing ${key} failed`, { cause });
    }
    return { size: err.bytes.length, heldBytes: 2 * partBytes };
  }
}
