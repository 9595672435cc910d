/**
 * CSS counters in generated content (`h2::before { content: counter(chapter) ". " }`), which
 * MuPDF prints as the word "counter" (so css-flatten drops such content): worked out here in
 * document order, as CSS does (counter-reset, counter-increment, counter(), counters(), list
 * styles), and written into the page as text where the ::before or ::after box would be, with that
 * box's other declarations as its style. Scopes as CSS nests them: a reset makes a new instance for
 * the element's siblings and their content, and counters() joins the nested instances.
 */
import { alphabeticNumeral, romanNumeral } from '../../lib/numerals';
import { selectAll } from 'css-select';
import { Element, Text, type AnyNode, type ParentNode } from 'domhandler';
import type { Declaration, StyleRule } from './css-flatten';
import { relink } from './html-dom';
import { specificityOf, splitSelectorList } from './html-styles';

interface Generated {
  content: string;
  style: string;
  weight: number;
}

export function writeCounters(root: ParentNode, rules: StyleRule[]): void {
  if (!rules.some((r) => r.declarations.some(([p, v]) => p === 'content' && /\bcounters?\(/i.test(v)))) return;
  const pseudo = { before: new Map<Element, Generated>(), after: new Map<Element, Generated>() };
  const resets = new Map<Element, Weighted>();
  const increments = new Map<Element, Weighted>();
  rules.forEach((rule, order) => {
    for (const selector of splitSelectorList(rule.selector)) {
      const side = /::?(before|after)\s*$/i.exec(selector)?.[1]?.toLowerCase() as 'before' | 'after' | undefined;
      const base = side ? selector.replace(/::?(before|after)\s*$/i, '') || '*' : selector;
      let matched: Element[];
      try {
        matched = selectAll<AnyNode, Element>(base, root.children);
      } catch {
        continue;
      }
      const weight = specificityOf(selector) * 1e5 + order;
      for (const el of matched) {
        if (side) generated(pseudo[side], el, rule.declarations, weight);
        // A pseudo-element's counter-reset/increment counts as its element's (it comes just after it).
        for (const [p, v] of rule.declarations) {
          if (p === 'counter-reset') keep(resets, el, v, weight);
          if (p === 'counter-increment') keep(increments, el, v, weight);
        }
      }
    }
  });
  // Each counter is a stack of instances: a reset makes a new one, scoped to the element's parent
  // (siblings that follow share it, as in CSS), unless its sibling made the one on top.
  const counters = new Map<string, { value: number; scope: ParentNode | null }[]>();
  const walk = (node: ParentNode): void => {
    for (const child of [...node.children]) {
      if (!(child instanceof Element)) continue;
      for (const [name, value] of pairs(resets.get(child)?.value, 0)) {
        const stack = counters.get(name) ?? [];
        if (stack.at(-1)?.scope === node) stack.at(-1)!.value = value;
        else stack.push({ value, scope: node });
        counters.set(name, stack);
      }
      for (const [name, value] of pairs(increments.get(child)?.value, 1)) {
        const stack = counters.get(name) ?? [];
        if (!stack.length) stack.push({ value: 0, scope: null });
        stack.at(-1)!.value += value;
        counters.set(name, stack);
      }
      insert(child, pseudo.before.get(child), counters, 'start');
      walk(child);
      insert(child, pseudo.after.get(child), counters, 'end');
    }
    // Instances made by this node's children end with it.
    for (const stack of counters.values()) while (stack.length && stack.at(-1)!.scope === node) stack.pop();
  };
  walk(root);
}

interface Weighted {
  value: string;
  weight: number;
}

function generated(into: Map<Element, Generated>, el: Element, declarations: Declaration[], weight: number): void {
  const held = into.get(el) ?? { content: '', style: '', weight: -1 };
  const content = declarations.find(([p]) => p === 'content')?.[1];
  const style = declarations.filter(([p]) => !/^(content|counter-reset|counter-increment)$/.test(p)).map(([p, v]) => `${p}:${v}`).join(';');
  into.set(el, { content: content !== undefined && weight >= held.weight ? content : held.content, style: [held.style, style].filter(Boolean).join(';'), weight: Math.max(weight, held.weight) });
}

/** The value of the weightier declaration (CSS's cascade, by specificity and then order). */
function keep(into: Map<Element, Weighted>, el: Element, value: string, weight: number): void {
  const held = into.get(el);
  if (!held || weight >= held.weight) into.set(el, { value, weight });
}

/** `chapter 2 section` → [['chapter', 2], ['section', fallback]]; `none` → []. */
function pairs(value: string | undefined, fallback: number): [string, number][] {
  if (!value || value === 'none') return [];
  const out: [string, number][] = [];
  const words = value.trim().split(/\s+/);
  for (let i = 0; i < words.length; i++) {
    const n = Number(words[i + 1]);
    if (words[i + 1] !== undefined && Number.isFinite(n)) {
      out.push([words[i]!, n]);
      i++;
    } else out.push([words[i]!, fallback]);
  }
  return out;
}

/** The generated text: strings, counter(name, style), counters(name, "sep", style); anything else shows nothing. */
export function generatedText(content: string, counters: Map<string, { value: number }[]>): string {
  let text = '';
  for (const m of content.matchAll(/"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|counters?\(\s*([\w-]+)\s*(?:,\s*("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'))?\s*(?:,\s*([\w-]+))?\s*\)/gi)) {
    if (m[3]) {
      const stack = (counters.get(m[3]) ?? []).map((c) => c.value);
      if (!stack.length) stack.push(0);
      const plural = m[0].toLowerCase().startsWith('counters');
      const style = plural ? m[5] : (m[5] ?? (m[4] && !/^["']/.test(m[4]) ? m[4] : undefined));
      const separator = plural && m[4] ? m[4].slice(1, -1) : '';
      text += (plural ? stack : stack.slice(-1)).map((n) => inStyle(n, style)).join(separator);
    } else text += (m[1] ?? m[2] ?? '').replace(/\\([0-9a-f]{1,6})\s?/gi, (_, hex: string) => String.fromCodePoint(Number.parseInt(hex, 16))).replace(/\\(.)/g, '$1');
  }
  return text;
}

function inStyle(n: number, style: string | undefined): string {
  switch (style?.toLowerCase()) {
    case 'lower-alpha': case 'lower-latin': return alpha(n).toLowerCase();
    case 'upper-alpha': case 'upper-latin': return alpha(n);
    case 'lower-roman': return romanNumeral(n).toLowerCase();
    case 'upper-roman': return romanNumeral(n);
    case 'decimal-leading-zero': return n < 10 && n >= 0 ? `0${n}` : String(n);
    case 'none': return '';
    default: return String(n);
  }
}

function alpha(n: number): string {
  return alphabeticNumeral(n) || String(n);
}


function insert(el: Element, box: Generated | undefined, counters: Map<string, { value: number }[]>, at: 'start' | 'end'): void {
  if (!box || !/\bcounters?\(/i.test(box.content)) return;
  const text = generatedText(box.content, counters);
  if (!text) return;
  const span = new Element('span', box.style ? { style: box.style } : {}, [new Text(text)]);
  relink(span);
  if (at === 'start') el.children.unshift(span);
  else el.children.push(span);
  relink(el);
}
