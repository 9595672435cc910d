#!/usr/bin/env node
// node scripts/lo-line-pitch.mjs [--out DIR]: LibreOffice's single line pitch for Word documents,
// beside ours. Writes a 40-line DOCX per face and size (Times New Roman, Arial, Calibri, Cambria,
// Courier New, DejaVu Sans at 8-16 pt), has soffice render them all in one run, and reads each
// PDF's baselines with MuPDF; then converts the same files with our converter and reads its
// pitch the same way. Prints both in twips and the files where they differ. Needs soffice.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { loadMupdf, loadWordConverter } from './lib/word-converter.mjs';

const args = process.argv.slice(2);
const out = args.includes('--out') ? args[args.indexOf('--out') + 1] : '/tmp/pdf-edge-line-pitch';
const FACES = ['Times New Roman', 'Arial', 'Calibri', 'Cambria', 'Courier New', 'DejaVu Sans'];
const HALF_POINTS = [16, 18, 19, 20, 21, 22, 23, 24, 26, 28, 32];

function docx(face, halfPoints) {
  const run = `<w:rPr><w:rFonts w:ascii="${face}" w:hAnsi="${face}" w:cs="${face}"/><w:sz w:val="${halfPoints}"/></w:rPr>`;
  const body = Array.from({ length: 40 }, (_, i) => `<w:p><w:pPr><w:spacing w:before="0" w:after="0" w:line="240" w:lineRule="auto"/></w:pPr><w:r>${run}<w:t>Line ${i} Hxg</w:t></w:r></w:p>`).join('');
  const page = '<w:sectPr><w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1134" w:right="850" w:bottom="1134" w:left="1701" w:header="708" w:footer="708" w:gutter="0"/></w:sectPr>';
  return zipSync({
    '[Content_Types].xml': strToU8('<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>'),
    '_rels/.rels': strToU8('<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>'),
    'word/document.xml': strToU8(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}${page}</w:body></w:document>`),
  });
}

const gen = join(out, 'docx');
const lo = join(out, 'lo');
mkdirSync(gen, { recursive: true });
mkdirSync(lo, { recursive: true });
for (const face of FACES) for (const hp of HALF_POINTS) writeFileSync(join(gen, `${face.replace(/ /g, '')}-${hp}.docx`), docx(face, hp));
const files = readdirSync(gen).filter((f) => f.endsWith('.docx')).sort();
execFileSync('soffice', ['--headless', `-env:UserInstallation=file://${join(out, 'profile')}`, '--convert-to', 'pdf', '--outdir', lo, ...files.map((f) => join(gen, f))], { stdio: 'ignore' });

const mupdf = await loadMupdf();
const converter = await loadWordConverter();
/** Mean distance between the first and last baselines of the first page, in twips. */
const pitch = (pdf) => {
  const doc = mupdf.Document.openDocument(pdf, 'application/pdf');
  const ys = [];
  doc.loadPage(0).toStructuredText().walk({ onChar: (c, origin) => c === 'L' && ys.push(origin[1]) });
  doc.destroy();
  return (20 * (ys.at(-1) - ys[0])) / (ys.length - 1);
};
let same = 0;
for (const f of files) {
  const theirs = Math.round(pitch(readFileSync(join(lo, f.replace('.docx', '.pdf')))));
  const ours = Math.round(pitch(converter.convert(new Uint8Array(readFileSync(join(gen, f))))));
  if (theirs === ours) same++;
  console.log(`${f.padEnd(24)} LibreOffice ${String(theirs).padStart(4)}  ours ${String(ours).padStart(4)}${theirs === ours ? '' : '  <<'}`);
}
console.log(`same pitch (whole twips): ${same}/${files.length}`);
