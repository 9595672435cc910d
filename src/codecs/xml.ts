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
 *
 * The tree's types and the helpers that walk it (child, descendants, textOf...) are in xml-tree.ts,
 * exported from here too, so that a reader imports the parser and its helpers from one module.
 */
import { LimitExceeded } from '../lib/limits';
import type { XmlElement, XmlNode } from './xml-tree';
export type { XmlElement, XmlNode } from './xml-tree';
export { attr, child, children, descendant, descendants, elements, textOf } from './xml-tree';

export class XmlError extends Error {
  override name = 'XmlError';
}

/**
 * Elements nested deeper than this are refused (LimitExceeded) while parsing, before anything walks
 * the tree: the parser itself keeps a stack of its own, but the readers and xml-tree's helpers recurse
 * once per level, and a part 100,000 levels deep (a few hundred KB) overflowed the JS stack. Word
 * nests tables at most 63 deep, about 200 levels of WordprocessingML (w:tbl, w:tr, w:tc each); 1,024
 * also reads what Word does not write (tables 300 deep, laid out flat: 905 levels) and stays well
 * within the stack: the DOCX reader, which recurses most per level in tables, overflowed it with
 * tables 850 deep (2,550 levels; text boxes in text boxes read past 4,500).
 */
export const XML_DEPTH_MAX = 1024;

const RELATIONSHIP_NAMESPACES = new Set([
  'http://schemas.openxmlformats.org/officeDocument/2006/relationships',
  'http://purl.oclc.org/ooxml/officeDocument/relationships',
]);

const EMPTY_ATTRS: Record<string, string> = Object.freeze({}) as Record<string, string>;
const EMPTY_CHILDREN: XmlNode[] = Object.freeze([]) as unknown as XmlNode[];
/** Attribute-name prefixes never stored (see the attribute loop). */
const IGNORED_ATTRS = ['w:rsid', 'w14:paraId', 'w14:textId'];
/** Attribute values up to this length are interned (at most INTERNED_MAX of them); longer ones are mostly unique (text, formulas). */
const [INTERN_MAX, INTERNED_MAX] = [32, 65_536];

const NAMED_ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
// One decoder for every part: TextDecoder.decode without {stream} keeps no state between calls.
const utf8 = new TextDecoder('utf-8');

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

const isSpace = (c: number): boolean => c === 32 || c === 9 || c === 10 || c === 13;

function isWhitespace(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (!isSpace(s.charCodeAt(i))) return false;
  return true;
}

/**
 * Hand over the elements at one depth as each completes, instead of keeping them in the tree: a long
 * document's body is then read while it is parsed and its XML is collected young (building the whole
 * tree first cost more in garbage collection than the parse itself, and its memory).
 */
export interface XmlStream {
  /** Depth of the elements handed over: the root element is 1, its children 2... */
  depth: number;
  /** Called with each complete element at `depth`; returns whether to keep it in the tree too. */
  element(el: XmlElement, parent: XmlElement): boolean;
  /** Also hand over each element deeper than `depth` as it completes (a group's members within an anchor), with its depth. */
  deeper?: (el: XmlElement, depth: number) => boolean;
}

/** Parse a whole XML document (bytes as UTF-8, or a string); one of more than `elementsMax` elements is refused (LimitExceeded) before its tree outgrows memory. */
export function parseXml(input: Uint8Array | string, stream?: XmlStream, elementsMax = Infinity): XmlElement {
  return new XmlParser(typeof input === 'string' ? input : utf8.decode(input), stream, elementsMax).parse();
}

/**
 * Single pass over the source. Text and end tags are found by built-ins (indexOf, slice, Map), fast
 * from the first call; start tags are scanned by char-code loops, which run unoptimised until the
 * JIT has warmed up but then beat sticky regexes (no match arrays): GASU's document.xml 86 -> 71 ms
 * in a used isolate, a one-page document's about 1 ms slower in a fresh one. Children of the open
 * elements collect in one shared array and are copied out, exactly sized, when their element closes
 * (push() would leave spare capacity in every element's array).
 */
