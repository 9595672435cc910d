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

/** The depth of the deepest element under `root` (iteratively: the tree may be very deep). */
export function depthOf(root: ParentNode): number {
  let max = 0;
  const stack: [ParentNode, number][] = [[root, 0]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    max = Math.max(max, depth);
    for (const child of node.children) if (child instanceof Element) stack.push([child, depth + 1]);
  }
  return max;
}

/** Boxes that only group others when nothing styles them. */
const WRAPPERS = new Set(['div', 'span', 'section', 'article', 'main', 'header', 'footer', 'nav', 'aside', 'figure', 'font']);

/**
 * MuPDF's layout recurses once per nested box and overflows its stack past about 30 levels,
 * which corrupts the engine for every later task in the isolate. So a page nested deeper than
 * `max` first loses the wrappers nothing styles (no attributes, no rule matches them: `styled`)
 * whose content is all blocks, which changes nothing drawn; if it is still too deep, below `max`
 * only the text and the void elements (pictures, line breaks) are kept, in order, as browsers'
 * parsers flatten what is nested past their own cap (Chromium's is 512).
 */
export function limitDepth(root: ParentNode, max: number, styled: (el: Element) => boolean): void {
  if (depthOf(root) <= max) return;
  const stack: ParentNode[] = [root];
  while (stack.length) {
    const node = stack.pop()!;
    let changed = false;
    const children: AnyNode[] = [];
    for (const child of node.children) {
      const plain = child instanceof Element && WRAPPERS.has(child.name) && !Object.keys(child.attribs).length && !styled(child);
      if (plain && child.children.every((c) => (c instanceof Element && !WRAPPERS_INLINE.has(c.name)) || (c instanceof Text && !c.data.trim()))) {
        children.push(...child.children);
        changed = true;
      } else children.push(child);
    }
    if (changed) {
      node.children = children;
      relink(node);
      stack.push(node); // its new children may be plain wrappers too
      continue;
    }
    for (const child of node.children) if (child instanceof Element) stack.push(child);
  }
  flattenBelow(root, max);
}

/** Inline elements: unwrapping a box around them would run them into the text beside it. */
const WRAPPERS_INLINE = new Set(['a', 'abbr', 'b', 'bdi', 'bdo', 'br', 'cite', 'code', 'em', 'font', 'i', 'img', 'kbd', 'mark', 'q', 's', 'small', 'span', 'strong', 'sub', 'sup', 'u', 'var']);

function flattenBelow(root: ParentNode, max: number): void {
  const stack: [ParentNode, number][] = [[root, 0]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (depth >= max) {
      node.children = leaves(node);
      relink(node);
      continue;
    }
    for (const child of node.children) if (child instanceof Element) stack.push([child, depth + 1]);
  }
}

/**
 * The text and void elements under `node`, in document order (iteratively: the tree may be very
 * deep), with a line break where a block, cell or list item began or ended, as each started a line
 * of its own: run together, the words of 10,000 nested boxes made one word 60,000 letters long,
 * which took MuPDF's line breaking minutes.
 */
function leaves(node: ParentNode): AnyNode[] {
  const out: AnyNode[] = [];
  const breaks = new Set<AnyNode>();
  const lineBreak = () => {
    const last = out[out.length - 1];
    if (!last || breaks.has(last) || (last instanceof Element && last.name === 'br')) return;
    const br = new Element('br', {});
    breaks.add(br);
    out.push(br);
  };
  const END = new Text('');
  const stack: AnyNode[] = [...node.children].reverse();
  while (stack.length) {
    const next = stack.pop()!;
    if (next === END) lineBreak();
    else if (next instanceof Element && next.children.length) {
      const block = BLOCK_TAGS.has(next.name) || LINE_TAGS.has(next.name);
      if (block) (lineBreak(), stack.push(END));
      for (let i = next.children.length - 1; i >= 0; i--) stack.push(next.children[i]!);
    } else out.push(next);
  }
  while (out.length && breaks.has(out[out.length - 1]!)) out.pop();
  return out;
}

/** Boxes besides BLOCK_TAGS that start a line of their own. */
const LINE_TAGS = new Set(['tr', 'td', 'th', 'caption', 'thead', 'tbody', 'tfoot', 'dt', 'dd', 'option', 'legend']);

/** Elements that are blocks unless styled otherwise (breaks apply to block boxes only: a `<br>` with `page-break-before` breaks nothing in Chromium). */
export const BLOCK_TAGS = new Set('address article aside blockquote body center dd details dialog dir div dl dt fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 header hgroup hr li main menu nav ol p pre section summary table ul'.split(' '));
