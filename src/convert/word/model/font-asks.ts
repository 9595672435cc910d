/**
 * What a Word document asks of the fonts, read off its model before layout: the font names its
 * runs, list labels, WordArt and charts are written in, and the characters it holds. The faces
 * they need are loaded before the synchronous layout starts (fonts/face-needs.ts). The model is
 * walked whole, whatever its shape: a property named like a font is a font name, and every
 * string's characters count (a colour or a style name adds at most a face nobody draws with).
 */
import type { FontAsks } from '../../../fonts/face-needs';
import type { WordDocument } from './index';

const FONT_KEY = /^font/i;
/** Pictures whose text names its own fonts (EMF/WMF records), which the model does not list. */
const METAFILE = /(^|[/.-])(x-)?(emf|wmf)$/i;

export function fontAsksOf(document: WordDocument): FontAsks {
  const names = new Set<string>([document.defaultFont]);
  const codePoints = new Set<number>();
  let unseenNames = false;
  const seen = new Set<object>();
  /** Strings already counted: a document repeats its style names, colours and words. */
  const counted = new Set<string>();
  const countString = (text: string) => {
    if (!NON_ASCII.test(text) || counted.has(text)) return;
    counted.add(text);
    addCodePoints(text, codePoints);
  };
  const stack: unknown[] = [document];
  // Arrays by index and objects by for…in, no copies of their entries: GASU's 135 pages took 100 ms
  // with Object.entries over everything.
  while (stack.length) {
    const value = stack.pop();
    if (typeof value !== 'object' || value === null || ArrayBuffer.isView(value) || value instanceof ArrayBuffer || seen.has(value)) continue;
    seen.add(value);
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const item: unknown = value[i];
        if (typeof item === 'object' && item !== null) stack.push(item);
        else if (typeof item === 'string') countString(item);
      }
      continue;
    }
    if (value instanceof Map) {
      for (const v of value.values()) stack.push(v);
      continue;
    }
    const record = value as Record<string, unknown>;
    for (const key in record) {
      const field = record[key];
      if (typeof field !== 'string') {
        if (typeof field === 'object' && field !== null) stack.push(field);
        continue;
      }
      if (FONT_KEY.test(key)) names.add(field);
      if (key === 'contentType' && METAFILE.test(field)) unseenNames = true;
      countString(field);
    }
  }
  return { names, codePoints, unseenNames };
}

const NON_ASCII = /[^\u0000-\u007f]/;

function addCodePoints(text: string, into: Set<number>): void {
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) continue;
    const cp = text.codePointAt(i)!;
    into.add(cp);
    if (cp > 0xffff) i++;
  }
}