class XmlParser {
  // Prefixes bound to a relationships namespace anywhere in the document. OOXML declares namespaces on
  // the root, so one document-wide set (rather than a scoped stack) is enough.
  private readonly relPrefixes = new Set<string>(['r']);
  /** Element qualified name → [local name, prefix], each string one shared copy. */
  private readonly elementNames = new Map<string, [string, string]>();
  /** Attribute qualified name → key in XmlElement.attrs ('' = not stored). Cleared when relPrefixes grows. */
  private readonly attrKeys = new Map<string, string>();
  // Names and short attribute values repeat endlessly ("p", "rPr", "val", "1"): one copy of each.
  private readonly values = new Map<string, string>();
  private readonly open: XmlElement[] = [];
  /** Index in `pending` where each open element's children start. */
  private readonly openStart: number[] = [];
  /** Per open element: HAS_ELEMENT and HAS_BLANK bits. */
  private readonly openFlags: number[] = [];
  private readonly pending: XmlNode[] = [];
  /** The current tag's attributes as qualified name, raw value, name, value...: reused from tag to tag. */
  private readonly attrPairs: string[] = [];

  private elements = 0;
  constructor(
    private readonly src: string,
    private readonly stream?: XmlStream,
    private readonly elementsMax = Infinity,
  ) {}

  parse(): XmlElement {
    const src = this.src;
    const len = src.length;
    const root: XmlElement = { name: '#document', prefix: '', attrs: {}, children: [] };
    this.open.push(root);
    this.openStart.push(0);
    this.openFlags.push(0);
    let pos = 0;
    while (pos < len) {
      const lt = src.indexOf('<', pos);
      const textEnd = lt < 0 ? len : lt;
      if (textEnd > pos) this.text(pos, textEnd);
      if (lt < 0) break;
      const next = src.charCodeAt(lt + 1);
      if (next === 33 /* ! */) pos = this.markupDeclaration(lt);
      else if (next === 63 /* ? */) {
        const end = src.indexOf('?>', lt);
        pos = end < 0 ? len : end + 2;
      } else if (next === 47 /* / */) pos = this.endTag(lt);
      else pos = this.startTag(lt);
    }
    for (let j = this.open.length - 1; j > 0; j--) this.close(j);
    for (const c of this.pending) if (typeof c !== 'string') return c;
    throw new XmlError('No root element');
  }

  /** Text between tags. Whitespace between elements is formatting; inside a leaf (<w:t> </w:t>) it is content. */
  private text(start: number, end: number): void {
    const top = this.open.length - 1;
    if (top === 0) return;
    const src = this.src;
    let i = start;
    while (i < end && isSpace(src.charCodeAt(i))) i++;
    if (i === end) {
      // Dropped at once after an element child; before one, kept until close() knows what the element holds.
      if (this.openFlags[top]! & HAS_ELEMENT) return;
      this.openFlags[top]! |= HAS_BLANK;
    }
    const raw = src.slice(start, end);
    const text = decodeEntities(raw);
    // "&#32;" is whitespace too once decoded.
    if (text !== raw && isWhitespace(text)) this.openFlags[top]! |= HAS_BLANK;
    this.pending.push(text);
  }

  /** <!-- -->, <![CDATA[ ]]>, <!DOCTYPE>: returns the position after it. */
  private markupDeclaration(lt: number): number {
    const src = this.src;
    if (src.startsWith('<!--', lt)) {
      const end = src.indexOf('-->', lt + 4);
      return end < 0 ? src.length : end + 3;
    }
    if (src.startsWith('<![CDATA[', lt)) {
      const end = src.indexOf(']]>', lt + 9);
      const text = src.slice(lt + 9, end < 0 ? src.length : end);
      if (isWhitespace(text)) this.openFlags[this.open.length - 1]! |= HAS_BLANK;
      this.pending.push(text);
      return end < 0 ? src.length : end + 3;
    }
    // DOCTYPE: skip to its end (OOXML never has an internal subset worth reading).
    const end = src.indexOf('>', lt);
    return end < 0 ? src.length : end + 1;
  }

  /** End tag: close up to the matching open element (a stray end tag is ignored). */
  private endTag(lt: number): number {
    const src = this.src;
    const gt = findTagEnd(src, lt + 1);
    if (gt < 0) throw new XmlError('Unterminated tag at ' + lt);
    // Nearly always the end of the innermost element, written exactly as its start tag was.
    const top = this.open.length - 1;
    const el = this.open[top]!;
    const at = lt + 2 + (el.prefix ? el.prefix.length + 1 : 0);
    if (top > 0 && gt - at === el.name.length && src.startsWith(el.name, at) && (!el.prefix || (src.startsWith(el.prefix, lt + 2) && src.charCodeAt(at - 1) === 58))) {
      this.close(top);
      return gt + 1;
    }
    const qname = src.slice(lt + 2, gt).trim();
    const local = qname.slice(qname.indexOf(':') + 1);
    for (let i = top; i > 0; i--) {
      if (this.open[i]!.name === local) {
        for (let j = top; j >= i; j--) this.close(j);
        break;
      }
    }
    return gt + 1;
  }

