import type { Family } from '../fonts/catalog';
import type { Rgb } from '../codecs/dib';

/** x' = a·x + c·y + e, y' = b·x + d·y + f (SVG's and MuPDF's order). */
export type Matrix = [number, number, number, number, number, number];

export interface Fill {
  /** #rrggbb */
  color: string;
  evenOdd: boolean;
}

export interface Stroke {
  color: string;
  /** Output units, like everything the painter is given. */
  width: number;
  /** Dash and gap lengths, empty for a solid line. */
  dash: number[];
  cap: 'round' | 'square' | 'butt';
  join: 'round' | 'bevel' | 'miter';
}

/** One text output, in output units: a baseline origin, turned by `angle` degrees (clockwise, y down). */
export interface TextRun {
  text: string;
  x: number;
  y: number;
  angle: number;
  /** Baseline offset from the reference point along the text's y (alignment top / baseline / bottom). */
  base: number;
  em: number;
  family: Family;
  bold: boolean;
  italic: boolean;
  underline: boolean;
  strike: boolean;
  anchor: 'start' | 'middle' | 'end';
  color: string;
  /** Advance of each UTF-16 unit, when the record gives them (output units). */
  advances?: number[];
  /** A rectangle (path data) the text is clipped to (ETO_CLIPPED). */
  clip?: string;
}

/** One area of a clip: drawing is limited to the intersection of all the areas in force. */
export interface ClipArea {
  d: string;
}

/**
 * What a metafile player draws onto: SVG markup (metafileToSvg) or a MuPDF device (the Word
 * layout). Paths come as SVG path data (M, L, C, Z; absolute output coordinates).
 */
export interface Painter {
  /** The output frame (x, y, width, height), before anything is drawn. */
  begin(x: number, y: number, w: number, h: number): void;
  path(d: string, fill: Fill | undefined, stroke: Stroke | undefined): void;
  text(run: TextRun): void;
  /** A bitmap over the parallelogram `at` maps the unit square to (row 0 at v = 0). */
  image(img: Rgb, at: Matrix): void;
  /**
   * The clip in force for what follows: a list that only grows by appending to the previous one
   * (same objects) or is replaced. An empty list clips to the frame only.
   */
  clip(areas: readonly ClipArea[]): void;
}

/** Calls back for each command of path data made of M, L, C and Z with absolute numbers. */
export function walkPath(
  d: string,
  to: { moveTo(x: number, y: number): void; lineTo(x: number, y: number): void; curveTo(a: number, b: number, c: number, d: number, e: number, f: number): void; closePath(): void },
): void {
  const tokens = d.match(/[MLCZ]|-?\d*\.?\d+(?:e[-+]?\d+)?/gi) ?? [];
  let cmd = '';
  const nums: number[] = [];
  const flush = () => {
    if (cmd === 'M' || cmd === 'L') {
      for (let i = 0; i + 1 < nums.length; i += 2) (cmd === 'M' && i === 0 ? to.moveTo : to.lineTo).call(to, nums[i]!, nums[i + 1]!);
    } else if (cmd === 'C') {
      for (let i = 0; i + 5 < nums.length; i += 6) to.curveTo(nums[i]!, nums[i + 1]!, nums[i + 2]!, nums[i + 3]!, nums[i + 4]!, nums[i + 5]!);
    } else if (cmd === 'Z') to.closePath();
    nums.length = 0;
  };
  for (const t of tokens) {
    if (/^[MLCZ]$/i.test(t)) {
      flush();
      cmd = t.toUpperCase();
    } else nums.push(Number(t));
  }
  flush();
}
