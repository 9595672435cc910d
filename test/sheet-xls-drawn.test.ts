/**
 * The XLS reader's shapes and comments on a workbook LibreOffice saved (test/fixtures/sheet/
 * lo__drawn.xls): a text box drawn from its OfficeArt properties with its TXO text, an arrow with
 * its arrowhead, and the comments (NOTE, their TXO) printed as SETUP says: listed after the sheet
 * (fNotes with fEndNotes), the shown one drawn in its box (fNotes alone), or not at all.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type * as Mupdf from 'mupdf';
import { loadMupdf } from '../src/pdf/mupdf';
import { bundledFonts } from '../src/fonts/bundled';
import { joinChunks } from '../src/lib/bytes';
import { readXls } from '../src/convert/sheet/read/xls/index';
import { renderWorkbookChunks } from '../src/convert/sheet/render';
import { NOTE_FILL } from '../src/convert/sheet/read/note-drawings';
import type { SheetDrawing } from '../src/convert/sheet/model';
import drawnUrl from './fixtures/sheet/lo__drawn.xls?url&inline';

let mupdf: typeof Mupdf;
beforeAll(async () => {
  mupdf = await loadMupdf();
});

function bytes(dataUrl: string): Uint8Array {
  return Uint8Array.from(atob(dataUrl.slice(dataUrl.indexOf(',') + 1)), (c) => c.charCodeAt(0));
}

/** The fixture with its SETUP's options set to `options` (LibreOffice wrote 0x0002, portrait, printing no comments). */
function withSetupOptions(options: number): Uint8Array {
  const b = bytes(drawnUrl).slice();
  const at = b.findIndex((_, i) => b[i] === 0xa1 && b[i + 1] === 0 && b[i + 2] === 0x22 && b[i + 3] === 0);
  b[at + 14] = options & 0xff;
  b[at + 15] = options >> 8;
  return b;
}

const shapesOf = (d: SheetDrawing) => (d.content.kind === 'shapes' ? d.content.shapes.map((s) => s.shape) : []);
const textOf = (d: SheetDrawing) => shapesOf(d).flatMap((s) => s.blocks ?? []).flatMap((p) => p.runs.map((r) => r.text)).join('');

function pageTexts(bytes: Uint8Array): string[] {
  const doc = mupdf.Document.openDocument(joinChunks(renderWorkbookChunks(readXls(bytes), mupdf, bundledFonts)), 'application/pdf');
  const out = Array.from({ length: doc.countPages() }, (_, i) => {
    const page = doc.loadPage(i);
    const text = page.toStructuredText('preserve-whitespace').asText();
    page.destroy();
    return text;
  });
  doc.destroy();
  return out;
}

describe('XLS shapes and comments', () => {
  it('draws the text box in its fill and outline with its text, and the arrow with its arrowhead, over their anchors', () => {
    const [sheet] = readXls(withSetupOptions(0x0002)).sheets;
    const drawings = sheet!.drawings!;
    expect(drawings).toHaveLength(2);
    const [box, arrow] = drawings;
    expect(box!.from).toMatchObject({ col: 5, row: 1 });
    // LibreOffice writes the far corner as the end of the cell before (I5's end for J6's corner), as for pictures.
    expect(box!.to).toMatchObject({ col: 8, row: 4 });
    const [rect] = shapesOf(box!);
    expect(rect).toMatchObject({ geometry: 'rect', fill: 'FFFF00', line: { color: 'FF0000' } });
    expect(rect!.line!.width).toBeCloseTo(1, 1);
    expect(textOf(box!)).toContain('Source: statistics office');
    expect(textOf(box!)).toContain('Right');
    const [line] = shapesOf(arrow!);
    expect(line).toMatchObject({ geometry: 'line', line: { color: '00AA00', end: { type: 'triangle' } } });
    // No comment prints: the sheet does not ask.
    expect(sheet!.notes).toBeUndefined();
    expect(pageTexts(withSetupOptions(0x0002)).join('')).not.toContain('Shown on B2');
  });

  it('lists the comments after the sheet when SETUP says fNotes and fEndNotes', () => {
    const [sheet] = readXls(withSetupOptions(0x0222)).sheets;
    expect(sheet!.print.comments).toBe('atEnd');
    expect(sheet!.notes).toEqual([{ row: 1, col: 1, text: 'Ann:\nShown on B2' }, { row: 4, col: 3, text: 'Hidden on D5' }]);
    const pages = pageTexts(withSetupOptions(0x0222));
    expect(pages).toHaveLength(2);
    expect(pages[1]).toContain('Cell: D5');
  });

  it('draws the shown comment in its box when SETUP says fNotes alone, and leaves the hidden one out', () => {
    const [sheet] = readXls(withSetupOptions(0x0022)).sheets;
    expect(sheet!.print.comments).toBe('asDisplayed');
    const notes = sheet!.drawings!.filter((d) => shapesOf(d).some((s) => s.fill === NOTE_FILL));
    expect(notes).toHaveLength(1);
    expect(textOf(notes[0]!)).toBe('Ann:\nShown on B2');
    // LibreOffice wrote the note's box from C1 (its x:Anchor 2, 15, 0, 2 …).
    expect(notes[0]!.from).toMatchObject({ col: 2, row: 0 });
    const [page] = pageTexts(withSetupOptions(0x0022));
    expect(page).toContain('Shown on B2');
    expect(page).not.toContain('Hidden on D5');
  });
});
