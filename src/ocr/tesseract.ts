/**
 * Tesseract (tesseract.js-core 7: Tesseract 5 in WASM, LSTM only, SIMD) as a thin handle, for
 * the OCR Worker only (src/workers/ocr.ts): the API Worker never loads it. The WASM is imported as
 * a precompiled module and handed over through `instantiateWasm` (Workers compile none from
 * bytes); the language models (Debian's tessdata_fast, ocr-data/) are bundled as Data modules
 * and written into the engine's file system when a language set is first asked for. One engine
 * is kept per isolate, initialised for the last language set (initialising takes ~60 ms).
 */
import tesseractWasm from 'tesseract.js-core/tesseract-core-simd-lstm.wasm';
import TesseractCore from 'tesseract.js-core/tesseract-core-simd-lstm.js';
import eng from '../../ocr-data/eng.traineddata';
import rus from '../../ocr-data/rus.traineddata';
import deu from '../../ocr-data/deu.traineddata';
import fra from '../../ocr-data/fra.traineddata';
import { registerEngine } from '../lib/engine-health';

import type { OcrLanguage } from './languages';

export { OCR_LANGUAGES, type OcrLanguage } from './languages';
const MODELS: Record<OcrLanguage, ArrayBuffer> = { eng, rus, deu, fra };

/** A recognised word: its text, its box in image pixels (top-left origin), its line and confidence. */
import type { OcrWord } from '../contracts/rpc';

export type { OcrWord };

interface TessApi {
  Init(datapath: string, languages: string, oem: number): number;
  SetVariable(name: string, value: string): boolean;
  SetImageFile(exifOrientation: number, angle: number): void;
  Recognize(monitor: null): number;
  GetTSVText(page: number): string;
  Clear(): void;
  End(): void;
}
interface TessModule {
  FS: { writeFile(path: string, data: Uint8Array): void; unlink(path: string): void };
  TessBaseAPI: new () => TessApi;
}

let loading: Promise<TessModule> | undefined;
let memory: WebAssembly.Memory | undefined;
let engine: { api: TessApi; languages: string } | undefined;
/** Models already written into the engine's file system. */
const written = new Set<OcrLanguage>();

/**
 * Replaced after a trap, or once its heap passed 96 MB (four models loaded with a large page
 * reach ~70 MB): src/lib/engine-health.ts. The models are written into the new instance again.
 */
registerEngine({
  name: 'tesseract',
  heapBytes: () => memory?.buffer.byteLength ?? 0,
  boundBytes: 96 * 1024 * 1024,
  drop: () => {
    loading = undefined;
    memory = undefined;
    engine = undefined;
    written.clear();
  },
});

function loadModule(): Promise<TessModule> {
  loading ??= (async () => {
    // In a Worker the glue takes itself for a web worker and reads self.location.href as it starts,
    // and with nodejs_compat it would take its Node path (require('fs')) unless process.type reads
    // 'renderer'. Both are set only while it starts: a global `location` misleads other libraries
    // (a JSON-schema resolver took it for the base of its URLs).
    const g = globalThis as { location?: { href: string }; process?: { type?: string } };
    const hadLocation = 'location' in g;
    if (!hadLocation) g.location = { href: '' };
    const previousType = g.process?.type;
    if (g.process) g.process.type = 'renderer';
    let starting: Promise<TessModule>;
    try {
      starting = (TesseractCore as unknown as (options: object) => Promise<TessModule>)({
        instantiateWasm(imports: WebAssembly.Imports, receive: (instance: WebAssembly.Instance) => void) {
          WebAssembly.instantiate(tesseractWasm, imports).then((instance) => {
            memory = Object.values(instance.exports).find((e): e is WebAssembly.Memory => e instanceof WebAssembly.Memory);
            receive(instance);
          });
          return {};
        },
        locateFile: (path: string) => path,
        print: () => {},
        printErr: () => {},
      });
    } finally {
      if (!hadLocation) delete g.location;
      if (g.process) g.process.type = previousType;
    }
    return starting;
  })();
  loading.catch(() => (loading = undefined));
  return loading;
}

/** Bytes of the engine's WASM memory (0 before first use): it never shrinks. */
export const tesseractHeapBytes = (): number => memory?.buffer.byteLength ?? 0;

async function engineFor(languages: readonly OcrLanguage[]): Promise<{ module: TessModule; api: TessApi }> {
  const module = await loadModule();
  const key = languages.join('+');
  if (engine?.languages !== key) {
    engine?.api.End();
    for (const language of languages) {
      if (written.has(language)) continue;
      module.FS.writeFile(`/${language}.traineddata`, new Uint8Array(MODELS[language]));
      written.add(language);
    }
    const api = new module.TessBaseAPI();
    // OEM 1: the LSTM recogniser, the only one the models and this build carry.
    if (api.Init('/', key, 1) !== 0) throw new Error(`Tesseract could not load the languages ${key}`);
    engine = { api, languages: key };
  }
  return { module, api: engine.api };
}

/**
 * The words Tesseract reads in `image` (PNG, PNM or JPEG bytes; grey is best), in reading
 * order (block, paragraph, line, word), with their boxes in the image's pixels.
 */
export async function recognize(image: Uint8Array, languages: readonly OcrLanguage[]): Promise<OcrWord[]> {
  const { module, api } = await engineFor(languages);
  module.FS.writeFile('/input', image);
  try {
    api.SetImageFile(0, 0);
    // No user_defined_dpi: Tesseract estimates the resolution from the text, as the tesseract
    // command does for a picture without one. Passing the rendering's dpi (96 for a table scan
    // declared at 96 dpi) took that page's CER from 0.14 to 0.51.
    // Fully automatic page segmentation, as the tesseract command runs: the API's own default
    // (one uniform block) reads straight across the columns of a two-column page.
    api.SetVariable('tessedit_pageseg_mode', '3');
    if (api.Recognize(null) !== 0) throw new Error('Tesseract could not recognise the page');
    return wordsOfTsv(api.GetTSVText(0));
  } finally {
    api.Clear();
    module.FS.unlink('/input');
  }
}

/**
 * Tesseract's TSV: level 4 rows are lines, level 5 rows words (level, page, block, par, line, word,
 * left, top, width, height, conf, text). Each word carries its line's top and bottom, so the words
 * of a line can share one baseline and size in the text layer.
 */
export function wordsOfTsv(tsv: string): OcrWord[] {
  const words: OcrWord[] = [];
  const lines = new Map<string, [number, number]>();
  for (const row of tsv.split('\n')) {
    const cells = row.split('\t');
    if (cells.length < 12) continue;
    const line = `${cells[2]}.${cells[3]}.${cells[4]}`;
    const [left, top, width, height, conf] = [6, 7, 8, 9, 10].map((i) => Number(cells[i]));
    if (cells[0] === '4') lines.set(line, [top!, top! + height!]);
    if (cells[0] !== '5') continue;
    const text = cells.slice(11).join('\t').trim();
    if (!text) continue;
    const [lineTop, lineBottom] = lines.get(line) ?? [top!, top! + height!];
    words.push({ text, x0: left!, y0: top!, x1: left! + width!, y1: top! + height!, line, lineTop, lineBottom, conf: conf! });
  }
  return words;
}
