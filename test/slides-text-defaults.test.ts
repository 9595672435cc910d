/**
 * Text outside placeholders as LibreOffice prints it: levels from the master's otherStyle and the
 * presentation's defaultTextStyle, a bullet that does not hang followed by its text, and table rows
 * no taller than their runs need.
 */
import { describe, expect, it } from 'vitest';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { loadMupdf } from '../src/pdf/mupdf';
import { bundledFonts } from '../src/fonts/bundled';
import { joinChunks } from '../src/lib/bytes';
import { readDeck } from '../src/convert/slides/index';
import { renderDeckChunks } from '../src/convert/slides/render';
import { box, pptx } from './pptx-fixtures';
import { eachPage } from './pdf-pages';

const E = 12_700;

/** The first page's lines of text with where they start. */
async function lines(deck: Uint8Array): Promise<{ text: string; x: number; y: number }[]> {
  const pdf = joinChunks(renderDeckChunks(readDeck(deck), await loadMupdf(), bundledFonts));
  const [page] = await eachPage(pdf, (p) => {
    const json = JSON.parse(p.toStructuredText('preserve-whitespace').asJSON()) as { blocks: { lines?: { text: string; bbox: { x: number; y: number } }[] }[] };
    return json.blocks.flatMap((b) => b.lines ?? []).map((l) => ({ text: l.text, x: l.bbox.x, y: l.bbox.y }));
  });
  return page!;
}

/** `deck` with `edit` applied to one of its parts. */
function edited(deck: Uint8Array, path: string, edit: (xml: string) => string): Uint8Array {
  const files = unzipSync(deck);
  files[path] = strToU8(edit(strFromU8(files[path]!)));
  return zipSync(files);
}

const paragraph = (text: string, pPr = '') => `<a:p>${pPr}<a:r><a:rPr lang="en-US" sz="2000"/><a:t>${text}</a:t></a:r></a:p>`;
const textBox = (body: string) => box(100, 50, 500, 250, 'FFFFFF', 'x').replace(/<a:p>.*<\/a:p>/, body);

describe('text outside placeholders', () => {
  it('takes list levels from the presentation\'s defaultTextStyle, the master\'s otherStyle over it', async () => {
    const deck = pptx([{ body: textBox(paragraph('Top') + paragraph('Second', '<a:pPr lvl="1"/>') + paragraph('Third', '<a:pPr lvl="2"/>')) }]);
    const withDefaults = edited(deck, 'ppt/presentation.xml', (xml) => xml.replace('</p:presentation>', `<p:defaultTextStyle><a:lvl2pPr marL="${36 * E}"/><a:lvl3pPr marL="${72 * E}"/></p:defaultTextStyle></p:presentation>`));
    const withOther = edited(withDefaults, 'ppt/slideMasters/slideMaster1.xml', (xml) => xml.replace('</p:txStyles>', `<p:otherStyle><a:lvl3pPr marL="${108 * E}"/></p:otherStyle></p:txStyles>`));
    const x = async (deck: Uint8Array, text: string) => (await lines(deck)).find((l) => l.text.trim() === text)!.x - 107.2;
    expect(await x(deck, 'Second')).toBeLessThan(2);
    expect(Math.abs((await x(withDefaults, 'Second')) - 36)).toBeLessThan(2);
    expect(Math.abs((await x(withDefaults, 'Third')) - 72)).toBeLessThan(2);
    // The master's other style wins where it speaks, the presentation's stands where it does not.
    expect(Math.abs((await x(withOther, 'Third')) - 108)).toBeLessThan(2);
    expect(Math.abs((await x(withOther, 'Second')) - 36)).toBeLessThan(2);
  });

  it('sets the text right after a bullet that does not hang (indent 0), a tab after one that does', async () => {
    const bullet = (indent: number) => `<a:pPr marL="${36 * E}" indent="${indent * E}"><a:buFont typeface="Arial"/><a:buChar char="•"/></a:pPr>`;
    const found = await lines(pptx([{ body: textBox(paragraph('Flush', bullet(0)) + paragraph('Hanging', bullet(-18))) }]));
    const line = (text: string) => found.find((l) => l.text.includes(text))!;
    expect(line('Flush').text).toBe('•Flush');
    expect(Math.abs(line('Flush').x - (107.2 + 36))).toBeLessThan(1.5);
    expect(line('Hanging').text).toMatch(/^•\s+Hanging$/);
    expect(Math.abs(line('Hanging').x - (107.2 + 18))).toBeLessThan(1.5);
  });

  it('keeps a table row at its stored height when its runs fit, whatever size its list style gives the paragraph', async () => {
    const tc = (text: string) => `<a:tc><a:txBody><a:bodyPr/><a:lstStyle><a:lvl1pPr><a:defRPr sz="4000"/></a:lvl1pPr></a:lstStyle><a:p><a:r><a:rPr lang="en-US" sz="1200"/><a:t>${text}</a:t></a:r></a:p></a:txBody><a:tcPr/></a:tc>`;
    const table = `<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="4" name="Table"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr><p:xfrm><a:off x="${100 * E}" y="${100 * E}"/><a:ext cx="${300 * E}" cy="${60 * E}"/></p:xfrm>` +
      `<a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/table"><a:tbl><a:tblGrid><a:gridCol w="${300 * E}"/></a:tblGrid>` +
      `<a:tr h="${30 * E}">${tc('Header')}</a:tr><a:tr h="${30 * E}">${tc('Body')}</a:tr></a:tbl></a:graphicData></a:graphic></p:graphicFrame>`;
    const found = await lines(pptx([{ body: table }]));
    // The second row starts at 130 pt (not at 100 + 40 × 1.2 + 7.2): its text 3.6 pt below that.
    const body = found.find((l) => l.text === 'Body')!;
    expect(body.y).toBeGreaterThan(130);
    expect(body.y).toBeLessThan(136);
  });
});
