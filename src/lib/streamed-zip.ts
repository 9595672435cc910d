/**
 * A ZIP of stored entries written out as it grows (split's PDFs, to-jpg's JPEGs: compressed
 * already), through `write` (a streamed result's writer, tasks/result-writer.ts): no member and no
 * ZIP is ever held whole.
 */
import { Zip, ZipPassThrough } from 'fflate';

export interface StreamedZip {
  /** Starts a stored entry: `push` appends to it, `end` closes it; both write out what the ZIP made. */
  entry(name: string): { push(chunk: Uint8Array): Promise<void>; end(): Promise<void> };
  /** Writes the central directory. */
  end(): Promise<void>;
}

export function streamedZip(write: (chunk: Uint8Array) => Promise<void>): StreamedZip {
  const pending: Uint8Array[] = [];
  let failure: Error | null = null;
  const zip = new Zip((err, data) => (err ? (failure = err) : pending.push(data)));
  const drain = async () => {
    if (failure) throw failure;
    while (pending.length) await write(pending.shift()!);
  };
  return {
    entry(name) {
      const entry = new ZipPassThrough(name);
      zip.add(entry);
      return {
        push: async (chunk) => {
          entry.push(chunk);
          await drain();
        },
        end: async () => {
          entry.push(new Uint8Array(0), true);
          await drain();
        },
      };
    },
    end: async () => {
      zip.end();
      await drain();
    },
  };
}
