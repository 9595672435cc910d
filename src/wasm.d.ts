declare module '*.wasm' {
  const module: WebAssembly.Module;
  export default module;
}

declare module '*.ttf' {
  const bytes: ArrayBuffer;
  export default bytes;
}

/** Tesseract's language models (ocr-data/), bundled into the OCR Worker as Data modules. */
declare module '*.traineddata' {
  const bytes: ArrayBuffer;
  export default bytes;
}

/** tesseract.js-core's emscripten glue (CommonJS, untyped): src/ocr/tesseract.ts types what it uses. */
declare module 'tesseract.js-core/tesseract-core-simd-lstm.js' {
  const factory: unknown;
  export default factory;
}