  /** A start tag at `lt`; returns the position after it. */
  private startTag(lt: number): number {
    const src = this.src;
    const len = src.length;
    // Names and attributes are scanned by char codes, not regexes: no match arrays, one slice per token.
    let at = lt + 1;
    while (at < len && !isNameEnd(src.charCodeAt(at))) at++;
    const qname = src.slice(lt + 1, at);
    let names = this.elementNames.get(qname);
    if (!names) {
      const colon = qname.indexOf(':');
      // Own copies: a slice would keep the source alive in every element kept from it.
      names = colon < 0 ? [ownString(qname), ''] : [ownString(qname.slice(colon + 1)), ownString(qname.slice(0, colon))];
      this.elementNames.set(qname, names);
    }
    const el: XmlElement = { name: names[0], prefix: names[1], attrs: EMPTY_ATTRS, children: EMPTY_CHILDREN };
    // Well-formed attributes (name="value" or name='value', spaces between) are read here; anything
    // unusual takes the slow path.
    const pairs = this.attrPairs;
    pairs.length = 0;
    let c = src.charCodeAt(at);
    while (isSpace(c)) {
      let name = at + 1;
      while (isSpace(src.charCodeAt(name))) name++;
      let nameEnd = name;
      while (nameEnd < len && !isNameEnd((c = src.charCodeAt(nameEnd))) && c !== 61 /* = */) nameEnd++;
      if (nameEnd === name) {
        at = name; // spaces before > or />
        break;
      }
      let eq = nameEnd;
      while (isSpace(src.charCodeAt(eq))) eq++;
      if (src.charCodeAt(eq) !== 61) break;
      let quote = eq + 1;
      while (isSpace(src.charCodeAt(quote))) quote++;
      const q = src.charCodeAt(quote);
      if (q !== 34 && q !== 39) break;
      const close = src.indexOf(q === 34 ? '"' : "'", quote + 1);
      if (close < 0) break;
      pairs.push(src.slice(name, nameEnd), src.slice(quote + 1, close));
      at = close + 1;
      c = src.charCodeAt(at);
    }
    let selfClosing: boolean;
    let next: number;
    if (src.charCodeAt(at) === 62 /* > */) {
      selfClosing = false;
      next = at + 1;
    } else if (src.charCodeAt(at) === 47 /* / */ && src.charCodeAt(at + 1) === 62) {
      selfClosing = true;
      next = at + 2;
    } else {
      const gt = findTagEnd(src, lt + 1);
      if (gt < 0) throw new XmlError('Unterminated tag at ' + lt);
      selfClosing = src.charCodeAt(gt - 1) === 47;
      looseAttributes(src.slice(at, selfClosing ? gt - 1 : gt), pairs);
      next = gt + 1;
    }
    if (pairs.length) this.setAttributes(el, pairs);
    if (++this.elements > this.elementsMax) throw new LimitExceeded('xml_elements', `holds more than ${this.elementsMax.toLocaleString('en-US')} XML elements; at most that many are read from one part`);
    const top = this.open.length - 1;
    // The open stack holds the #document node below the root element, so the new element is top + 1 deep.
    if (top >= XML_DEPTH_MAX) throw this.tooDeep();
    this.openFlags[top]! |= HAS_ELEMENT;
    this.pending.push(el);
    // The open stack holds the #document node below the root element, so an element's depth is its index.
    if (selfClosing) {
      if (this.stream) this.handOver(el, top + 1);
    } else {
      this.open.push(el);
      this.openStart.push(this.pending.length);
      this.openFlags.push(0);
    }
    return next;
  }

  /** The open elements are XML_DEPTH_MAX deep: the limit, naming the element that nests most (w:tbl 341 times). */
  private tooDeep(): LimitExceeded {
    const counts = new Map<XmlElement['name'], number>();
    let most: XmlElement | undefined;
    for (const el of this.open.slice(1)) {
      const n = (counts.get(el.name) ?? 0) + 1;
      counts.set(el.name, n);
      if (!most || n > counts.get(most.name)!) most = el;
    }
    const name = most ? (most.prefix ? `${most.prefix}:${most.name}` : most.name) : '';
    return new LimitExceeded('xml_depth', `XML nested more than ${XML_DEPTH_MAX} elements deep (<${name}> ${counts.get(most?.name ?? '') ?? 0} times among them); at most ${XML_DEPTH_MAX} levels are read`);
  }

