// The part of node:zlib the converters use. Workers provide node:zlib natively (nodejs_compat is
// on, wrangler.toml); @types/node is not installed because its globals clash with workers-types.
declare module 'node:zlib' {
  interface ZlibOptions {
    level?: number;
    maxOutputLength?: number;
    /** Output buffer size; workerd accepts it too (Z_MIN_CHUNK..Z_MAX_CHUNK). */
    chunkSize?: number;
  }
  export function inflateSync(data: Uint8Array, options?: ZlibOptions): Uint8Array;
  export function deflateSync(data: Uint8Array, options?: ZlibOptions): Uint8Array;
  export function inflateRawSync(data: Uint8Array, options?: ZlibOptions): Uint8Array;
  export function brotliDecompressSync(data: Uint8Array, options?: ZlibOptions): Uint8Array;
}
