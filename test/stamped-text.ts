/** Where text stands on each page as a reader sees it (MuPDF's structured text, visible frame, points from the top-left). */
import { eachPage } from './pdf-pages';

export interface PlacedLine {
  text: string;
  x: number;
  y: number;
  w: number;
  h: number;
  /** The writing direction: [1, 0] reads left to right, upright. */
  dir: [number, number];
}

export function linesByPage(bytes: Uint8Array): Promise<{ width: number; height: number; lines: PlacedLine[] }[]> {
  return eachPage(bytes, (page, [width, height]) => {
    const json = JSON.parse(page.toStructuredText('preserve-whitespace').asJSON(1)) as {
      blocks: { lines?: { text: string; bbox: { x: number; y: number; w: number; h: number }; dir?: { x: number; y: number } }[] }[];
    };
    const lines = json.blocks.flatMap((b) => b.lines ?? []).map((l) => ({ text: l.text.trim(), ...l.bbox, dir: [Math.round(l.dir?.x ?? 1), Math.round(l.dir?.y ?? 0)] as [number, number] }));
    return { width, height, lines };
  });
}