  /** Qualified-name, raw-value pairs onto the element, keyed by local name (see XmlElement.attrs). */
  private setAttributes(el: XmlElement, pairs: string[]): void {
    // Declarations first: an xmlns on this element also binds prefixes used before it in the tag.
    for (let i = 0; i < pairs.length; i += 2) {
      const name = pairs[i]!;
      if (!name.startsWith('xmlns')) continue;
      const prefix = name.slice(6);
      if (RELATIONSHIP_NAMESPACES.has(decodeEntities(pairs[i + 1]!)) && !this.relPrefixes.has(prefix)) {
        this.relPrefixes.add(prefix);
        this.attrKeys.clear();
      }
    }
    let attrs: Record<string, string> | undefined;
    for (let i = 0; i < pairs.length; i += 2) {
      const key = this.attrKey(pairs[i]!);
      if (!key) continue;
      let value = pairs[i + 1]!;
      if (value.indexOf('&') >= 0) value = decodeEntities(value);
      else if (value.length <= INTERN_MAX) {
        const known = this.values.get(value);
        // Kept once each; 100,000 shapes' own ids and offsets would fill the table, so it stops growing.
        if (known !== undefined) value = known;
        else if (this.values.size < INTERNED_MAX) this.values.set(value, (value = ownString(value)));
      }
      (attrs ??= {})[key] = value;
    }
    // Most OOXML elements are attribute-less (<w:b/>): they share a frozen empty object.
    if (attrs) el.attrs = attrs;
  }

  private attrKey(name: string): string {
    let key = this.attrKeys.get(name);
    if (key !== undefined) return key;
    const colon = name.indexOf(':');
    const prefix = colon < 0 ? '' : name.slice(0, colon);
    const local = name.slice(colon + 1);
    // Namespace declarations are not attributes; revision-session ids and Word 2010 paragraph ids are
    // on nearly every paragraph and run and mean nothing to a reader: skipping them saves much memory.
    if (name.startsWith('xmlns') || IGNORED_ATTRS.some((p) => name.startsWith(p))) key = '';
    else if (colon < 0) key = name;
    else if (this.relPrefixes.has(prefix)) key = 'r:' + local;
    else if (prefix === 'xml') key = 'xml:' + local;
    else key = local;
    this.attrKeys.set(name, (key = ownString(key)));
    return key;
  }

  /** Close open element j: its children leave `pending`, whitespace dropped if it has element children. */
  private close(j: number): void {
    const el = this.open[j]!;
    const start = this.openStart[j]!;
    const flags = this.openFlags[j]!;
    const pending = this.pending;
    if (pending.length > start) {
      const kids = pending.slice(start);
      el.children = flags === (HAS_ELEMENT | HAS_BLANK) ? kids.filter((k) => typeof k !== 'string' || !isWhitespace(k)) : kids;
      // pop(), not a length assignment: V8 runs that as a slow builtin, per element.
      while (pending.length > start) pending.pop();
    }
    while (this.open.length > j) {
      this.open.pop();
      this.openStart.pop();
      this.openFlags.pop();
    }
    if (this.stream) this.handOver(el, j);
  }

  /** Give a complete element at `depth` to the stream when it asks for it; unless kept, it leaves the tree (it is the last pending node). */
  private handOver(el: XmlElement, depth: number): void {
    const stream = this.stream!;
    if (depth === stream.depth) {
      if (!stream.element(el, this.open[depth - 1]!)) this.pending.pop();
    } else if (depth > stream.depth && stream.deeper && !stream.deeper(el, depth)) this.pending.pop();
  }
}

/** A string that is not a slice of another (V8 slices strings of 13 characters or more; a short one is copied already). */
const ownString = (s: string): string => (s.length < 13 ? s : (' ' + s).slice(1));
const HAS_ELEMENT = 1;
const HAS_BLANK = 2;
/** A character that ends an element or attribute name: whitespace, '/' or '>' (NaN past the end counts too). */
const isNameEnd = (c: number): boolean => c === 32 || c === 62 || c === 47 || c === 9 || c === 10 || c === 13 || c !== c;
const LOOSE_ATTRIBUTE = /([^\s=/>]+)\s*=\s*("([^"]*)"|'([^']*)')/g;

/** Attributes of a tag the sticky regexes could not follow (stray tokens, unquoted values): skip the junk. */
function looseAttributes(rest: string, pairs: string[]): void {
  LOOSE_ATTRIBUTE.lastIndex = 0;
  for (let m: RegExpExecArray | null; (m = LOOSE_ATTRIBUTE.exec(rest)); ) pairs.push(m[1]!, m[3] ?? m[4] ?? '');
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
