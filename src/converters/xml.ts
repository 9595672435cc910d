/**
 * A small XML parser producing a compact element tree, for the Office Open XML readers.
 *
 * Why our own: Workers have no DOMParser, and the OOXML parts we read are machine-written, so a
 * forgiving single-pass scanner is enough and keeps memory low (one object per element, text kept as
 * strings). Namespaces are reduced to LOCAL names: transitional DOCX writes w:p, Strict OOXML writes
 * the same local names under other namespace URIs, so callers match `name` ("p", "rPr") and never the
 * prefix. The one place where the namespace matters is attributes: w:id (a note or bookmark id) and
 * r:id (a relationship id) can sit on the same element, so attributes whose prefix is bound to a
 * relationships namespace are stored as "r:<local>"; all others by their local name.
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

export class XmlError extends Error {
  override name = 'XmlError';
}

const RELATIONSHIP_NAMESPACES = new Set([
  'http://schemas.openxmlformats.org/officeDocument/2006/relationships',
  'http://purl.oclc.org/ooxml/officeDocument/relationships',
]);

const EMPTY_ATTRS: Record<string, string> = Object.freeze({}) as Record<string, string>;
const EMPTY_CHILDREN: XmlNode[] = Object.freeze([]) as unknown as XmlNode[];
const IGNORED_ATTR = /^(w:rsid|w14:paraId|w14:textId)/;

const NAMED_ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decodeEntities(s: string): string {
  if (s.indexOf('&') < 0) return s;
  return s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/g, (whole, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return Number.isFinite(code) && code >= 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED_ENTITIES[body] ?? whole;
  });
}

function isWhitespace(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13) return false;
  }
  return true;
}

/** Parse a whole XML document (bytes as UTF-8, or a string) and return its root element. */
export function parseXml(input: Uint8Array | string): XmlElement {
  const src = typeof input === 'string' ? input : new TextDecoder('utf-8').decode(input);
  // Prefixes bound to a relationships namespace anywhere in the document. OOXML declares namespaces on
  // the root, so one document-wide set (rather than a scoped stack) is enough.
  const relPrefixes = new Set<string>(['r']);
  const root: XmlElement = { name: '#document', prefix: '', attrs: {}, children: [] };
  const stack: XmlElement[] = [root];
  let pos = 0;
  const len = src.length;
  // Names and short attribute values repeat endlessly ("p", "rPr", "val", "1"): one copy of each.
  // Slices of a large source string would otherwise each be a separate heap string.
  const interned = new Map<string, string>();
  const intern = (v: string): string => {
    let c = interned.get(v);
    if (c === undefined) {
      c = v.length > 12 ? (' ' + v).slice(1) : v;
      interned.set(c, c);
    }
    return c;
  };
  const attrRe = /([^\s=/>]+)\s*=\s*("([^"]*)"|'([^']*)')/g;

  while (pos < len) {
    const lt = src.indexOf('<', pos);
    const textEnd = lt < 0 ? len : lt;
    if (textEnd > pos) {
      const raw = src.slice(pos, textEnd);
      const parent = stack[stack.length - 1]!;
      // Whitespace between elements is formatting; whitespace inside a leaf (<w:t> </w:t>) is content.
      // Keep it here and drop it when the element turns out to have element children.
      if (parent !== root) parent.children.push(decodeEntities(raw));
    }
    if (lt < 0) break;
    const next = src.charCodeAt(lt + 1);
    if (next === 33 /* ! */) {
      if (src.startsWith('<!--', lt)) {
        const end = src.indexOf('-->', lt + 4);
        pos = end < 0 ? len : end + 3;
      } else if (src.startsWith('<![CDATA[', lt)) {
        const end = src.indexOf(']]>', lt + 9);
        const text = src.slice(lt + 9, end < 0 ? len : end);
        stack[stack.length - 1]!.children.push(text);
        pos = end < 0 ? len : end + 3;
      } else {
        // DOCTYPE: skip to its end (OOXML never has an internal subset worth reading).
        const end = src.indexOf('>', lt);
        pos = end < 0 ? len : end + 1;
      }
      continue;
    }
    if (next === 63 /* ? */) {
      const end = src.indexOf('?>', lt);
      pos = end < 0 ? len : end + 2;
      continue;
    }
    const gt = findTagEnd(src, lt + 1);
    if (gt < 0) throw new XmlError('Unterminated tag at ' + lt);
    if (next === 47 /* / */) {
      // End tag: pop to the matching element (tolerates a stray end tag by ignoring it).
      const qname = src.slice(lt + 2, gt).trim();
      const local = qname.slice(qname.indexOf(':') + 1);
      for (let i = stack.length - 1; i > 0; i--) {
        if (stack[i]!.name === local) {
          for (let j = stack.length - 1; j >= i; j--) finish(stack[j]!);
          stack.length = i;
          break;
        }
      }
      pos = gt + 1;
      continue;
    }
    const selfClosing = src.charCodeAt(gt - 1) === 47;
    const body = src.slice(lt + 1, selfClosing ? gt - 1 : gt);
    let nameEnd = 0;
    while (nameEnd < body.length) {
      const c = body.charCodeAt(nameEnd);
      if (c === 32 || c === 9 || c === 10 || c === 13) break;
      nameEnd++;
    }
    const qname = body.slice(0, nameEnd);
    const colon = qname.indexOf(':');
    const el: XmlElement = {
      name: intern(colon < 0 ? qname : qname.slice(colon + 1)),
      prefix: colon < 0 ? '' : intern(qname.slice(0, colon)),
      // Most OOXML elements are attribute-less or childless leaves (<w:b/>): they share frozen empties.
      attrs: EMPTY_ATTRS,
      children: selfClosing ? EMPTY_CHILDREN : [],
    };
    if (nameEnd < body.length) {
      attrRe.lastIndex = nameEnd;
      let m: RegExpExecArray | null;
      const pending: [string, string][] = [];
      while ((m = attrRe.exec(body))) {
        const an = m[1]!;
        const raw = m[3] ?? m[4] ?? '';
        const value = raw.length <= 32 ? intern(decodeEntities(raw)) : decodeEntities(raw);
        if (an.startsWith('xmlns')) {
          if (RELATIONSHIP_NAMESPACES.has(value)) relPrefixes.add(an.slice(6));
          continue;
        }
        // Revision-session ids and Word 2010 paragraph ids are on nearly every paragraph and run and
        // mean nothing to a reader: skipping them saves much of the tree's memory.
        if (IGNORED_ATTR.test(an)) continue;
        pending.push([an, value]);
      }
      if (pending.length) el.attrs = {};
      for (const [an, value] of pending) {
        const c = an.indexOf(':');
        if (c < 0) el.attrs[intern(an)] = value;
        else {
          const p = an.slice(0, c);
          const local = an.slice(c + 1);
          if (relPrefixes.has(p)) el.attrs[intern('r:' + local)] = value;
          else if (p === 'xml') el.attrs[intern('xml:' + local)] = value;
          else el.attrs[intern(local)] = value;
        }
      }
    }
    stack[stack.length - 1]!.children.push(el);
    if (!selfClosing) stack.push(el);
    pos = gt + 1;
  }
  for (let j = stack.length - 1; j > 0; j--) finish(stack[j]!);
  const first = root.children.find((c): c is XmlElement => typeof c !== 'string');
  if (!first) throw new XmlError('No root element');
  return first;
}

/** The '>' that ends a tag starting at `from`, skipping '>' inside quoted attribute values. */
function findTagEnd(src: string, from: number): number {
  let quote = 0;
  for (let i = from; i < src.length; i++) {
    const c = src.charCodeAt(i);
    if (quote) {
      if (c === quote) quote = 0;
    } else if (c === 34 || c === 39) quote = c;
    else if (c === 62) return i;
  }
  return -1;
}

function finish(el: XmlElement): void {
  const kids = el.children;
  let hasElement = false;
  for (const k of kids) if (typeof k !== 'string') { hasElement = true; break; }
  // filter/slice also give an exactly-sized array: push() leaves spare capacity in every element.
  el.children = hasElement ? kids.filter((k) => typeof k !== 'string' || !isWhitespace(k)) : kids.length ? kids.slice() : EMPTY_CHILDREN;
}

// ---- Navigation helpers (by local name) ----

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
