/**
 * What the API Worker and the engine Workers say to each other over service bindings (Workers RPC).
 *
 * The engines (MuPDF, the document converters, Tesseract) run only in their own Workers: the API
 * Worker, which answers HTTP and consumes every queue, never instantiates one, so no file an
 * engine chews on can make an HTTP request wait. An engine Worker has no binding but its font
 * faces (FONTS, read-only static assets): it gets a task's inputs as streams, and hands back
 * results, progress and scratch space through the hooks the consumer passes (an RpcTarget), so
 * a hostile file can reach no storage.
 *
 * Bytes cross as streams: an RPC message is capped at 32 MiB, inputs and results are not.
 */
import { joinChunks } from '../lib/bytes';
import type { InputFile } from './operation';
import type { TaskFailure } from './failures';

/** One step of a task, as the consumer hands it to an engine Worker. */
export interface EngineJob {
  task_id: string;
  op_path: string;
  params_json: string;
  step: number;
  /** Each input's record and its bytes as a stream (R2's body), read in order. */
  inputs: { file: InputFile; body: ReadableStream<Uint8Array> }[];
}

/** What the engine calls back on the consumer's side while it runs a job. */
export interface EngineHooks {
  progress(done: number, total: number): void;
  scratchPut(name: string, size: number, body: ReadableStream<Uint8Array>): Promise<void>;
  scratchGet(name: string): Promise<ReadableStream<Uint8Array> | null>;
  /**
   * Stores the result (the one object a task's last step makes). `size` is known for results made
   * whole, null for those written while they are made (R2 multipart). A later call replaces it.
   */
  storeResult(ext: string, contentType: string, size: number | null, body: ReadableStream<Uint8Array>): Promise<{ size: number }>;
}

/** Memory and time the engine measured for one job (the consumer logs them as task_memory). */
export interface EngineMeta {
  wasm_heap_bytes: number;
  js_heap_bytes: number | null;
  input_bytes: number;
  output_bytes: number;
  peak_estimate_bytes: number;
  run_ms?: number;
  mupdf_messages?: { count: number; samples: string[] };
  retired?: { name: string; heap_bytes: number; why: string }[];
}

export type EngineReply =
  /** The result is stored (through `storeResult`). */
  | { outcome: 'stored'; ext: string; contentType: string; size: number; meta: EngineMeta }
  /** The step is done; the next runs from its own message, or its parts (OCR pages) from theirs. */
  | { outcome: 'next'; fanOut?: ({ part: number } & Record<string, unknown>)[]; meta: EngineMeta }
  /** The task fails (bad input, a limit, an engine fault twice): the consumer records it, with the refund. */
  | { outcome: 'failed'; failure: TaskFailure; ours: boolean; error?: string; stack?: string; meta: EngineMeta };

/** The task engines' RPC surface (src/workers/pdf.ts, office.ts, html.ts). */
export interface TaskEngine {
  run(job: EngineJob, hooks: EngineHooks): Promise<EngineReply>;
}

/** The upload inspector's (src/workers/inspect.ts): a PDF's page count and encryption. */
export interface PdfInspection {
  inspect(body: ReadableStream<Uint8Array>): Promise<{ pages: number | null; encrypted: boolean }>;
}

/** One recognised word: its box in the (turned) picture's pixels, its line, Tesseract's confidence. */
export interface OcrWord {
  text: string;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** Block, paragraph and line numbers joined: words of one line share it. */
  line: string;
  /** The top and bottom of the word's line, in image pixels. */
  lineTop: number;
  lineBottom: number;
  conf: number;
}

/** A page's words, and how far the picture was turned (clockwise) to read them upright. */
export interface OcrPageReading {
  turn: 0 | 90 | 180 | 270;
  words: OcrWord[];
}

/** The OCR engine's (src/workers/ocr.ts): one page's words, read the way up it reads best. */
export interface OcrReading {
  read(png: ReadableStream<Uint8Array>, languages: string[]): Promise<OcrPageReading & { wasm_heap_bytes: number }>;
}

/** Chunks as one stream, in order, each handed on as it is (no copy): an RPC argument or result. */
export function streamOf(...chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i < chunks.length) controller.enqueue(chunks[i++]!);
      else controller.close();
    },
  });
}

/** Reads a stream whole, refusing more than `limit` bytes before it holds them. */
export async function readAll(body: ReadableStream<Uint8Array>, limit = Number.MAX_SAFE_INTEGER): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > limit) throw new RangeError(`the stream is longer than ${limit} bytes`);
    chunks.push(chunk);
  }
  return joinChunks(chunks);
}
