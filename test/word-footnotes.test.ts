import { describe, expect, it } from 'vitest';
import { loadMupdf } from '../src/pdf/mupdf';
import { bundledFonts } from '../src/fonts/bundled';
import { renderWordDocument } from '../src/convert/word/layout/render';
import type { Block, Paragraph, RunStyle, WordDocument } from '../src/convert/word/model/index';

const style: RunStyle = { font: 'Times New Roman', size: 12 };
const page = { width: 595, height: 842, marginTop: 72, marginRight: 72, marginBottom: 72, marginLeft: 72, header: 36, footer: 36 };

/** Words unique in the whole document, some opening with a bracket (MuPDF may break a line before one). */
const words = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => (i % 7 === 3 ? `(${prefix}w${i}` : `${prefix}w${i}`));

/**
 * 60 justified paragraphs; every third calls a footnote at its end (every ninth a long one), so
 * pages break inside paragraphs and notes of different heights share pages.
 */
function document(): { model: WordDocument; bodyWords: string[]; noteWords: Map<string, string[]> } {
  const notes = new Map<string, Block[]>();
  const noteWords = new Map<string, string[]>();
  const bodyWords: string[] = [];
  const blocks: Paragraph[] = Array.from({ length: 60 }, (_, p) => {
    const text = words(`p${p}`, 45 + (p % 4) * 20);
    bodyWords.push(...text);
    const inlines: Paragraph['inlines'] = [{ kind: 'text', text: text.join(' '), style }];
    if (p % 3 === 1) {
      const id = `n${p}`;
      const body = words(`n${p}`, p % 9 === 1 ? 60 : 8);
      noteWords.set(id, body);
      notes.set(id, [{ kind: 'paragraph', props: {}, inlines: [{ kind: 'text', text: `${notes.size + 1} ${body.join(' ')}`, style: { ...style, size: 10 } }] }]);
      inlines.push({ kind: 'noteRef', id, label: String(notes.size), style });
    }
    return { kind: 'paragraph', props: { align: 'justify', firstLine: 18, spaceAfter: 6 }, inlines };
  });
  const model: WordDocument = { sections: [{ page, headers: {}, footers: {}, blocks }], notes, defaultFont: 'Times New Roman', defaultSize: 12 };
  return { model, bodyWords, noteWords };
}

interface Word {
  text: string;
  page: number;
  y: number;
  bottom: number;
}

async function renderedWords(model: WordDocument, ownLayout: boolean): Promise<Word[]> {
  const mupdf = await loadMupdf();
  const pdf = mupdf.Document.openDocument(renderWordDocument(model, mupdf, bundledFonts, { ownLayout }), 'application/pdf');
  try {
    const out: Word[] = [];
    for (let i = 0; i < pdf.countPages(); i++) {
      const p = pdf.loadPage(i);
      const json = JSON.parse(p.toStructuredText('preserve-whitespace').asJSON()) as { blocks: { lines?: { text: string; bbox: { y: number; h: number } }[] }[] };
      p.destroy();
      for (const line of json.blocks.flatMap((b) => b.lines ?? [])) for (const text of line.text.split(/\s+/).filter(Boolean)) out.push({ text, page: i, y: line.bbox.y, bottom: line.bbox.y + line.bbox.h });
    }
    return out;
  } finally {
    pdf.destroy();
  }
}

