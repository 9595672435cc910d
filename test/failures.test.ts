/** Which engine errors are exhaustion (retried, then "too large") and which are the file's fault. */
import { describe, expect, it } from 'vitest';
import { deflateSync } from 'node:zlib';
import { isResourceExhaustion } from '../src/pdf/classify';

describe('isResourceExhaustion', () => {
  it("recognises workerd's zlib refusing an output bound, thrown by the real runtime, and a wrapped one", () => {
    let thrown: unknown;
    try {
      deflateSync(new Uint8Array(4 * 1024 * 1024), { maxOutputLength: 16 });
    } catch (e) {
      thrown = e;
    }
    expect(String(thrown)).toMatch(/Memory limit exceeded|buffer/i);
    expect(isResourceExhaustion(thrown)).toBe(true);
    expect(isResourceExhaustion(new Error('engine failed', { cause: new RangeError('Memory limit exceeded') }))).toBe(true);
  });

  it('does not call a damaged file exhaustion', () => {
    expect(isResourceExhaustion(new Error('format error: cannot find startxref'))).toBe(false);
    expect(isResourceExhaustion(new RangeError('read past end at 4096'))).toBe(false);
  });
});
