/**
 * src/pdf/generated/mupdf-factory.js, written by scripts/mupdf-factory.mjs from the mupdf
 * package (not committed): each call makes an independent MuPDF instance with the package's API.
 */
export function createMupdf(moduleArg: {
  instantiateWasm(imports: WebAssembly.Imports, receive: (instance: WebAssembly.Instance) => void): object;
}): Promise<typeof import('mupdf') & {
  /** The first trap that passed through a call into this instance, or null: a trapped instance is unfit for use. */
  trapped(): unknown;
}>;
