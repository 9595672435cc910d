/** The ids on a paragraph's words (PageMarks) by which the footnote pagination finds where a page's text ends. */
import { JOINING } from '../../../lib/complex-script';
import type { PageMarks } from './inline-context';

/** A paragraph's words get an id every this many (PageMarks): the text of the next page's first line tells the word between two. */
export const MARK_EVERY = 16;

/**
 * A text run with its words listed (PageMarks), some in a span of their own id: the paragraph's
 * first and last word, every MARK_EVERY-th, and all in block `marks.fine`. A word ends after
 * spaces, and after a hyphen or soft hyphen (where MuPDF may break a line too).
 * Where a line may break before a word's first character (an opening bracket), MuPDF starts the
 * word with a break that stays on the line before, and an id on it would tell that line's page:
 * so a word gets its id from its second character (seen on words after a run of justified text
 * too, not only after brackets). A word is cut from the text with the spaces after it, so
 * spaces are written as without marks.
 */
export function markedWords(text: string, written: (t: string) => string, marks: PageMarks, inline: number, lastText: boolean): string {
  let html = '';
  // Unmarked words are written together, a run at a time (each writing splits the text by the faces that draw it).
  let plain = '';
  const flush = () => {
    if (plain) html += written(plain);
    plain = '';
  };
  const words = [...text.matchAll(/^\s+|[^\s\u00ad\u2010-]*[\u00ad\u2010-]*\s*/g)].filter((m) => m[0]);
  const lastWord = lastText ? words.findLastIndex((m) => !/^\s/.test(m[0])) : -1;
  words.forEach((m, k) => {
    const word = m[0];
    if (/^\s/.test(word)) {
      plain += word;
      return;
    }
    const list = marks.words;
    marks.blockWords = list.at(-1)?.block === marks.block ? (marks.blockWords ?? 0) + 1 : 0;
    const marked = marks.fine === marks.block || marks.blockWords % MARK_EVERY === 0 || k === lastWord;
    list.push({ block: marks.block, inline, offset: m.index, marked });
    if (!marked) {
      plain += word;
      return;
    }
    flush();
    // Letters that join their neighbours (Arabic, Syriac, N'Ko, Mongolian) stay together: split, they would lose their forms.
    const first = word.trimEnd().length > 1 && !JOINING.test(word.slice(0, 2)) ? [...word][0]! : '';
    html += `${first ? written(first) : ''}<span id="w${list.length - 1}">${written(word.slice(first.length))}</span>`;
  });
  flush();
  return html;
}
