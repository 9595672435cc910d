/**
 * The WASM engines an isolate holds (MuPDF, WebP, Tesseract, and any added later), so that the task
 * runner can replace them. Two things make an instance unfit for the next task:
 * - a trap inside it (out-of-bounds access, unreachable, a stack overflow, an emscripten abort):
 *   its heap and stack pointer are in no known state, and before this every later conversion in the
 *   isolate failed after one hostile file;
 * - a heap grown past its bound: WASM memory never shrinks, so one large file left every later task
 *   in the isolate with a 100+ MB heap.
 * Dropping an instance forgets it; its loader makes a new one from the same compiled module on the
 * next use (instantiating MuPDF takes ~30 ms; compiling it is never repeated), and the old memory is
 * collected with the last object that referred to it.
 */

export interface EngineHandle {
  name: string;
  /** Bytes of the instance's WASM memory now (0 when none is loaded). */
  heapBytes(): number;
  /** A heap past this is replaced after the task that grew it. */
  boundBytes: number;
  /** Forgets the instance: the next use makes a new one. */
  drop(): void;
  /** Whether a trap passed through the instance (even one some `catch` swallowed afterwards). */
  trapped?(): boolean;
}

const engines = new Map<string, EngineHandle>();

export function registerEngine(engine: EngineHandle): void {
  engines.set(engine.name, engine);
}

/** Every engine instance dropped (after a trap we cannot tell which engine's state is broken). */
export function dropAllEngines(): string[] {
  const dropped = [...engines.values()].filter((e) => e.heapBytes() > 0);
  for (const e of engines.values()) e.drop();
  return dropped.map((e) => e.name);
}

/**
 * Engines whose heap passed their bound, or that trapped (a trap some `catch` swallowed), are
 * dropped; returns their names, sizes and why, for the log.
 */
export function retireGrownEngines(): { name: string; heap_bytes: number; why: 'heap' | 'trapped' }[] {
  const retired: { name: string; heap_bytes: number; why: 'heap' | 'trapped' }[] = [];
  for (const e of engines.values()) {
    const heap = e.heapBytes();
    const trapped = e.trapped?.() ?? false;
    if (trapped || heap > e.boundBytes) {
      e.drop();
      retired.push({ name: e.name, heap_bytes: heap, why: trapped ? 'trapped' : 'heap' });
    }
  }
  return retired;
}

/** The engines a trap has passed through since they were made. */
export function trappedEngines(): string[] {
  return [...engines.values()].filter((e) => e.trapped?.()).map((e) => e.name);
}

/** A run that ended normally although a trap passed through an engine on the way (and was swallowed). */
class SwallowedTrap extends Error {
  constructor(engines: string[]) {
    super(`a trap inside ${engines.join(', ')} was caught on the way and the run went on: its result is not trusted`);
    this.name = 'SwallowedTrap';
  }
}

/** Bytes held by every loaded engine's WASM memory. */
export function enginesHeapBytes(): number {
  let sum = 0;
  for (const e of engines.values()) sum += e.heapBytes();
  return sum;
}

/**
 * The JavaScript heap in use, where the runtime tells it (`performance.memory` in V8 builds that
 * expose it, `process.memoryUsage()` under nodejs_compat); undefined where it does not.
 */
export function jsHeapBytes(): number | undefined {
  const perf = (globalThis as { performance?: { memory?: { usedJSHeapSize?: number } } }).performance;
  const used = perf?.memory?.usedJSHeapSize;
  if (typeof used === 'number' && used > 0) return used;
  try {
    const proc = (globalThis as { process?: { memoryUsage?: () => { heapUsed?: number } } }).process;
    const heap = proc?.memoryUsage?.().heapUsed;
    if (typeof heap === 'number' && heap > 0) return heap;
  } catch {
    // not implemented by this runtime
  }
  return undefined;
}

const TRAP_MESSAGE =
  /memory access out of bounds|unreachable|Maximum call stack size exceeded|Aborted\(|table index is out of bounds|indirect call|null function|integer (overflow|divide by zero)|divide by zero|invalid conversion to integer|out of bounds (memory|table) access|offset is out of bounds|Cannot enlarge memory/i;

/**
 * Whether an error is a trap or abort inside an engine (or a stack overflow, which leaves an
 * engine's own stack pointer wherever it was): the engine instances must be replaced.
 */
export function isEngineTrap(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    if (typeof WebAssembly !== 'undefined' && e instanceof WebAssembly.RuntimeError) return true;
    if (e instanceof RangeError && /call stack/i.test(e.message)) return true;
    if (e instanceof SwallowedTrap) return true;
    const msg = e instanceof Error ? e.message : typeof e === 'string' ? e : '';
    if (e instanceof Error && !(e instanceof TypeError) && TRAP_MESSAGE.test(msg)) return true;
  }
  return false;
}

/**
 * Whether memory really ran out: an engine's allocation failed (MuPDF: "malloc of N bytes failed",
 * "out of memory"), the isolate could not allocate a buffer, or workerd's zlib refused an output
 * past its limit. Only then is a person told "out of memory".
 */
export function isOutOfMemory(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    const msg = e instanceof Error ? `${e.name} ${e.message}` : String(e);
    if (/out of memory|\bOOM\b|malloc.*failed|failed to allocate|Array buffer allocation failed|Invalid array length|Invalid typed array length|exceeded (its )?memory|memory limit exceeded/i.test(msg)) return true;
  }
  return false;
}

/** A trap or an allocation failure that happened again on fresh engines: the task fails, not retried. */
export class EngineFault extends Error {
  constructor(
    readonly kind: 'trap' | 'out_of_memory',
    options: { cause: unknown },
  ) {
    super(kind === 'trap' ? 'an engine trapped on fresh instances as well' : 'memory ran out on fresh engines as well', options);
    this.name = 'EngineFault';
  }
}

/**
 * Runs `run`; after a trap or an allocation failure the engines are replaced and `run` is tried
 * once more on fresh instances. A second fault becomes an EngineFault; other errors pass through.
 */
export async function withEngineRetry<T>(original: () => Promise<T>, log: (event: string, fields: Record<string, unknown>) => void): Promise<T> {
  const run = async () => {
    const result = await original();
    const trapped = trappedEngines();
    if (trapped.length) throw new SwallowedTrap(trapped);
    return result;
  };
  // After a trap an instance fails in other ways too ("calloc failed" on its next call): any error
  // from a run that a trap passed through is the trap's.
  const fault = (err: unknown) => isEngineTrap(err) || isOutOfMemory(err) || trappedEngines().length > 0;
  try {
    return await run();
  } catch (err) {
    if (!fault(err)) throw err;
    log('engine_fault', { attempt: 1, out_of_memory: isOutOfMemory(err), dropped: dropAllEngines(), error: String(err), stack: (err as Error)?.stack });
  }
  try {
    return await run();
  } catch (err) {
    if (!fault(err)) throw err;
    const trapped = trappedEngines().length > 0 || isEngineTrap(err);
    log('engine_fault', { attempt: 2, out_of_memory: isOutOfMemory(err), dropped: dropAllEngines(), error: String(err) });
    throw new EngineFault(trapped ? 'trap' : 'out_of_memory', { cause: err });
  }
}
