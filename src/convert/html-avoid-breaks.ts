/**
 * `break-inside: avoid` (and `page-break-inside: avoid`) as Chromium prints it, which MuPDF's
 * layout ignores (html-to-pdf): a box that would be cut by a page end, and fits on a page, starts
 * on the next page instead. Where each such box starts and ends is read from two links of no
 * width laid out with it (one pass over the pages' links); the boxes found cut get a forced break
 * before them and the page is laid out again.
 */
import type * as Mupdf from 'mupdf';
import { Element, Text, type ParentNode } from 'domhandler';
import { BLOCK_TAGS, insertBefore, relink } from './html-dom';
import type { ComputedStyles } from './html-styles';
import { markerPlaces } from './html-table-headers';

const MARKER = 'pe-keep:';

/** The block boxes asked to stay whole (not inside tables, whose rows MuPDF lays out itself). */
export function unbrokenBoxes(root: ParentNode, styles: ComputedStyles): Element[] {
  const out: Element[] = [];
  for (const [el, props] of styles) {
    const avoid = props.get('break-inside') === 'avoid' || props.get('page-break-inside') === 'avoid' || props.get('break-inside') === 'avoid-page';
    if (!avoid || !BLOCK_TAGS.has(el.name) || el.name === 'table' || insideTable(el) || !within(el, root)) continue;
    out.push(el);
  }
  return out;
}

const insideTable = (el: Element) => {
  for (let p = el.parent; p instanceof Element; p = p.parent) if (p.name === 'table') return true;
  return false;
};

const within = (el: Element, root: ParentNode) => {
  for (let p: ParentNode | null = el.parent; p; p = p.parent) if (p === root) return true;
  return false;
};

/** Zero-width links at the start and end of each box (removeEdgeMarkers takes them out again). */
export function addEdgeMarkers(boxes: Element[]): void {
  boxes.forEach((box, n) => {
    const link = (edge: string) => new Element('a', { href: `${MARKER}${n}-${edge}` }, [new Text('\u200b')]);
    box.children.unshift(link('start'));
    box.children.push(link('end'));
    relink(box);
    for (const child of box.children) if (child instanceof Element && child.attribs.href?.startsWith(MARKER)) relink(child);
  });
}

export function removeEdgeMarkers(boxes: Element[]): void {
  for (const box of boxes) {
    box.children = box.children.filter((child) => !(child instanceof Element && child.attribs.href?.startsWith(MARKER)));
    relink(box);
  }
}

/** The boxes a page end cuts that would fit on one page (`room`: a page's content height in layout units). */
export function cutBoxes(doc: Mupdf.Document, boxes: Element[], room: number): Element[] {
  const places = markerPlaces(doc, MARKER);
  return boxes.filter((_, n) => {
    const [start, end] = [places.get(`${n}-start`), places.get(`${n}-end`)];
    if (!start || !end || start.page === end.page) return false;
    const height = end.y + (end.page - start.page) * room - start.y;
    return end.page === start.page + 1 && height < room * 0.9;
  });
}

/** A forced page break before each box. */
export function breakBefore(boxes: Element[]): void {
  for (const box of boxes) insertBefore(box, new Element('div', { style: 'page-break-after:always;margin:0;padding:0;height:0' }));
}
