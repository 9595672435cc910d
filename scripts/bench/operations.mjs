// Every PDF operation of the service on the ~48 MB, 500-page bench PDF, for npm run bench: what
// each is asked, how its result is checked, and the native tool that does the same as the anchor
// (qpdf; pdftotext for text, which qpdf does not do; LibreOffice for Word).
import { countPages, pageRotation } from './generate.mjs';

const range = (from, to) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/**
 * name: what the report calls it; op: the API path; inputs: 'big' or 'big+small'; body(ids);
 * check(bytes, big): throws when the result is wrong; anchor(big, small, out): the command.
 */
export const BENCH_OPERATIONS = [
  {
    name: 'rotate',
    op: 'rotate',
    body: ([id]) => ({ file_id: id, angle: 90 }),
    check: (bytes, big) => {
      expectPages(bytes, big.pages);
      for (const i of [0, big.pages - 1]) if (pageRotation(bytes, i) !== 90) throw new Error(`page ${i + 1} is not rotated 90`);
    },
    anchor: (big, _small, out) => ['qpdf', ['--rotate=+90', big.path, out]],
  },
  {
    name: 'merge',
    op: 'merge',
    inputs: 'big+small',
    body: (ids) => ({ file_ids: ids }),
    check: (bytes, big) => expectPages(bytes, big.pages + 1),
    anchor: (big, small, out) => ['qpdf', ['--empty', '--pages', big.path, small.path, '--', out]],
  },
  {
    name: 'split every-page',
    op: 'split',
    body: ([id]) => ({ file_id: id, mode: 'every-page' }),
    check: (bytes, big) => expectZipEntries(bytes, big.pages),
    anchor: (big, _small, out) => ['qpdf', ['--split-pages', big.path, `${out}-%d.pdf`]],
  },
  {
    name: 'split half',
    op: 'split',
    body: ([id]) => ({ file_id: id, mode: 'half' }),
    check: (bytes) => expectZipEntries(bytes, 2),
    anchor: (big, _small, out) => ['qpdf', ['--split-pages=250', big.path, `${out}-%d.pdf`]],
  },
  {
    name: 'delete-pages half',
    op: 'delete-pages',
    body: ([id]) => ({ file_id: id, pages: range(1, 250) }),
    check: (bytes, big) => expectPages(bytes, big.pages - 250),
    anchor: (big, _small, out) => ['qpdf', [big.path, '--pages', big.path, '251-z', '--', out]],
  },
  {
    name: 'reorder-pages reversed',
    op: 'reorder-pages',
    body: ([id]) => ({ file_id: id, new_order: range(1, 500).reverse() }),
    check: (bytes, big) => expectPages(bytes, big.pages),
    anchor: (big, _small, out) => ['qpdf', [big.path, '--pages', big.path, 'z-1', '--', out]],
  },
  {
    name: 'extract-pages 10',
    op: 'extract-pages',
    body: ([id]) => ({ file_id: id, pages: range(241, 250) }),
    check: (bytes) => expectPages(bytes, 10),
    anchor: (big, _small, out) => ['qpdf', ['--empty', '--pages', big.path, '241-250', '--', out]],
  },
  {
    name: 'extract-pages all',
    op: 'extract-pages',
    body: ([id]) => ({ file_id: id, pages: range(1, 500) }),
    check: (bytes, big) => expectPages(bytes, big.pages),
    anchor: (big, _small, out) => ['qpdf', ['--empty', '--pages', big.path, '1-z', '--', out]],
  },
  {
    name: 'word-to-pdf photos',
    op: 'word-to-pdf',
    inputs: 'docx',
    body: ([id]) => ({ file_id: id }),
    check: (bytes) => expectPages(bytes, 20),
    anchor: (_big, _small, out, docx) => ['soffice', ['--headless', '--norestore', `-env:UserInstallation=file://${out}-profile`, '--convert-to', 'pdf', '--outdir', `${out}-dir`, docx.path]],
  },
  {
    name: 'compress medium',
    op: 'compress',
    body: ([id]) => ({ file_id: id, level: process.env.BENCH_COMPRESS_LEVEL ?? 'medium' }),
    check: (bytes, big) => expectPages(bytes, big.pages),
    anchor: (big, _small, out) => ['qpdf', ['--object-streams=generate', '--recompress-flate', big.path, out]],
  },
  {
    name: 'protect',
    op: 'protect',
    body: ([id]) => ({ file_id: id, password: 'bench' }),
    check: (bytes) => {
      if (!new TextDecoder().decode(bytes.subarray(bytes.length - 600)).includes('/Encrypt')) throw new Error('not encrypted');
    },
    anchor: (big, _small, out) => ['qpdf', ['--encrypt', 'bench', 'owner', '256', '--', big.path, out]],
  },
  {
    name: 'unlock',
    op: 'unlock',
    inputs: 'locked',
    body: ([id]) => ({ file_id: id, password: 'bench' }),
    check: (bytes, big) => expectPages(bytes, big.pages),
    anchor: (_big, _small, out, _docx, locked) => ['qpdf', ['--password=bench', '--decrypt', locked.path, out]],
  },
  {
    name: 'flatten',
    op: 'flatten',
    body: ([id]) => ({ file_id: id }),
    check: (bytes, big) => expectPages(bytes, big.pages),
    anchor: (big, _small, out) => ['qpdf', ['--flatten-annotations=all', '--generate-appearances', big.path, out]],
  },
  {
    name: 'add-page-numbers',
    op: 'add-page-numbers',
    body: ([id]) => ({ file_id: id }),
    check: (bytes, big) => expectPages(bytes, big.pages),
    anchor: (big, _small, out) => ['qpdf', [big.path, out]],
  },
  {
    name: 'watermark text',
    op: 'watermark',
    body: ([id]) => ({ file_id: id, text: 'CONFIDENTIAL' }),
    check: (bytes, big) => expectPages(bytes, big.pages),
    anchor: (big, _small, out) => ['qpdf', [big.path, out]],
  },
  {
    name: 'sign text',
    op: 'sign',
    body: ([id]) => ({ file_id: id, signature_data: 'Иван Петров' }),
    check: (bytes, big) => expectPages(bytes, big.pages),
    anchor: (big, _small, out) => ['qpdf', [big.path, out]],
  },
  {
    name: 'to-txt text',
    op: 'to-txt',
    body: ([id]) => ({ file_id: id, mode: 'text' }),
    check: (bytes, big) => expectFormFeeds(bytes, big.pages),
    anchor: (big, _small, out) => ['pdftotext', [big.path, out]],
  },
  {
    name: 'to-txt words',
    op: 'to-txt',
    body: ([id]) => ({ file_id: id, mode: 'words' }),
    check: (bytes) => {
      if (!new TextDecoder().decode(bytes.subarray(0, 64)).startsWith('page\tx0\ty0\tx1\ty1\ttext')) throw new Error('no TSV header');
    },
    anchor: (big, _small, out) => ['pdftotext', ['-bbox', big.path, out]],
  },
  // to-jpg on the first 100 pages (time per page; 300 dpi runs in steps of 40 pages). The anchor
  // renders the same pages with MuPDF's own tool to PNG (Debian's mutool 1.21 writes no JPEG).
  ...[150, 300].map((dpi) => ({
    name: `to-jpg ${dpi} dpi, 100 pages`,
    op: 'to-jpg',
    body: ([id]) => ({ file_id: id, dpi, pages: range(1, 100) }),
    check: (bytes) => expectZipEntries(bytes, 100),
    anchor: (big, _small, out) => ['mutool', ['draw', '-q', '-r', String(dpi), '-o', `${out}-%d.png`, big.path, '1-100']],
  })),
];

function expectPages(bytes, n) {
  const got = countPages(bytes);
  if (got !== n) throw new Error(`${got} pages, expected ${n}`);
}

/** A ZIP's entry count from its end-of-central-directory record. */
function expectZipEntries(bytes, n) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let eocd = bytes.length - 22;
  while (eocd >= 0 && view.getUint32(eocd, true) !== 0x06054b50) eocd--;
  if (eocd < 0) throw new Error('not a ZIP');
  const entries = view.getUint16(eocd + 10, true);
  if (entries !== n) throw new Error(`${entries} ZIP entries, expected ${n}`);
}

function expectFormFeeds(bytes, pages) {
  let feeds = 0;
  for (const b of bytes) if (b === 0x0c) feeds++;
  if (feeds < pages - 1) throw new Error(`${feeds} form feeds for ${pages} pages`);
}
