/**
 * WebP, which MuPDF cannot read, decoded by @jsquash/webp (libwebp in WASM) and handed on as a PNG
 * of its RGBA samples, which MuPDF reads with its transparency. The WASM is imported as a
 * precompiled module (Workers compile none from bytes), and the codec is told where its file is
 * (locateFile) so its glue never builds a URL from `import.meta.url`, which Workers leave undefined.
 */
import webpDecoderModule from '@jsquash/webp/codec/dec/webp_dec.wasm';
import decode, { init } from '@jsquash/webp/decode.js';
import { assemblePng } from './png';
import { registerEngine } from '../lib/engine-health';
import { MAX_DECODED_PIXELS, requireDecodablePixels } from './image-header';

/**
 * The most pixels a WebP may have here: the one decoding limit (image-header.ts), as its RGBA
 * samples are held twice (the codec's and the PNG's rows) and MuPDF decodes the PNG again; every
 * operation that takes a WebP refuses a larger picture anyway. Larger ones are refused, not decoded.
 */
export const MAX_WEBP_PIXELS = MAX_DECODED_PIXELS;

let ready: Promise<void> | undefined;
let memory: WebAssembly.Memory | undefined;

// Replaced after a trap (src/lib/engine-health.ts); its heap is bounded by MAX_WEBP_PIXELS already.
registerEngine({
  name: 'webp',
  heapBytes: () => memory?.buffer.byteLength ?? 0,
  boundBytes: 96 * 1024 * 1024,
  drop: () => {
    ready = undefined;
    memory = undefined;
  },
});

/**
 * The WebP as PNG bytes (RGBA), or an error saying why not: LimitExceeded ('image_pixels'), before
 * decoding, past MAX_WEBP_PIXELS (`what` names the picture in its message).
 */
export async function webpToPng(bytes: Uint8Array, what = 'the WebP'): Promise<Uint8Array> {
  const size = webpSize(bytes);
  // A WebP whose size is not in its header is not handed to the codec, which would find out by decoding.
  if (!size) throw new RangeError('its header does not read as VP8, VP8L or VP8X');
  requireDecodablePixels(size.width, size.height, what, MAX_WEBP_PIXELS);
  // The codec's glue makes an ImageData, which Workers do not have.
  const g = globalThis as { ImageData?: unknown };
  g.ImageData ??= class ImageData {
    constructor(
      readonly data: Uint8ClampedArray,
      readonly width: number,
      readonly height: number,
    ) {}
  };
  // init takes the compiled module first (its typings only show the options).
  ready ??= startCodec();
  await ready;
  const image = await decode(bytes.slice().buffer);
  const stride = image.width * 4;
  const raw = new Uint8Array(image.height * (1 + stride));
  for (let y = 0; y < image.height; y++) raw.set(image.data.subarray(y * stride, (y + 1) * stride), y * (1 + stride) + 1);
  return assemblePng(image.width, image.height, 6, raw);
}

/**
 * The codec started. Its glue sets a global `self.location` as it starts (it takes itself for a web
 * worker) and leaves it there, which misleads other libraries: the MCP SDK's JSON-schema resolver
 * built its base URL from it and failed on every call. So the global goes once the codec is up.
 */
async function startCodec(): Promise<void> {
  const g = globalThis as { location?: unknown };
  const hadLocation = 'location' in g;
  try {
    // Instantiated here rather than by the codec's helper so that its memory can be measured.
    const instantiateWasm = (imports: WebAssembly.Imports, receive: (instance: WebAssembly.Instance) => void) => {
      const instance = new WebAssembly.Instance(webpDecoderModule, imports);
      memory = Object.values(instance.exports).find((e): e is WebAssembly.Memory => e instanceof WebAssembly.Memory);
      receive(instance);
      return instance.exports;
    };
    await (init as unknown as (module: WebAssembly.Module, options: object) => Promise<void>)(webpDecoderModule, { locateFile: (path: string) => path, instantiateWasm });
  } finally {
    if (!hadLocation) delete g.location;
  }
}

/** Width and height from a WebP's header (VP8, VP8L or VP8X), without decoding it. */
function webpSize(b: Uint8Array): { width: number; height: number } | undefined {
  if (b.length < 30 || String.fromCharCode(...b.subarray(0, 4)) !== 'RIFF' || String.fromCharCode(...b.subarray(8, 12)) !== 'WEBP') return undefined;
  const tag = String.fromCharCode(...b.subarray(12, 16));
  const u24 = (at: number) => b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16);
  if (tag === 'VP8X') return { width: u24(24) + 1, height: u24(27) + 1 };
  if (tag === 'VP8 ') return { width: (b[26]! | (b[27]! << 8)) & 0x3fff, height: (b[28]! | (b[29]! << 8)) & 0x3fff };
  if (tag === 'VP8L') {
    const bits = b[21]! | (b[22]! << 8) | (b[23]! << 16) | (b[24]! << 24);
    return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  return undefined;
}
