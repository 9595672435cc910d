/**
 * MuPDF.js as a thin, lazily loaded handle. The same loader runs in production and in tests, so a
 * broken production path cannot hide behind a test-only import.
 *
 * Workers compile no WASM from bytes: the .wasm file is imported as a precompiled module
 * (wrangler rule CompiledWasm) and handed to emscripten through `instantiateWasm`. With
 * nodejs_compat the emscripten glue would take its Node path (createRequire, fs) unless
 * `process.type` reads 'renderer' while the module initialises.
 */
import mupdfWasmModule from 'mupdf/dist/mupdf-wasm.wasm';
import { createMupdf } from './generated/mupdf-factory.js';
import { registerEngine } from '../lib/engine-health';

type MupdfModule = typeof import('mupdf');
let loading: Promise<MupdfModule> | undefined;
let wasmMemory: WebAssembly.Memory | undefined;
let trapped: (() => unknown) | undefined;

/**
 * A heap past this is replaced after the task that grew it: MuPDF starts at 22 MiB, so any task
 * that left it more than 6 MiB larger hands the next task a fresh instance instead of the grown
 * heap (WASM memory never shrinks). At 48 MiB, heaps of 33 MB were kept, and a 48 MB delete-pages
 * after them peaked at 105 MB in the shared benchmark against 95 MB fresh.
 */
export const MUPDF_HEAP_BOUND = 28 * 1024 * 1024;

/**
 * The isolate's MuPDF instance, made on first use. Each instance comes from the factory
 * (scripts/mupdf-factory.mjs), so after dropMupdf the next call makes a new one from the same
 * compiled module: a trap or a grown heap never outlives its task.
 */
export function loadMupdf(): Promise<MupdfModule> {
  loading ??= (async () => {
    let memory: WebAssembly.Memory | undefined;
    const moduleArg = {
      instantiateWasm(imports: WebAssembly.Imports, receive: (instance: WebAssembly.Instance) => void) {
        WebAssembly.instantiate(mupdfWasmModule, imports).then((instance) => {
          memory = Object.values(instance.exports).find((e): e is WebAssembly.Memory => e instanceof WebAssembly.Memory);
          receive(instance);
        });
        return {};
      },
    };
    const proc = (globalThis as { process?: { type?: string } }).process;
    const previousType = proc?.type;
    if (proc) proc.type = 'renderer';
    try {
      const instance = await createMupdf(moduleArg);
      const mupdf: MupdfModule = instance;
      // MuPDF reports every syntax problem it repairs: tens of thousands of lines for one damaged
      // file. Count them and keep a few samples instead of writing each to the console.
      mupdf.setLog({ error: recordMessage, warning: recordMessage });
      wasmMemory = memory;
      trapped = instance.trapped;
      return mupdf;
    } finally {
      if (proc) proc.type = previousType;
    }
  })();
  loading.catch(() => (loading = undefined));
  return loading;
}

/** Forgets the instance (after a trap inside it, or a heap past its bound): the next loadMupdf makes a new one. */
export function dropMupdf(): void {
  loading = undefined;
  wasmMemory = undefined;
  trapped = undefined;
}

registerEngine({ name: 'mupdf', heapBytes: () => wasmMemory?.buffer.byteLength ?? 0, boundBytes: MUPDF_HEAP_BOUND, drop: dropMupdf, trapped: () => !!trapped?.() });

const MAX_SAMPLES = 5;
let messageCount = 0;
let messageSamples: string[] = [];

function recordMessage(message: string): void {
  messageCount++;
  if (messageSamples.length < MAX_SAMPLES && !messageSamples.includes(message)) messageSamples.push(message);
}

/** MuPDF's warnings and errors since the last call: their number and a few distinct samples. */
export function takeMupdfMessages(): { count: number; samples: string[] } {
  const taken = { count: messageCount, samples: messageSamples };
  messageCount = 0;
  messageSamples = [];
  return taken;
}

/** Bytes the MuPDF heap occupies. WASM memory never shrinks, so this is also its peak so far. */
export const mupdfHeapBytes = (): number => wasmMemory?.buffer.byteLength ?? 0;

/**
 * A MuPDF stream over bytes that stay in JS memory: MuPDF reads them on demand instead of
 * copying the whole file into its heap (saves one full copy of every input).
 */
export function bytesStream(mupdf: MupdfModule, bytes: Uint8Array) {
  return new mupdf.Stream({
    fileSize: () => bytes.length,
    close() {},
    read(heap: Uint8Array, addr: number, size: number, pos: number): number {
      if (pos >= bytes.length) return 0;
      const n = Math.min(size, bytes.length - pos);
      heap.set(bytes.subarray(pos, pos + n), addr);
      return n;
    },
  });
}

/** bytesStream over a file held as chunks (an operation's output): read without joining them. */
export function chunksStream(mupdf: MupdfModule, chunks: readonly Uint8Array[]) {
  const starts: number[] = [];
  let total = 0;
  for (const c of chunks) (starts.push(total), (total += c.length));
  return new mupdf.Stream({
    fileSize: () => total,
    close() {},
    read(heap: Uint8Array, addr: number, size: number, pos: number): number {
      if (pos >= total) return 0;
      // The last chunk starting at or before pos (binary search: a split ZIP has hundreds).
      let lo = 0;
      let hi = starts.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (starts[mid]! <= pos) lo = mid;
        else hi = mid - 1;
      }
      let written = 0;
      for (let i = lo; i < chunks.length && written < size; i++) {
        const from = i === lo ? pos - starts[i]! : 0;
        const part = chunks[i]!.subarray(from, from + size - written);
        heap.set(part, addr + written);
        written += part.length;
      }
      return written;
    },
  });
}
