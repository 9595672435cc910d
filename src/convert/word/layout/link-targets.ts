/**
 * Links within the document ("#name": a table of contents' entries, cross-references) go to the
 * paragraph where bookmark `name` starts. The layout gives each such paragraph an empty element
 * `an<n>` (block-html.ts); where it was drawn is noted (render.ts), and the links are made once
 * the PDF is written (pdf-finish.ts), as the target may be on a page laid out after the link's.
 */
import type { Paragraph } from '../model/index';

export class LinkTargets {
  private readonly indexes = new WeakMap<Paragraph, number>();
  private readonly byName = new Map<string, number>();
  private readonly places: ({ page: number; y: number } | undefined)[] = [];

  /** The target number of a paragraph with bookmarks, the same each time it is written. */
  index(p: Paragraph): number {
    let k = this.indexes.get(p);
    if (k === undefined) {
      k = this.places.push(undefined) - 1;
      this.indexes.set(p, k);
      for (const name of p.props.bookmarks ?? []) if (!this.byName.has(name)) this.byName.set(name, k);
    }
    return k;
  }

  /** Target `k` was drawn on output page `page`, `y` points from its top (the first time counts). */
  place(k: number, page: number, y: number): void {
    if (k < this.places.length && !this.places[k]) this.places[k] = { page, y: Math.max(0, y) };
  }

  /** Where bookmark `name` was drawn, if it was. */
  at(name: string): { page: number; y: number } | undefined {
    const k = this.byName.get(name);
    return k === undefined ? undefined : this.places[k];
  }
}