// Paged by layout's own engine (src/layout/) where a stretch is plain paragraphs, and by MuPDF's HTML engine (footnote-pages.ts) where it is not.
describe.each([
  ['our own pager', true],
  ["MuPDF's HTML engine", false],
])('Word footnotes, %s', (_, ownLayout) => {
  it('go to the foot of the page that calls them, below its text, and no word of text or note is lost or doubled', async () => {
    const { model, bodyWords, noteWords } = document();
    const rendered = await renderedWords(model, ownLayout);
    const count = new Map<string, number>();
    for (const w of rendered) count.set(w.text, (count.get(w.text) ?? 0) + 1);
    const at = new Map(rendered.map((w) => [w.text, w]));
    // A word followed by its note's label is extracted with it ("p1w44" + "1"): match on the prefix.
    const find = (word: string) => at.get(word) ?? rendered.find((w) => w.text.startsWith(word) && /^\d+$/.test(w.text.slice(word.length)));
    const missing = [...bodyWords, ...[...noteWords.values()].flat()].filter((w) => !find(w));
    expect(missing).toEqual([]);
    const doubled = [...bodyWords, ...[...noteWords.values()].flat()].filter((w) => (count.get(w) ?? 0) > 1);
    expect(doubled).toEqual([]);

    const pages = Math.max(...rendered.map((w) => w.page)) + 1;
    expect(pages).toBeGreaterThan(8);
    let checked = 0;
    for (const [id, body] of noteWords) {
      const p = Number(id.slice(1));
      // The reference follows the paragraph's last word.
      const call = find(words(`p${p}`, 45 + (p % 4) * 20).at(-1)!)!;
      const first = find(body[0]!)!;
      const last = find(body.at(-1)!)!;
      // On the page that calls it (a note too long for what is left may go on at the next page's foot).
      expect(first.page).toBe(call.page);
      // Below every line of text on that page, and within the bottom margin.
      const textBottom = Math.max(...rendered.filter((w) => w.page === call.page && /^\(?p\d+w/.test(w.text)).map((w) => w.bottom));
      expect(first.y).toBeGreaterThan(textBottom);
      expect(last.bottom).toBeLessThanOrEqual(page.height - page.marginBottom + 1);
      checked++;
    }
    expect(checked).toBe(20);
  });

  it('a heading kept with the next paragraph that would end a page goes to the next page with it, as elsewhere', async () => {
    // Single-line fillers, a heading, then a paragraph with a note: the filler count that leaves the
    // heading as the first page's last line, found by laying it out without the keep.
    const note = new Map<string, Block[]>([['n1', [{ kind: 'paragraph', props: {}, inlines: [{ kind: 'text', text: 'Note text', style }] }]]]);
    const model = (fillers: number, keepNext: boolean): WordDocument => ({
      sections: [{ page, headers: {}, footers: {}, blocks: [
        ...Array.from({ length: fillers }, (_, i): Paragraph => ({ kind: 'paragraph', props: {}, inlines: [{ kind: 'text', text: `Filler${i}`, style }] })),
        { kind: 'paragraph', props: { keepNext }, inlines: [{ kind: 'text', text: 'KeptHeading', style }] },
        { kind: 'paragraph', props: {}, inlines: [{ kind: 'text', text: `Following ${words('f', 60).join(' ')}`, style }, { kind: 'noteRef', id: 'n1', label: '1', style }] },
      ] }],
      notes: note,
      defaultFont: 'Times New Roman',
      defaultSize: 12,
    });
    let fillers = 0;
    for (let n = 40; n < 60 && !fillers; n++) {
      const plain = await renderedWords(model(n, false), ownLayout);
      if (plain.find((w) => w.text === 'KeptHeading')!.page === 0 && plain.find((w) => w.text === 'Following')!.page === 1) fillers = n;
    }
    expect(fillers).toBeGreaterThan(0);
    const held = await renderedWords(model(fillers, true), ownLayout);
    const heading = held.find((w) => w.text === 'KeptHeading')!;
    const following = held.find((w) => w.text === 'Following')!;
    expect(heading.page).toBe(1);
    expect(following.page).toBe(1);
  });

  it('a page that ends in a paragraph of one repeated word keeps each of its words once', async () => {
    // Between two marked words, the word a page's end falls before is told by the next page's first
    // line; here every word reads the same, so it cannot be, and the paragraph is laid out again with
    // every word marked. A word lost or doubled at a page's end changes the count.
    const notes = new Map<string, Block[]>([['n0', [{ kind: 'paragraph', props: {}, inlines: [{ kind: 'text', text: '1 nw0 nw1', style }] }]]]);
    const counts = [2400, 1100, 2600];
    const blocks: Paragraph[] = counts.map((n, p) => ({
      kind: 'paragraph',
      props: { align: p === 1 ? 'justify' : undefined, spaceAfter: 6 },
      inlines: [{ kind: 'text', text: Array.from({ length: n }, () => 'ab').join(' '), style }, ...(p === 0 ? [{ kind: 'noteRef' as const, id: 'n0', label: '1', style }] : [])],
    }));
    const model: WordDocument = { sections: [{ page, headers: {}, footers: {}, blocks }], notes, defaultFont: 'Times New Roman', defaultSize: 12 };
    const rendered = await renderedWords(model, ownLayout);
    expect(Math.max(...rendered.map((w) => w.page))).toBeGreaterThan(2);
    expect(rendered.filter((w) => /^ab1?$/.test(w.text)).length).toBe(counts.reduce((a, b) => a + b, 0));
    expect(rendered.filter((w) => w.text === 'nw1').length).toBe(1);
  });

  it('text boxes in a stretch with notes keep all their paragraphs, also where a page ends near them', async () => {
    // Each third paragraph holds a text box of four paragraphs: some land where a page ends.
    // (Parsed as HTML5, the box's <div> closed its <p>, and a box at a page's end was lost.)
    const notes = new Map<string, Block[]>([['n0', [{ kind: 'paragraph', props: {}, inlines: [{ kind: 'text', text: '* nw0 nw1', style }] }]]]);
    const expected: string[] = [];
    const boxes: string[][] = [];
    const blocks: Paragraph[] = Array.from({ length: 40 }, (_, p) => {
      const text = words(`p${p}`, 30);
      expected.push(...text);
      const inlines: Paragraph['inlines'] = [{ kind: 'text', text: text.join(' '), style }];
      if (p === 0) inlines.push({ kind: 'noteRef', id: 'n0', label: '*', style });
      if (p % 3 === 2) {
        const box = Array.from({ length: 4 }, (_, i) => words(`b${p}x${i}`, 6));
        expected.push(...box.flat());
        boxes.push(box.flat());
        inlines.push({ kind: 'textbox', width: 300, blocks: box.map((t): Paragraph => ({ kind: 'paragraph', props: {}, inlines: [{ kind: 'text', text: t.join(' '), style }] })) });
      }
      return { kind: 'paragraph', props: { spaceAfter: 6 }, inlines };
    });
    const model: WordDocument = { sections: [{ page, headers: {}, footers: {}, blocks }], notes, defaultFont: 'Times New Roman', defaultSize: 12 };
    const rendered = await renderedWords(model, ownLayout);
    const count = new Map<string, number>();
    for (const w of rendered) count.set(w.text.replace(/\*$/, ''), (count.get(w.text.replace(/\*$/, '')) ?? 0) + 1);
    expect(Math.max(...rendered.map((w) => w.page))).toBeGreaterThan(2);
    expect(expected.filter((w) => count.get(w) !== 1)).toEqual([]);
    // A box is not cut by a page's end: it goes to the next page with its paragraph.
    const pageOf = new Map(rendered.map((w) => [w.text, w.page]));
    const cut = boxes.filter((box) => new Set(box.map((w) => pageOf.get(w))).size !== 1);
    expect(cut).toEqual([]);
  });
});
