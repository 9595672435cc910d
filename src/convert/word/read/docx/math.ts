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
  const walk = (e: XmlElement | undefined, script: Script, depth: number): void => {
    if (!e || depth > MOST_NESTED) return;
    for (const c of elements(e)) {
      const sub = (name: string, s: Script = script) => walk(child(c, name), s, depth + 1);
      switch (c.name) {
        case 'r':
          for (const t of elements(c)) if (t.name === 't') emit(textOf(t), script);
          break;
        case 'sSup':
          sub('e');
          sub('sup', 'superscript');
          break;
        case 'sSub':
          sub('e');
          sub('sub', 'subscript');
          break;
        case 'sSubSup':
          sub('e');
          sub('sub', 'subscript');
          sub('sup', 'superscript');
          break;
        case 'sPre':
          sub('sub', 'subscript');
          sub('sup', 'superscript');
          sub('e');
          break;
        case 'f': {
          const num = child(c, 'num');
          const den = child(c, 'den');
          const wrap = (part: XmlElement | undefined, name: string) => {
            const paren = compound(part);
            if (paren) emit('(', script);
            sub(name);
            if (paren) emit(')', script);
          };
          // A fraction without a bar (a binomial coefficient) is its two parts side by side.
          const bar = prop(c, 'fPr', 'type') !== 'noBar';
          wrap(num, 'num');
          emit(bar ? '/' : ' ', script);
          wrap(den, 'den');
          break;
        }
        case 'rad': {
          const degree = child(c, 'deg');
          if (degree && elements(degree).some((d) => !d.name.endsWith('Pr'))) sub('deg', 'superscript');
          emit('√', script);
          const paren = compound(child(c, 'e'));
          if (paren) emit('(', script);
          sub('e');
          if (paren) emit(')', script);
          break;
        }
        case 'd': {
          const open = prop(c, 'dPr', 'begChr') ?? '(';
          const close = prop(c, 'dPr', 'endChr') ?? ')';
          const separator = prop(c, 'dPr', 'sepChr') ?? '|';
          emit(open, script);
          elements(c)
            .filter((x) => x.name === 'e')
            .forEach((x, i) => {
              if (i) emit(separator, script);
              walk(x, script, depth + 1);
            });
          emit(close, script);
          break;
        }
        case 'nary': {
          emit(prop(c, 'naryPr', 'chr') ?? '∫', script);
          sub('sub', 'subscript');
          sub('sup', 'superscript');
          sub('e');
          break;
        }
        case 'func':
          sub('fName');
          emit(' ', script);
          sub('e');
          break;
        default:
          // Bars, accents, boxes, limits, arrays, matrices, phantoms: their parts in order. Properties are not shown.
          if (!c.name.endsWith('Pr')) walk(c, script, depth + 1);
      }
    }
  };
  walk(el, undefined, 0);
}
