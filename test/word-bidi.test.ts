import { describe, expect, it } from 'vitest';
import { loadMupdf } from '../src/pdf/mupdf';
import { bundledFonts } from '../src/fonts/bundled';
import { renderWordDocument } from '../src/convert/word/layout/render';
import { laysOutItself } from '../src/convert/word/blocks/eligible';
import { shapeArabic } from '../src/layout/text/arabic-shaping';
import { bidiLevels, visualOrder } from '../src/layout/text/bidi';
import type { Block, Paragraph, RunStyle, WordDocument } from '../src/convert/word/model/index';

// Right-to-left text in layout's own engine (src/layout/): Arabic letters in their contextual forms, the
// Unicode Bidirectional Algorithm's levels, and lines drawn as MuPDF's HTML engine (HarfBuzz and
// its own bidi) draws them.

const hex = (s: string) => Array.from(s, (ch) => ch.codePointAt(0)!.toString(16));

describe('Arabic shaping and bidirectional levels', () => {
  it('gives Arabic letters their initial, medial, final and isolated forms, across runs and through marks', () => {
    // بسم: beh initial, seen medial, meem final.
    expect(hex(shapeArabic(['بسم'])[0]!)).toEqual(['fe91', 'feb4', 'fee2']);
    // The same word cut into runs joins as one.
    expect(shapeArabic(['ب', 'سم']).map(hex)).toEqual([['fe91'], ['feb4', 'fee2']]);
    // A mark (fatha) between two letters does not break their joining, and stays as it is.
    expect(hex(shapeArabic(['بَس'])[0]!)).toEqual(['fe91', '64e', 'feb2']);
    // Alef joins only the letter before it: the letter after it starts again (دار: dal isolated, alef isolated, reh isolated).
    expect(hex(shapeArabic(['دار'])[0]!)).toEqual(['fea9', 'fe8d', 'fead']);
    // Lam with alef is one ligature (final after a joining letter).
    expect(hex(shapeArabic(['لا'])[0]!)).toEqual(['fefb']);
    expect(hex(shapeArabic(['سلام'])[0]!)).toEqual(['feb3', 'fefc', 'fee1']);
    // Persian: the zero-width non-joiner keeps می from شود (farsi yeh final, then sheen initial).
    expect(hex(shapeArabic(['می\u200cشود'])[0]!)).toEqual(['fee3', 'fbfd', '200c', 'feb7', 'feee', 'fea9']);
    // Text without Arabic letters comes back as it is.
    expect(shapeArabic(['plain', 'text'])).toEqual(['plain', 'text']);
  });

  it('levels right-to-left letters odd and numbers and left-to-right words even, neutrals by their neighbours', () => {
    // In a right-to-left paragraph: Persian (1), the Latin word, the number after it and the space between them (2), the spaces at Persian (1).
    const text = 'سلام PDF 12 دنیا';
    expect(Array.from(bidiLevels(text, true))).toEqual([1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1]);
    // In a left-to-right paragraph: the Arabic word is at level 1, a number after it at 2.
    expect(Array.from(bidiLevels('ab سلام 12', false))).toEqual([0, 0, 0, 1, 1, 1, 1, 1, 2, 2]);
    // Drawn reversed, brackets mirrored, each mark before the letter it sits on.
    expect(visualOrder('(بَس)')).toBe('(س\u064eب)');
  });
});

const style: RunStyle = { font: 'Times New Roman', size: 12 };
const page = { width: 612, height: 792, marginTop: 72, marginRight: 72, marginBottom: 72, marginLeft: 72, header: 36, footer: 36 };
const doc = (blocks: Block[]): WordDocument => ({ sections: [{ page, headers: {}, footers: {}, blocks }], notes: new Map(), defaultFont: 'Times New Roman', defaultSize: 12 });
const rtl = (text: string, props: Paragraph['props'] = {}): Paragraph => ({ kind: 'paragraph', props: { bidi: true, ...props }, inlines: [{ kind: 'text', text, style }] });

interface Word {
  text: string;
  x0: number;
  x1: number;
  y: number;
}

const RTL = /[\u0590-\u08ff]/;

/**
 * The words of the first page as drawn, left to right, split where the glyphs leave a gap (our
 * engine and MuPDF write spaces as gaps); each word's text as typed (a right-to-left word's
 * glyphs turned back), read through the PDF's ToUnicode maps.
 */
async function words(model: WordDocument, ownLayout: boolean): Promise<Word[]> {
  const mupdf = await loadMupdf();
  const pdf = mupdf.Document.openDocument(renderWordDocument(model, mupdf, bundledFonts, { ownLayout }), 'application/pdf');
  try {
    const chars: { c: string; x0: number; x1: number; y: number }[] = [];
    pdf.loadPage(0).toStructuredText('preserve-whitespace').walk({
      onChar(c: string, origin: number[], _font: unknown, _size: number, quad: number[]) {
        // By baseline: Latin and Persian faces' glyph boxes start at different heights.
        if (c.trim()) chars.push({ c, x0: Math.min(quad[0]!, quad[4]!), x1: Math.max(quad[2]!, quad[6]!), y: Math.round(origin[1]!) });
      },
    } as never);
    const out: Word[] = [];
    const lines = [...new Set(chars.map((ch) => ch.y))].sort((a, b) => a - b);
    for (const y of lines) {
      let word: Word | undefined;
      for (const ch of chars.filter((c) => Math.abs(c.y - y) < 2).sort((a, b) => a.x0 - b.x0)) {
        if (!word || ch.x0 - word.x1 > 1.5) out.push((word = { text: '', x0: ch.x0, x1: ch.x1, y }));
        word.text += ch.c;
        word.x1 = Math.max(word.x1, ch.x1);
      }
    }
    for (const w of out) if (RTL.test(w.text)) w.text = [...w.text].reverse().join('');
    return out;
  } finally {
    pdf.destroy();
  }
}

