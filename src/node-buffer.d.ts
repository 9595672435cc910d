// The part of node:buffer the converters use (nodejs_compat, as node-zlib.d.ts): cfb joins a
// stream's sectors much faster when it is handed a Buffer.
declare module 'node:buffer' {
  export class Buffer extends Uint8Array {
    static from(arrayBuffer: ArrayBufferLike, byteOffset?: number, length?: number): Buffer;
  }
}
