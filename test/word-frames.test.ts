import { describe, expect, it } from 'vitest';
import { strToU8, zipSync } from 'fflate';
import { loadMupdf } from '../src/pdf/mupdf';
import { bundledFonts } from '../src/fonts/bundled';
import { readDocx } from '../src/convert/word/read/docx';
import { applyPapx, defaultPap, paragraphProps } from '../src/convert/word/read/doc/pap';
import { renderWordDocument } from '../src/convert/word/layout/render';
import type { Block, Paragraph, ParagraphFrame, RunStyle, WordDocument } from '../src/convert/word/model/index';

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const style: RunStyle = { font: 'Times New Roman', size: 12 };
const page = { width: 612, height: 792, marginTop: 72, marginRight: 72, marginBottom: 72, marginLeft: 72, header: 36, footer: 36 };

function docxWithBody(body: string): Uint8Array {
  return zipSync({
    '[Content_Types].xml': strToU8('<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>'),
    '_rels/.rels': strToU8(`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="word/document.xml"/></Relationships>`),
    'word/document.xml': strToU8(`<w:document ${W}><w:body>${body}</w:body></w:document>`),
  });
}

/** Each page's text lines with their boxes (points, top-left origin). */
async function renderLines(model: WordDocument) {
  const mupdf = await loadMupdf();
  const pdf = mupdf.Document.openDocument(renderWordDocument(model, mupdf, bundledFonts), 'application/pdf');
  try {
    return Array.from({ length: pdf.countPages() }, (_, i) => {
      const p = pdf.loadPage(i);
      const json = JSON.parse(p.toStructuredText('preserve-whitespace').asJSON()) as { blocks: { lines?: { text: string; bbox: { x: number; y: number; w: number; h: number } }[] }[] };
      p.destroy();
      return json.blocks.flatMap((b) => b.lines ?? []).map((l) => ({ text: l.text.trim(), ...l.bbox }));
    });
  } finally {
    pdf.destroy();
  }
}

const para = (text: string, frame?: ParagraphFrame): Paragraph => ({ kind: 'paragraph', props: frame ? { frame } : {}, inlines: [{ kind: 'text', text, style }] });

describe('Word text frames (framePr, sprmPPc)', () => {
  it('reads w:framePr: size, position, alignment, anchors (column and paragraph when unstated) and wrapping', () => {
    const doc = readDocx(
      docxWithBody(
        '<w:p><w:pPr><w:framePr w:w="2880" w:h="720" w:hRule="exact" w:wrap="around" w:vAnchor="text" w:hAnchor="margin" w:xAlign="right" w:y="20"/></w:pPr><w:r><w:t>Framed</w:t></w:r></w:p>' +
          '<w:p><w:pPr><w:framePr w:x="1440" w:y="2880"/></w:pPr><w:r><w:t>Defaults</w:t></w:r></w:p>' +
          '<w:p><w:pPr><w:framePr w:dropCap="drop" w:lines="3" w:wrap="around" w:vAnchor="text" w:hAnchor="text"/></w:pPr><w:r><w:t>D</w:t></w:r></w:p>',
      ),
    );
    const frames = (doc.sections[0]!.blocks as Paragraph[]).map((p) => p.props.frame);
    expect(frames[0]).toEqual({ width: 144, height: 36, heightRule: 'exact', wrap: 'around', vAnchor: 'text', hAnchor: 'margin', xAlign: 'right', x: 0, y: 1 });
    expect(frames[1]).toEqual({ x: 72, y: 144, hAnchor: 'text', vAnchor: 'text' });
    expect(frames[2]).toMatchObject({ dropCap: true });
  });

  it('reads the binary format frame sprms: position codes, alignments, width, minimum height, wrapping', () => {
    const pap = defaultPap();
    // sprmPPc 0x261B: pcVert 2 (paragraph) in bits 4-5, pcHorz 1 (margin) in bits 6-7.
    // sprmPDxaAbs 0x8418 = -8 (right); sprmPDyaAbs 0x8419 = 40 twips; sprmPDxaWidth 0x841A = 2880;
    // sprmPWHeightAbs 0x442B = 720 | minimum; sprmPWr 0x2423 = 1 (not beside).
    const i16 = (v: number) => [v & 0xff, (v >> 8) & 0xff];
    applyPapx(pap, Uint8Array.from([0x1b, 0x26, (1 << 6) | (2 << 4), 0x18, 0x84, ...i16(-8), 0x19, 0x84, ...i16(40), 0x1a, 0x84, ...i16(2880), 0x2b, 0x44, ...i16(720 | 0x8000), 0x23, 0x24, 1]), false);
    expect(paragraphProps(pap).frame).toEqual({ x: 0, y: 2, hAnchor: 'margin', vAnchor: 'text', xAlign: 'right', width: 144, height: 36, heightRule: 'atLeast', wrap: 'notBeside' });
    // A centred frame with no position codes: from the column and its paragraph.
    const centred = defaultPap();
    applyPapx(centred, Uint8Array.from([0x18, 0x84, ...i16(-4)]), false);
    expect(paragraphProps(centred).frame).toEqual({ x: 0, y: 0, hAnchor: 'text', vAnchor: 'text', xAlign: 'center', wrap: 'auto' });
    // Without frame sprms there is no frame.
    expect(paragraphProps(defaultPap()).frame).toBeUndefined();
  });

  it("a header's framed page number sits at the margin's right, on the header's first line beside its text; body frames stay in the flow", async () => {
    const number: Paragraph = {
      kind: 'paragraph',
      props: { frame: { x: 0, y: 0, xAlign: 'right', hAnchor: 'margin', vAnchor: 'text', wrap: 'around' } },
      inlines: [{ kind: 'field', field: 'PAGE', style }, { kind: 'text', text: ' of ', style }, { kind: 'field', field: 'NUMPAGES', style }],
    };
    const header: Block[] = [number, para('Header text')];
    const body: Block[] = [para('Before the frame'), para('In a frame', { x: 0, y: 0, hAnchor: 'text', vAnchor: 'text', wrap: 'around' }), para('After the frame'), { kind: 'paragraph', props: { pageBreakBefore: true }, inlines: [{ kind: 'text', text: 'Second page', style }] }];
    const model: WordDocument = { sections: [{ page, headers: { default: header }, footers: {}, blocks: body }], notes: new Map(), defaultFont: 'Times New Roman', defaultSize: 12 };
    const pages = await renderLines(model);
    expect(pages).toHaveLength(2);
    pages.forEach((lines, i) => {
      // "Page X of Y": the total is counted for a frame's text too.
      const num = lines.find((l) => l.text === `${i + 1} of 2`)!;
      const text = lines.find((l) => l.text === 'Header text')!;
      // The number ends at the right margin (612 - 72), on the line of the header's text, which stays at the header's top.
      expect(Math.abs(num.x + num.w - 540)).toBeLessThan(1.5);
      expect(Math.abs(num.y - text.y)).toBeLessThan(2);
      expect(text.y).toBeLessThan(36 + 4);
      expect(text.x).toBeLessThan(75);
    });
    // In the body, the framed paragraph keeps its place between the others.
    const order = pages[0]!.map((l) => l.text).filter((t) => /frame/.test(t));
    expect(order).toEqual(['Before the frame', 'In a frame', 'After the frame']);
  });
});
