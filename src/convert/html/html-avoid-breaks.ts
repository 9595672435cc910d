/**
 * `break-inside: avoid` and `break-after: avoid` (and their `page-break-` spellings) as Chromium
 * prints them, which MuPDF's layout ignores (html-to-pdf): a box that a page end would cut, or
 * part from the block after it, starts the next page instead, if it fits there. Where each such
 * stretch starts and ends is read from two links of no width laid out with it (one pass over the
 * pages' links); the boxes found cut get a forced break before them and the page is laid out again.
 */
import type * as Mupdf from 'mupdf';
import { Element, Text, type ParentNode } from 'domhandler';
import { BLOCK_TAGS, insertBefore, relink } from './html-dom';
import type { ComputedStyles } from './html-styles';
import { markerPlaces } from './html-table-headers';

const MARKER = 'pe-keep:';

/**
 * A stretch to keep on one page: from the start of `box` to the end of `end`, or to the start of
 * `end` (its first line) where `endAtStart`.
 */
export interface Kept {
  box: Element;
  end: Element;
  endAtStart: boolean;
}

/**
 * The block boxes asked to stay whole (`break-inside: avoid`), and those asked to stay with what
 * follows (`break-after: avoid`, as print style sheets ask of headings): not inside tables, whose
 * rows MuPDF lays out itself.
 */
export function keptTogether(root: ParentNode, styles: ComputedStyles): Kept[] {
  const out: Kept[] = [];
  for (const [el, props] of styles) {
    if (!BLOCK_TAGS.has(el.name) || el.name === 'table' || insideTable(el) || !within(el, root)) continue;
    if (props.get('break-inside') === 'avoid' || props.get('page-break-inside') === 'avoid' || props.get('break-inside') === 'avoid-page') out.push({ box: el, end: el, endAtStart: false });
    if (props.get('break-after') === 'avoid' || props.get('page-break-after') === 'avoid' || props.get('break-after') === 'avoid-page') {
      const next = nextElement(el);
      if (next && BLOCK_TAGS.has(next.name)) out.push({ box: el, end: next, endAtStart: true });
    }
  }
  return out;
}

function nextElement(el: Element): Element | undefined {
  for (let n = el.next; n; n = n.next) if (n instanceof Element) return n;
  return undefined;
}

const insideTable = (el: Element) => {
  for (let p = el.parent; p instanceof Element; p = p.parent) if (p.name === 'table') return true;
  return false;
};

const within = (el: Element, root: ParentNode) => {
  for (let p: ParentNode | null = el.parent; p; p = p.parent) if (p === root) return true;
  return false;
};

/** Zero-width links where each stretch starts and ends (removeEdgeMarkers takes them out again). */
export function addEdgeMarkers(kept: Kept[]): void {
  kept.forEach((k, n) => {
    const link = (edge: string) => new Element('a', { href: `${MARKER}${n}-${edge}` }, [new Text('\u200b')]);
    k.box.children.unshift(link('start'));
    if (k.endAtStart) k.end.children.unshift(link('end'));
    else k.end.children.push(link('end'));
    for (const holder of [k.box, k.end]) {
      relink(holder);
      for (const child of holder.children) if (child instanceof Element && child.attribs.href?.startsWith(MARKER)) relink(child);
    }
  });
}

export function removeEdgeMarkers(kept: Kept[]): void {
  for (const holder of new Set(kept.flatMap((k) => [k.box, k.end]))) {
    holder.children = holder.children.filter((child) => !(child instanceof Element && child.attribs.href?.startsWith(MARKER)));
    relink(holder);
  }
}

/** The stretches a page end cuts that would fit on one page (`room`: a page's content height in layout units). */
export function cutBoxes(doc: Mupdf.Document, kept: Kept[], room: number): Kept[] {
  const places = markerPlaces(doc, MARKER);
  return kept.filter((_, n) => {
    const [start, end] = [places.get(`${n}-start`), places.get(`${n}-end`)];
    if (!start || !end || start.page === end.page) return false;
    const height = end.y + (end.page - start.page) * room - start.y;
    return end.page === start.page + 1 && height < room * 0.9;
  });
}

/** A forced page break before each stretch (once per box). */
export function breakBefore(kept: Kept[]): void {
  for (const box of new Set(kept.map((k) => k.box))) insertBefore(box, new Element('div', { style: 'page-break-after:always;margin:0;padding:0;height:0' }));
}
