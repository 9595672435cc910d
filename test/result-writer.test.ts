/** Results written to R2 while they are made (src/service/tasks/result-writer.ts), against the real local R2. */
import { describe, expect, it } from 'vitest';
import { env } from 'cloudflare:test';
import { WriteInstead, writeStreamed } from '../src/service/tasks/result-writer';

describe('writeStreamed', () => {
  it('chunks of any size become equal parts of a multipart upload; the object is their concatenation', async () => {
    const partBytes = 5 * 1024 * 1024; // R2's smallest part
    const total = 2 * partBytes + 123_457;
    const sizes = [1, 1_000_000, 3 * 1024 * 1024 + 17, partBytes, 999, total];
    const produced: number[] = [];
    let at = 0;
    const written = await writeStreamed(
      env.FILES,
      'results/test/streamed.bin',
      'application/octet-stream',
      async (write) => {
        for (let i = 0; at < total; i++) {
          const n = Math.min(sizes[i % sizes.length]!, total - at);
          const chunk = new Uint8Array(n).map((_, j) => (at + j) % 251);
          await write(chunk);
          chunk.fill(0); // the writer must have taken its copy: chunks may be reused once write resolves
          produced.push(n);
          at += n;
        }
      },
      partBytes,
    );
    expect(written.size).toBe(total);
    const object = await env.FILES.get('results/test/streamed.bin');
    expect(object!.size).toBe(total);
    expect(object!.httpMetadata?.contentType).toBe('application/octet-stream');
    const bytes = new Uint8Array(await object!.arrayBuffer());
    const wrong = bytes.findIndex((b, i) => b !== i % 251);
    expect(wrong).toBe(-1);
    expect(produced.length).toBeGreaterThan(3);
  });

  it('a producer that fails aborts the upload and leaves no object', async () => {
    await expect(
      writeStreamed(env.FILES, 'results/test/failed.bin', 'application/zip', async (write) => {
        await write(new Uint8Array(10));
        throw new Error('the document is damaged');
      }),
    ).rejects.toThrow('the document is damaged');
    expect(await env.FILES.get('results/test/failed.bin')).toBeNull();
  });

  it('a part R2 refuses (uploaded while the next part fills) fails the write as a storage error, and no object is left', async () => {
    const partBytes = 5 * 1024 * 1024;
    // The real local bucket, except that part 2's upload fails: R2 cannot be made to fail on cue.
    const failingSecondPart = {
      createMultipartUpload: async (key: string, options?: R2MultipartOptions) => {
        const upload = await env.FILES.createMultipartUpload(key, options);
        return Object.assign(Object.create(upload), {
          uploadPart: (n: number, bytes: Uint8Array) => (n === 2 ? Promise.reject(new Error('R2 is unavailable')) : upload.uploadPart(n, bytes)),
          abort: () => upload.abort(),
          complete: (parts: R2UploadedPart[]) => upload.complete(parts),
        });
      },
      put: env.FILES.put.bind(env.FILES),
    } as unknown as R2Bucket;
    let written = 0;
    const result = writeStreamed(failingSecondPart, 'results/test/part-failed.bin', 'application/zip', async (write) => {
      for (let i = 0; i < 4; i++, written++) await write(new Uint8Array(partBytes));
    }, partBytes);
    await expect(result).rejects.toThrow('uploading part 2 of results/test/part-failed.bin failed');
    expect(written).toBeLessThan(4); // the failure stopped the producer at its next full part
    expect(await env.FILES.get('results/test/part-failed.bin')).toBeNull();
  });

  it('a producer that throws WriteInstead part-way leaves exactly the bytes it names, with the content type', async () => {
    const partBytes = 5 * 1024 * 1024;
    const instead = new TextEncoder().encode('%PDF-1.7 the original');
    const written = await writeStreamed(
      env.FILES,
      'results/test/instead.pdf',
      'application/pdf',
      async (write) => {
        await write(new Uint8Array(partBytes + 10).fill(7)); // one part already uploaded
        throw new WriteInstead(instead);
      },
      partBytes,
    );
    expect(written.size).toBe(instead.length);
    const object = await env.FILES.get('results/test/instead.pdf');
    expect(object!.httpMetadata?.contentType).toBe('application/pdf');
    expect(new TextDecoder().decode(await object!.arrayBuffer())).toBe('%PDF-1.7 the original');
  });
});
