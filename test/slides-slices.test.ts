/** How a long deck is cut into the slices an invocation prints each (render.ts deckSlices). */
import { describe, expect, it } from 'vitest';
import { deckSlices, SLICE_PICTURE_BYTES, SLICE_SLIDES } from '../src/convert/slides/render';
import type { Deck, Slide } from '../src/convert/slides/model';

/** A slide holding a picture of `bytes` bytes (its data's length is all the slicing reads). */
const slideWith = (bytes: number): Slide => ({
  shapes: bytes ? [{ box: { x: 0, y: 0, width: 10, height: 10 }, shape: { kind: 'shape', geometry: 'rect', width: 10, height: 10, members: [{ kind: 'shape', geometry: 'rect', width: 10, height: 10, picture: { data: { length: bytes } as Uint8Array, contentType: 'image/png' } }] } }] : [],
});
const deck = (slides: Slide[]): Deck => ({ width: 720, height: 405, slides });

describe('deck slices', () => {
  it('keeps a short deck whole and cuts a long one every SLICE_SLIDES slides', () => {
    expect(deckSlices(deck(Array.from({ length: 3 }, () => slideWith(0))))).toEqual([[0, 3]]);
    expect(deckSlices(deck(Array.from({ length: SLICE_SLIDES * 2 + 1 }, () => slideWith(0))))).toEqual([[0, SLICE_SLIDES], [SLICE_SLIDES, SLICE_SLIDES * 2], [SLICE_SLIDES * 2, SLICE_SLIDES * 2 + 1]]);
  });

  it('ends a slice early where its pictures (in groups too) would pass SLICE_PICTURE_BYTES, never leaving a slice empty', () => {
    const big = Math.ceil(SLICE_PICTURE_BYTES * 0.6);
    expect(deckSlices(deck([slideWith(big), slideWith(big), slideWith(0), slideWith(big)]))).toEqual([[0, 1], [1, 3], [3, 4]]);
    // A slide whose own pictures pass the cap is a slice by itself.
    expect(deckSlices(deck([slideWith(SLICE_PICTURE_BYTES * 2), slideWith(1)]))).toEqual([[0, 1], [1, 2]]);
  });
});