describe('Right-to-left paragraphs in our own engine', () => {
  it('lays a Persian paragraph out from the right, each word within a point of where MuPDF’s HTML engine (HarfBuzz) puts it', async () => {
    const text = 'این یک متن فارسی است که باید از راست به چپ خوانده شود تا خط به پایان برسد و خط دوم آغاز شود و در آن کلمات پشت سر هم بیایند.';
    const blocks: Block[] = [rtl(text), rtl('کوتاه', { align: 'center' }), rtl('از چپ', { align: 'right' })];
    const model = doc(blocks);
    expect(laysOutItself(blocks, model)).toBe(true);
    const own = await words(model, true);
    const html = await words(model, false);
    // The letters read back as typed: the presentation forms drawn map back to their letters.
    expect(own.map((w) => w.text).join(' ')).not.toMatch(/[\ufb50-\ufdff\ufe70-\ufeff]/);
    // The first line starts at the right margin (540): its first word, این, is the rightmost.
    const firstLine = own.filter((w) => w.y === own[0]!.y);
    expect(firstLine.reduce((a, b) => (b.x1 > a.x1 ? b : a)).text).toBe('این');
    expect(Math.max(...firstLine.map((w) => w.x1))).toBeCloseTo(540, 0);
    // The paragraph's two lines, the centred one and the one at the end (left) margin.
    expect(new Set(own.map((w) => w.y)).size).toBe(4);
    expect(Math.min(...own.filter((w) => w.y === own.at(-1)!.y).map((w) => w.x0))).toBeCloseTo(72, 0);
    // Every word of the first line, and the short paragraphs, where HarfBuzz put them. (MuPDF does not
    // break this paragraph's lines: it runs the first past the page's left edge and loses the rest.)
    for (const w of [...firstLine, ...own.filter((o) => o.text === 'کوتاه' || o.text === 'چپ' && o.x0 < 100)]) {
      const there = html.find((h) => h.text === w.text && Math.abs(h.x0 - w.x0) < 1);
      expect(there, `${w.text} at ${w.x0.toFixed(1)}`).toBeDefined();
    }
  });

  it('reads a Latin word and a number in a Persian line left to right, in their place, and fills the line to the margin', async () => {
    // MuPDF's HTML engine ends a line after a left-to-right stretch far short of the margin, or runs it past the page's edge: ours fills it.
    const text = 'این یک متن فارسی است که در آن کلمه PDF و عدد 2024 آمده است و باید از راست به چپ خوانده شود تا خط به پایان برسد.';
    const own = await words(doc([rtl(text)]), true);
    const texts = own.map((w) => w.text);
    expect(texts).toContain('PDF');
    expect(texts).toContain('2024');
    const at = (t: string) => own.find((w) => w.text === t)!;
    // Read from the right: کلمه, PDF, و, عدد, 2024.
    expect(at('کلمه').x0).toBeGreaterThan(at('PDF').x1);
    expect(at('PDF').x0).toBeGreaterThan(at('عدد').x1);
    expect(at('عدد').x0).toBeGreaterThan(at('2024').x1);
    for (const w of own) expect(w.x0 >= 71 && w.x1 <= 541, `${w.text} at ${w.x0.toFixed(1)}–${w.x1.toFixed(1)}`).toBe(true);
    const first = own.filter((w) => w.y === own[0]!.y);
    expect(Math.min(...first.map((w) => w.x0))).toBeLessThan(72 + 40); // the first line runs on to the left margin (less than a word short)
  });

  it('lays a right-to-left table out mirrored: its first column at the right margin, as the HTML path does', async () => {
    const cell = (text: string) => ({ blocks: [{ kind: 'paragraph', props: {}, inlines: [{ kind: 'text', text, style }] } as Paragraph], gridSpan: 1, borders: {} });
    const table: Block = { kind: 'table', grid: [100, 200], bidiVisual: true, rows: [{ cells: [cell('First'), cell('Second')] }] };
    const model = doc([table]);
    expect(laysOutItself([table], model)).toBe(true);
    for (const own of [true, false]) {
      const placed = await words(model, own);
      const at = (t: string) => placed.find((w) => w.text === t)!;
      // The first cell is the rightmost, 100 pt wide, ending at the margin: its text at its left plus the 5.4 pt cell margin.
      expect(at('First').x0).toBeCloseTo(540 - 100 + 5.4, 0);
      expect(at('Second').x0).toBeCloseTo(540 - 300 + 5.4, 0);
    }
  });
});
