/**
 * The element tree parseXml (xml.ts) builds, and the helpers the Office Open XML readers walk it
 * with. Everything matches by LOCAL name ("p", "rPr"), never by prefix: transitional and Strict
 * OOXML write the same local names under different namespaces (see xml.ts).
 */

export interface XmlElement {
  /** Local name, without prefix ("p" for <w:p>). */
  name: string;
  /** The prefix as written ("w", "m", "a"; "" when none): rarely needed, e.g. to tell m:r from w:r. */
  prefix: string;
  /** Attributes by local name; relationship-namespace attributes as "r:<local>". */
  attrs: Record<string, string>;
  /** Element children and text, in document order. */
  children: XmlNode[];
}

export type XmlNode = XmlElement | string;

export function child(el: XmlElement | undefined, name: string): XmlElement | undefined {
  if (!el) return undefined;
  for (const c of el.children) if (typeof c !== 'string' && c.name === name) return c;
  return undefined;
}

export function children(el: XmlElement | undefined, name: string): XmlElement[] {
  if (!el) return [];
  const out: XmlElement[] = [];
  for (const c of el.children) if (typeof c !== 'string' && c.name === name) out.push(c);
  return out;
}

export function elements(el: XmlElement | undefined): XmlElement[] {
  if (!el) return [];
  return el.children.filter((c): c is XmlElement => typeof c !== 'string');
}

/** First descendant (depth-first) with the given local name. */
export function descendant(el: XmlElement | undefined, name: string): XmlElement | undefined {
  if (!el) return undefined;
  for (const c of el.children) {
    if (typeof c === 'string') continue;
    if (c.name === name) return c;
    const d = descendant(c, name);
    if (d) return d;
  }
  return undefined;
}

/** All descendants with the given local name, in document order. */
export function descendants(el: XmlElement | undefined, name: string, out: XmlElement[] = []): XmlElement[] {
  if (!el) return out;
  for (const c of el.children) {
    if (typeof c === 'string') continue;
    if (c.name === name) out.push(c);
    descendants(c, name, out);
  }
  return out;
}

/** Concatenated text of the element and its descendants. */
export function textOf(el: XmlElement | undefined): string {
  if (!el) return '';
  let s = '';
  for (const c of el.children) s += typeof c === 'string' ? c : textOf(c);
  return s;
}

export function attr(el: XmlElement | undefined, name: string): string | undefined {
  return el ? el.attrs[name] : undefined;
}
