/**
 * The few computed styles html-to-pdf rewrites the page by (html-rewrite.ts): which elements are
 * flex or grid containers, where forced page breaks fall, what text is transformed. MuPDF's HTML
 * layout ignores these, so they are found here, on a DOM, with css-select matching the
 * document's own selectors, and the winner of each property chosen as CSS does: !important, then
 * the style attribute, then specificity, then the later rule.
 */
import { selectAll } from 'css-select';
import type { AnyNode, Element } from 'domhandler';
import { declarations, type StyleRule } from './css-flatten';

/** The properties whose computed value the rewrite needs. */
const WATCHED = new Set([
  'display', 'flex-direction', 'flex-wrap', 'flex', 'flex-grow', 'justify-content', 'align-items', 'grid-template-columns',
  'break-before', 'break-after', 'page-break-before', 'page-break-after', 'text-transform', 'position', 'width', 'flex-basis', 'height', 'min-height', 'margin', 'margin-left', 'margin-right', 'float', 'max-width', 'top', 'left', 'right', 'bottom', 'columns', 'column-count', 'break-inside', 'page-break-inside', 'border-radius', 'background-color', 'background',
]);

export type ComputedStyles = Map<Element, Map<string, string>>;

type Weight = [important: number, inline: number, specificity: number, order: number];

export function computeStyles(root: AnyNode[], rules: StyleRule[]): ComputedStyles {
  const winners = new Map<Element, Map<string, { value: string; weight: Weight }>>();
  const offer = (el: Element, property: string, value: string, weight: Weight): void => {
    let props = winners.get(el);
    if (!props) winners.set(el, (props = new Map()));
    const held = props.get(property);
    if (!held || !outweighs(held.weight, weight)) props.set(property, { value: value.toLowerCase(), weight });
  };
  rules.forEach((rule, order) => {
    const watched = rule.declarations.filter(([p]) => WATCHED.has(p));
    if (!watched.length || rule.selector.startsWith('@')) return;
    for (const selector of splitSelectorList(rule.selector)) {
      // Pseudo-elements are boxes that are not in the DOM; their styles cannot be placed on it.
      if (/::|:(before|after|first-line|first-letter)\b/i.test(selector)) continue;
      let matched: Element[];
      try {
        matched = selectAll<AnyNode, Element>(selector, root);
      } catch {
        continue; // a selector css-select does not know: the rule is skipped, as a browser that did not know it would
      }
      const specificity = specificityOf(selector);
      for (const el of matched) for (const [p, v, important] of watched) offer(el, p, v, [important ? 1 : 0, 0, specificity, order]);
    }
  });
  for (const el of selectAll<AnyNode, Element>('[style]', root)) {
    for (const [p, v, important] of declarations(el.attribs.style!.split(';'))) if (WATCHED.has(p)) offer(el, p, v, [important ? 1 : 0, 1, 0, 0]);
  }
  const computed: ComputedStyles = new Map();
  for (const [el, props] of winners) computed.set(el, new Map([...props].map(([p, { value }]) => [p, value])));
  return computed;
}

/** Whether weight `a` beats weight `b` (a tie goes to `b`, the later). */
function outweighs(a: Weight, b: Weight): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! > b[i]!;
  return false;
}

/** A selector list split at its top-level commas (not those inside :is(), :not() or strings). */
export function splitSelectorList(list: string): string[] {
  const parts: string[] = [];
  let [depth, start] = [0, 0];
  for (let i = 0; i < list.length; i++) {
    const ch = list[i];
    if (ch === '(' || ch === '[') depth++;
    else if (ch === ')' || ch === ']') depth--;
    else if (ch === ',' && depth === 0) {
      parts.push(list.slice(start, i).trim());
      start = i + 1;
    }
  }
  parts.push(list.slice(start).trim());
  return parts.filter(Boolean);
}

/** CSS specificity as one number: ids ×10⁴, classes, attributes and pseudo-classes ×10², types ×1. */
export function specificityOf(selector: string): number {
  const s = selector.replace(/"[^"]*"|'[^']*'/g, '').replace(/:(not|is|where|has)\(/gi, ' (');
  const ids = (s.match(/#[\w-]+/g) ?? []).length;
  const classes = (s.match(/\.[\w-]+|\[[^\]]*\]|:[\w-]+/g) ?? []).length;
  const types = (s.replace(/#[\w-]+|\.[\w-]+|\[[^\]]*\]|:[\w-]+(\([^)]*\))?/g, ' ').match(/(^|[\s>+~(])[a-z][\w-]*/gi) ?? []).length;
  return ids * 10_000 + classes * 100 + types;
}

/** Whether any rule of the style sheets matches each element (asked only of deeply nested pages). */
export function styledBy(root: AnyNode[], rules: StyleRule[]): (el: Element) => boolean {
  let matched: Set<Element> | undefined;
  return (el) => {
    if (!matched) {
      matched = new Set();
      for (const rule of rules) {
        if (rule.selector.startsWith('@')) continue;
        for (const selector of splitSelectorList(rule.selector)) {
          try {
            for (const hit of selectAll<AnyNode, Element>(selector.replace(/::?(before|after|first-line|first-letter|marker)\b.*$/i, ''), root)) matched.add(hit);
          } catch {
            // a selector css-select does not know matches nothing here
          }
        }
      }
    }
    return matched.has(el);
  };
}
