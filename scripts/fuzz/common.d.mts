// Types of common.mjs for test/poison.test.ts.
export interface Rng {
  next(): number;
  int(n: number): number;
  pick<T>(list: readonly T[]): T;
}
export function rng(seed: number): Rng;
export function subSeed(seed: number, name: string): number;
export function crc32(bytes: Uint8Array, crc?: number): number;
export function utf8(s: string): Uint8Array;
export function concat(parts: readonly Uint8Array[]): Uint8Array;
export function truncated(bytes: Uint8Array, fraction: number): Uint8Array;
export function byteFlipped(bytes: Uint8Array, seed: number, count: number, keepHead?: number): Uint8Array;
