import { z } from 'zod';
import { defineSpec, type RunOf } from './define';
import { withPdf } from '../pdf/pdf';
import { checkPageBudget } from '../pdf/page-budget';

type Quad = [number, number, number, number, number, number, number, number];

const FORM_FEED = '\f';
const fixed = (n: number) => n.toFixed(2);

interface Word {
  text: string;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/**
 * Text of a page walked character by character: lines grouped into blocks, words with boxes.
 * MuPDF's structured-text coordinates already have their origin at the page's top-left.
 */
function readPage(stext: { walk(w: object): void }) {
  const blocks: string[][] = [];
  const words: Word[] = [];
  let line = '';
  let word: Word | null = null;
  const endWord = () => {
    if (word) words.push(word);
    word = null;
  };
  stext.walk({
    beginTextBlock: () => blocks.push([]),
    beginLine: () => {
      line = '';
    },
    onChar: (c: string, _origin: unknown, _font: unknown, _size: number, quad: Quad) => {
      line += c;
      if (/\s/.test(c)) return endWord();
      const xs = [quad[0], quad[2], quad[4], quad[6]];
      const ys = [quad[1], quad[3], quad[5], quad[7]];
      const box = { x0: Math.min(...xs), y0: Math.min(...ys), x1: Math.max(...xs), y1: Math.max(...ys) };
      if (!word) word = { text: c, ...box };
      else Object.assign(word, { text: word.text + c, x0: Math.min(word.x0, box.x0), y0: Math.min(word.y0, box.y0), x1: Math.max(word.x1, box.x1), y1: Math.max(word.y1, box.y1) });
    },
    endLine: () => {
      endWord();
      blocks[blocks.length - 1]?.push(line.trimEnd());
    },
  });
  return { blocks: blocks.filter((b) => b.some((l) => l.length)), words };
}

/** Text of a PDF as UTF-8: plain per page, by blocks, or words with coordinates (DECISIONS: to-txt). */
/** Pages between two emptyings of MuPDF's store (see run). */
const STORE_PAGES = 16;

export const spec = defineSpec({
  path: 'to-txt',
  type: 'pdf_to_txt',
  summary: 'Extract text: plain per page, by blocks, or words with coordinates (TSV)',
  accepts: ['pdf'],
  inputs: { kind: 'file_id' },
  params: z.object({ mode: z.enum(['text', 'blocks', 'words']).default('text') }),
  engine: 'pdf',
});

export async function run({ inputs, params, progress }: RunOf<typeof spec>) {
  return withPdf(inputs[0]!.bytes, (doc, mupdf) => {
    const count = doc.countPages();
    const pages: string[] = [];
    for (let i = 0; i < count; i++) {
      // Text is extracted by running the page: its forms and operators are budgeted first.
      checkPageBudget(doc, i, false);
      const page = doc.loadPage(i);
      const stext = page.toStructuredText('preserve-whitespace');
      try {
        if (params.mode === 'text') pages.push(stext.asText());
        else {
          const { blocks, words } = readPage(stext);
          if (params.mode === 'blocks') pages.push(blocks.map((b) => b.join('\n')).join('\n\n'));
          else pages.push(words.map((w) => [i + 1, fixed(w.x0), fixed(w.y0), fixed(w.x1), fixed(w.y1), w.text.replace(/[\t\n\r]/g, ' ')].join('\t')).join('\n'));
        }
      } finally {
        stext.destroy();
        page.destroy();
      }
      // MuPDF keeps what it decoded (fonts, images, content) in its store for pages to come:
      // emptied every few pages, the heap stays a few pages deep instead of growing with the
      // file (a 48 MB, 500-page PDF: 58 MB of heap against 23). After every page it was 7x slower.
      if ((i + 1) % STORE_PAGES === 0) mupdf.emptyStore();
      progress(i + 1, count);
    }
    const text = params.mode === 'words' ? `page\tx0\ty0\tx1\ty1\ttext\n${pages.filter(Boolean).join('\n')}\n` : pages.join(FORM_FEED);
    return { chunks: [new TextEncoder().encode(text)], ext: 'txt', contentType: 'text/plain; charset=utf-8' };
  });
}

