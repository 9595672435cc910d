/**
 * OMML equations (m:oMath) as a line of text: MuPDF has no math layout, so an equation is written
 * linearly, the way Word's own linear format reads, with what a line of text can keep: scripts
 * raised and lowered (a²+b²=c², xₙ), fractions as num/den (parenthesised when either side is more
 * than one term), radicals as √, delimiters with their characters, n-ary operators (∑, ∫) with
 * their limits as scripts. Its words and numbers stay text, found by search.
 */
import type { RunStyle } from '../../model/index';
import { attr, child, elements, textOf, type XmlElement } from '../../../../codecs/xml';

type Script = RunStyle['vertAlign'];
/** Emits text in the equation's run style, raised or lowered. */
type Emit = (text: string, script: Script) => void;

/** Nesting followed at most this deep (a damaged file could nest without end). */
const MOST_NESTED = 40;

/** The value of a property element of `el`'s properties (m:xxxPr/m:name/@m:val), if any. */
const prop = (el: XmlElement, pr: string, name: string): string | undefined => attr(child(child(el, pr), name), 'val');

/** Whether an argument is more than a single run of text (it needs parentheses to stay one term). */
function compound(arg: XmlElement | undefined): boolean {
  const parts = elements(arg).filter((e) => !e.name.endsWith('Pr'));
  if (parts.length !== 1) return parts.length > 1;
  const only = parts[0]!;
  if (only.name !== 'r') return only.name !== 'd' && only.name !== 'sSup' && only.name !== 'sSub';
  return /[+\-−=±×·/ ]/.test(textOf(only).trim());
}

/** Writes an equation (m:oMath, m:oMathPara) through `emit`. */
export function writeMath(el: XmlElement, emit: Emit): void {
  walk(el, undefined, 0, emit);
}

function walk(e: XmlElement | undefined, script: Script, depth: number, emit: Emit): void {
  if (!e || depth > MOST_NESTED) return;
  for (const c of elements(e)) {
    const write = WRITERS.get(c.name);
    const part: MathPart = {
      el: c,
      script,
      emit,
      sub: (name, s = script) => walk(child(c, name), s, depth + 1, emit),
      inner: (x) => walk(x, script, depth + 1, emit),
    };
    if (write) write(part);
    // Bars, accents, boxes, limits, arrays, matrices, phantoms: their parts in order. Properties are not shown.
    else if (!c.name.endsWith('Pr')) part.inner(c);
  }
}

/** An element of the equation being written, with the means to write its parts one level deeper. */
interface MathPart {
  el: XmlElement;
  script: Script;
  emit: Emit;
  /** Writes the child element `name`, raised or lowered as `s` says (else as this element is). */
  sub(name: string, s?: Script): void;
  /** Writes the given element's parts in this element's script. */
  inner(e: XmlElement): void;
}

/** An argument, parenthesised when it is more than one term. */
function writeTerm({ el, script, emit, sub }: MathPart, name: string): void {
  const paren = compound(child(el, name));
  if (paren) emit('(', script);
  sub(name);
  if (paren) emit(')', script);
}

/** How each OMML element is written linearly; any other element writes its parts in order. */
const WRITERS = new Map<string, (part: MathPart) => void>([
  ['r', ({ el, script, emit }) => {
    for (const t of elements(el)) if (t.name === 't') emit(textOf(t), script);
  }],
  ['sSup', ({ sub }) => (sub('e'), sub('sup', 'superscript'))],
  ['sSub', ({ sub }) => (sub('e'), sub('sub', 'subscript'))],
  ['sSubSup', ({ sub }) => (sub('e'), sub('sub', 'subscript'), sub('sup', 'superscript'))],
  ['sPre', ({ sub }) => (sub('sub', 'subscript'), sub('sup', 'superscript'), sub('e'))],
  ['f', (part) => {
    // A fraction without a bar (a binomial coefficient) is its two parts side by side.
    const bar = prop(part.el, 'fPr', 'type') !== 'noBar';
    writeTerm(part, 'num');
    part.emit(bar ? '/' : ' ', part.script);
    writeTerm(part, 'den');
  }],
  ['rad', (part) => {
    const degree = child(part.el, 'deg');
    if (degree && elements(degree).some((d) => !d.name.endsWith('Pr'))) part.sub('deg', 'superscript');
    part.emit('√', part.script);
    writeTerm(part, 'e');
  }],
  ['d', ({ el, script, emit, inner }) => {
    const open = prop(el, 'dPr', 'begChr') ?? '(';
    const close = prop(el, 'dPr', 'endChr') ?? ')';
    const separator = prop(el, 'dPr', 'sepChr') ?? '|';
    emit(open, script);
    elements(el)
      .filter((x) => x.name === 'e')
      .forEach((x, i) => {
        if (i) emit(separator, script);
        inner(x);
      });
    emit(close, script);
  }],
  ['nary', ({ el, script, emit, sub }) => {
    emit(prop(el, 'naryPr', 'chr') ?? '∫', script);
    sub('sub', 'subscript');
    sub('sup', 'superscript');
    sub('e');
  }],
  ['func', ({ script, emit, sub }) => {
    sub('fName');
    emit(' ', script);
    sub('e');
  }],
]);
