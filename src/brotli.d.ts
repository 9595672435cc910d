/** brotli's decoder (a JavaScript port of Google's): the decompressed bytes of a Brotli stream. */
declare module 'brotli/decompress' {
  export default function decompress(buffer: Uint8Array, outSize?: number): Uint8Array;
}
