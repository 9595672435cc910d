/** Where text stands on each page as a reader sees it (MuPDF's structured text, visible frame, points from the top-left). */
import { loadMupdf } from '../src/pdf/mupdf';

export interface PlacedLine {
  text: string;
  x: number;
  y: number;
  w: number;
  h: number;
  /** The writing direction: [1, 0] reads left to right, upright. */
  dir: [number, number];
}

export async function linesByPage(bytes: Uint8Array): Promise<{ width: number; height: number; lines: PlacedLine[] }[]> {
  const mupdf = await loadMupdf();
  const doc = mupdf.Document.openDocument(bytes, 'application/pdf');
  try {
    return Array.from({ length: doc.countPages() }, (_, i) => {
      const page = doc.loadPage(i);
      const [x0, y0, x1, y1] = page.getBounds();
      const json = JSON.parse(page.toStructuredText('preserve-whitespace').asJSON(1)) as {
        blocks: { lines?: { text: string; bbox: { x: number; y: number; w: number; h: number }; dir?: { x: number; y: number } }[] }[];
      };
      page.destroy();
      const lines = json.blocks.flatMap((b) => b.lines ?? []).map((l) => ({ text: l.text.trim(), ...l.bbox, dir: [Math.round(l.dir?.x ?? 1), Math.round(l.dir?.y ?? 0)] as [number, number] }));
      return { width: x1 - x0, height: y1 - y0, lines };
    });
  } finally {
    doc.destroy();
  }
}
