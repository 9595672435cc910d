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
  const stack: unknown[] = [document];
  while (stack.length) {
    const value = stack.pop();
    if (typeof value !== 'object' || value === null || ArrayBuffer.isView(value) || value instanceof ArrayBuffer || seen.has(value)) continue;
    seen.add(value);
    if (value instanceof Map) {
      stack.push(...value.values());
      continue;
    }
    for (const [key, field] of Object.entries(value)) {
      if (typeof field !== 'string') {
        if (typeof field === 'object' && field !== null) stack.push(field);
        continue;
      }
      if (FONT_KEY.test(key)) names.add(field);
      if (key === 'contentType' && METAFILE.test(field)) unseenNames = true;
      addCodePoints(field, codePoints);
    }
  }
  return { names, codePoints, unseenNames };
}

function addCodePoints(text: string, into: Set<number>): void {
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) continue;
    const cp = text.codePointAt(i)!;
    into.add(cp);
    if (cp > 0xffff) i++;
  }
}
