// The Word → PDF converter (src/convert/word/index.ts) under Node, for npm run convert and
// npm run fidelity: bundled with esbuild into node_modules/.cache/pdf-edge/word.mjs (rebuilt when
// a source it was built from is newer), given MuPDF from node_modules and the fonts from
// node_modules/. The heap size of MuPDF's WASM memory is observable, as in the
// Worker (src/pdf/mupdf.ts).
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const ENTRY = join(root, 'src', 'convert', 'word', 'index.ts');
const CACHE = join(root, 'node_modules', '.cache', 'pdf-edge');
const BUNDLE = join(CACHE, 'word.mjs');
const INPUTS = join(CACHE, 'word.inputs.json');
const FONTS = join(root, 'node_modules');

const mtime = (file) => {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return Infinity; // a vanished input: rebuild
  }
};

/** True when the cached bundle is at least as new as every file it was built from (and this file). */
function bundleFresh() {
  if (!existsSync(BUNDLE) || !existsSync(INPUTS)) return false;
  const built = mtime(BUNDLE);
  let inputs;
  try {
    inputs = JSON.parse(readFileSync(INPUTS, 'utf8'));
  } catch {
    return false;
  }
  return [fileURLToPath(import.meta.url), ...inputs.map((f) => join(root, f))].every((f) => mtime(f) <= built);
}

/**
 * Bundles the converter unless the cached bundle is fresh (force: always). Returns the bundle's
 * path and whether it was built now. Build errors are thrown as esbuild reports them.
 */
/**
 * esbuild options that bundle TypeScript from src/ for Node as the converter is bundled: MuPDF
 * left out (the caller hands it in; it loads its own .wasm), fonts and WASM as bytes, and
 * require() of Node built-ins working inside the ESM bundle (CommonJS dependencies use it).
 */
export const NODE_BUNDLE_OPTIONS = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  external: ['mupdf', 'mupdf/*'],
  loader: { '.ttf': 'binary', '.wasm': 'binary' },
  banner: { js: "import { createRequire as __pdfEdgeCreateRequire } from 'node:module'; const require = __pdfEdgeCreateRequire(import.meta.url);" },
};

export async function buildWordConverter({ force = false } = {}) {
  if (!force && bundleFresh()) return { file: BUNDLE, built: false };
  const { build } = await import('esbuild');
  mkdirSync(CACHE, { recursive: true });
  const tmp = `${BUNDLE}.${process.pid}.tmp`;
  const result = await build({
    ...NODE_BUNDLE_OPTIONS,
    entryPoints: [ENTRY],
    absWorkingDir: root,
    outfile: tmp,
    metafile: true,
    logLevel: 'silent',
    sourcemap: 'inline',
  });
  renameSync(tmp, BUNDLE); // atomic: a concurrent run never imports half a file
  writeFileSync(INPUTS, JSON.stringify(Object.keys(result.metafile.inputs).filter((f) => !f.includes(':'))));
  return { file: BUNDLE, built: true };
}

const fontCache = new Map();
/** Face file bytes by path relative to node_modules/ (see src/fonts/catalog.ts). */
export function readFont(file) {
  if (fontCache.has(file)) return fontCache.get(file);
  const full = resolve(FONTS, file);
  let bytes;
  // Only files within node_modules.
  if (full.startsWith(join(root, 'node_modules') + sep)) {
    try {
      bytes = new Uint8Array(readFileSync(full));
    } catch {
      bytes = undefined;
    }
  }
  fontCache.set(file, bytes);
  return bytes;
}

let wasmMemory;
let mupdfLoading;
let mupdfMessages = 0;
/**
 * MuPDF from node_modules, with its WASM memory captured (for mupdfHeapBytes) and its warnings
 * counted instead of printed (a damaged file makes thousands).
 */
export function loadMupdf() {
  mupdfLoading ??= (async () => {
    const wasm = readFileSync(join(root, 'node_modules', 'mupdf', 'dist', 'mupdf-wasm.wasm'));
    globalThis.$libmupdf_wasm_Module = {
      instantiateWasm(imports, receive) {
        WebAssembly.instantiate(wasm, imports).then(({ instance }) => {
          wasmMemory = Object.values(instance.exports).find((e) => e instanceof WebAssembly.Memory);
          receive(instance);
        });
        return {};
      },
    };
    const mupdf = await import('mupdf');
    mupdf.setLog({ error: () => mupdfMessages++, warning: () => mupdfMessages++ });
    return mupdf;
  })();
  return mupdfLoading;
}

/** Bytes MuPDF's WASM heap occupies: it never shrinks, so this is also its peak. */
export const mupdfHeapBytes = () => wasmMemory?.buffer.byteLength ?? 0;
export const mupdfMessageCount = () => mupdfMessages;

/** Peak resident set size of this process (VmHWM on Linux; current RSS elsewhere). */
export function peakRssBytes() {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
    if (m) return Number(m[1]) * 1024;
  } catch {}
  return process.memoryUsage().rss;
}

/**
 * The converter, ready to use: `convert(bytes)` returns PDF bytes or throws the bundle's
 * ConversionError (recognise it with `isConversionError`).
 */
export async function loadWordConverter(options) {
  const [{ file }, mupdf] = await Promise.all([buildWordConverter(options), loadMupdf()]);
  const mod = await import(`${pathToFileURL(file).href}?v=${mtime(file)}`);
  const isConversionError = (e) => e instanceof mod.ConversionError || e?.name === 'ConversionError';
  return {
    mupdf,
    ConversionError: mod.ConversionError,
    isConversionError,
    /** onProblem hears of each part the document converts without ({ part, reason }), as the task log does. */
    convert: (bytes, onProblem) => mod.convertWordToPdf(bytes, { mupdf, fonts: readFont, onProblem }),
    /** Only the reading: the file into the document model (no layout). */
    read: (bytes) => mod.readWordDocument(bytes),
  };
}

/** Pages of a PDF (as bytes). */
export function countPdfPages(mupdf, pdf) {
  const doc = mupdf.Document.openDocument(pdf, 'application/pdf');
  try {
    return doc.countPages();
  } finally {
    doc.destroy?.();
  }
}
