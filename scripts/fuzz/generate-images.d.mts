// Types of generate-images.mjs for test/poison.test.ts.
export function png(width: number, height: number, pixel?: (x: number, y: number) => [number, number, number]): Uint8Array;
export function normalPng(): Uint8Array;
export function declaredPng(width: number, height: number, idatBytes?: number): Uint8Array;
export function withJpegSize(jpeg: Uint8Array, width: number, height: number): Uint8Array;
export function declaredWebpLossless(width: number, height: number, dataBytes?: number): Uint8Array;
export function declaredWebpCanvas(width: number, height: number): Uint8Array;
