/** The small DOM edits html-to-pdf's rewrite makes (domhandler nodes, parent and sibling links kept right). */
import { Element, Text, type AnyNode, type ParentNode } from 'domhandler';

/** Every element under `root` in document order (a snapshot: the rewrite may move them). */
export function elements(root: ParentNode): Element[] {
  const out: Element[] = [];
  const walk = (node: ParentNode): void => {
    for (const child of node.children) {
      if (child instanceof Element) {
        out.push(child);
        walk(child);
      }
    }
  };
  walk(root);
  return out;
}

/** Adds declarations after the element's own style attribute, so that they win over it and over every style sheet. */
export function addStyle(el: Element, css: string): void {
  const own = el.attribs.style?.trim();
  el.attribs.style = own ? `${own.replace(/;?\s*$/, ';')}${css}` : css;
}

/** Adds declarations before the element's own style attribute (a presentational hint: the page's own styles win). */
export function addHint(el: Element, css: string): void {
  const own = el.attribs.style?.trim();
  el.attribs.style = own ? `${css};${own}` : css;
}

export function insertBefore(node: AnyNode, inserted: AnyNode): void {
  const parent = node.parent!;
  const at = parent.children.indexOf(node);
  parent.children.splice(at, 0, inserted);
  relink(parent);
}

export function relink(parent: ParentNode): void {
  parent.children.forEach((child, i) => {
    child.parent = parent;
    child.prev = parent.children[i - 1] ?? null;
    child.next = parent.children[i + 1] ?? null;
  });
}

export const isBlank = (node: AnyNode): boolean => node instanceof Text && !node.data.trim();


export function nearestTable(el: Element): Element | undefined {
  for (let p = el.parent; p; p = p.parent) if (p instanceof Element && p.name === 'table') return p;
  return undefined;
}
