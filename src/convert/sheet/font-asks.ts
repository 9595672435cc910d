/**
 * What a workbook asks of the fonts before it is laid out (fonts/face-needs.ts): the fonts of its
 * cell styles, headers and shapes' text, and the characters of its text cells, headers, footers,
 * sheet names, shapes and comments.
 */
import type { FontAsks } from '../../fonts/face-needs';
import type { Workbook } from './model';
import type { Shape, TextParagraph } from '../office/model';
import { FONT as CHART_FONT } from '../office/chart/draw';

const NON_ASCII = /[^\x00-\x7f]/;

function addCodePoints(text: string, into: Set<number>): void {
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (cp >= 0x80) into.add(cp);
  }
}

/** Header font names given by &"Family,Style" codes. */
const headerFonts = (codes: string): string[] => [...codes.matchAll(/&"([^",]+)/g)].map((m) => m[1]!).filter((f) => f !== '-');

/** A shape's paragraphs and its members', groups within groups followed. */
function shapeParagraphs(shape: Shape<TextParagraph>, depth = 0): TextParagraph[] {
  return [...(shape.blocks ?? []), ...(depth < 32 ? (shape.members ?? []).flatMap((m) => shapeParagraphs(m, depth + 1)) : [])];
}

export function fontAsksOf(workbook: Workbook): FontAsks {
  const names = new Set<string>([workbook.defaultFont.name, ...workbook.styles.map((s) => s.font.name)]);
  const codePoints = new Set<number>();
  const seen = new Set<string>();
  const count = (text: string) => {
    if (!NON_ASCII.test(text) || seen.has(text)) return;
    seen.add(text);
    addCodePoints(text, codePoints);
  };
  // Formatted numbers may carry currency signs and non-breaking spaces from their format codes.
  for (const style of workbook.styles) count(style.format);
  for (const sheet of workbook.sheets) {
    count(sheet.name);
    for (const hf of [sheet.print.header, sheet.print.footer]) {
      for (const codes of [hf?.odd, hf?.even, hf?.first]) {
        if (!codes) continue;
        count(codes);
        for (const f of headerFonts(codes)) names.add(f);
      }
    }
    for (const n of sheet.notes ?? []) count(n.text);
    for (const d of sheet.drawings ?? []) {
      if (d.content.kind === 'shapes') {
        // Shapes, text boxes and shown comments print their runs in their own fonts.
        for (const { shape } of d.content.shapes) for (const p of shapeParagraphs(shape)) {
          names.add(p.font);
          for (const run of p.runs) names.add(run.font), count(run.text);
        }
        continue;
      }
      if (d.content.kind !== 'chart') continue;
      // Charts print their text in the Office parts' chart font.
      names.add(CHART_FONT);
      const { chart } = d.content;
      for (const text of [chart.title ?? '', ...chart.categories, ...chart.series.map((s) => s.name ?? '')]) count(text);
    }
    for (const cells of sheet.rows.values()) {
      for (const cell of cells) if (cell.value?.kind === 'text' || cell.value?.kind === 'error') count(cell.value.value);
    }
  }
  // Formatted values use the no-break space (U+00A0) and narrow no-break space as group separators in some locales.
  codePoints.add(0xa0);
  return { names, codePoints };
}
