/**
 * What running one content stream costs, for the page budget (page-budget.ts): operators counted,
 * the page areas its paths and images paint (their boxes through the current matrix, which is what
 * rasterising costs), the bytes of text it shows, and each Type 3 glyph shown at what the page
 * budget says that font's glyphs cost. Read from the bytes by the content lexer (content-lexer.ts),
 * never copied into a string (a stream may be 24 MB).
 */
import { concat, type Matrix } from './matrix';
import { ContentLexer, Token } from './content-lexer';

/** A form's own cost for one call (its nested forms' included), in the units of PageCost. */
export interface FormCost {
  operators: number;
  pageAreas: number;
  textBytes: number;
  formCalls: number;
}

export interface ScanCalls {
  /** A `Do` of XObject `name` under `ctm`. */
  xobject(name: string, ctm: Matrix): void;
  /** What one glyph of font `font` at `size` costs when its glyphs are content streams (Type 3), else null. */
  glyph(font: string, size: number, ctm: Matrix): FormCost | null;
}

const PAINT = new Set(['S', 's', 'f', 'F', 'f*', 'B', 'B*', 'b', 'b*', 'sh']);
const PATH_POINTS: Record<string, number> = { m: 1, l: 1, c: 3, v: 2, y: 2, re: 2 };

/**
 * Walks one content stream: counts operators into `cost`, the page areas its paths paint, the
 * bytes of text it shows (and a Type 3 font's glyphs run); calls `calls.xobject` for each Do;
 * `check()` every 50,000 operators and after each Type 3 text.
 */
export function scanContentCost(bytes: Uint8Array, base: Matrix, cost: FormCost, pageArea: number, calls: ScanCalls, check: () => void): void {
  new ContentCost(base, cost, pageArea, calls, check).scan(bytes);
}

/** The graphics state a cost scan follows: the matrix, the font, the path so far, the operands since the last operator. */
class ContentCost {
  private ctm: Matrix;
  private font = '';
  private fontSize = 0;
  private readonly stack: Matrix[] = [];
  private readonly nums: number[] = [];
  private name = '';
  private path: [number, number][] = [];
  private pathOps = 0;
  private textInOperands = 0;

  constructor(
    private readonly base: Matrix,
    private readonly cost: FormCost,
    private readonly pageArea: number,
    private readonly calls: ScanCalls,
    private readonly check: () => void,
  ) {
    this.ctm = base;
  }

  scan(b: Uint8Array): void {
    const lexer = new ContentLexer(b);
    const nums = this.nums;
    for (let token = lexer.next(); token !== Token.End; token = lexer.next()) {
      if (token === Token.LiteralString) {
        const start = lexer.pos;
        lexer.skipLiteralString();
        this.textInOperands += Math.max(0, lexer.pos - start - 1); // the bytes between the parentheses
      } else if (token === Token.HexString) {
        const start = lexer.pos;
        lexer.skipHexString();
        this.textInOperands += (lexer.pos - start) >> 1;
      } else if (token === Token.Name) this.name = latin1(b, lexer.start, lexer.end);
      else if (token === Token.Number) {
        nums.push(Number(latin1(b, lexer.start, lexer.end)));
        if (nums.length > 12) nums.shift();
      } else if (token === Token.Operator) {
        const op = latin1(b, lexer.start, lexer.end);
        this.cost.operators++;
        if (op === 'BI') lexer.skipInlineImage();
        this.operator(op);
        nums.length = 0;
        this.textInOperands = 0;
        if (this.cost.operators % 50_000 === 0) this.check();
      }
    }
  }

  /** The operator's effect on the graphics state and its cost, from the operands before it. */
  private operator(op: string): void {
    const { cost, nums, pageArea } = this;
    if (op === 'q') this.stack.push(this.ctm);
    else if (op === 'Q') this.ctm = this.stack.pop() ?? this.base;
    else if (op === 'cm' && nums.length >= 6) this.ctm = concat(nums.slice(-6) as Matrix, this.ctm);
    else if (op in PATH_POINTS) this.pathPoints(op);
    else if (PAINT.has(op)) {
      cost.pageAreas += op === 'sh' ? 1 : boxArea(this.path, this.ctm, pageArea) || (this.pathOps ? 1 / pageArea : 0);
      this.path = [];
      this.pathOps = 0;
    } else if (op === 'n') {
      this.path = [];
      this.pathOps = 0;
    } else if (op === 'Tf') [this.font, this.fontSize] = [this.name, Math.abs(nums.at(-1) ?? 0)];
    else if (op === 'Tj' || op === 'TJ' || op === "'" || op === '"') this.showText();
    else if (op === 'BI' || op === 'EI') cost.pageAreas += unitSquareArea(this.ctm, pageArea);
    else if (op === 'Do') this.calls.xobject(this.name, this.ctm);
  }

  /** m, l, c, v, y, re: their points join the path (re's two corners). */
  private pathPoints(op: string): void {
    const k = PATH_POINTS[op]!;
    const xs = this.nums.slice(-2 * k);
    if (op === 're' && xs.length === 4) this.path.push([xs[0]!, xs[1]!], [xs[0]! + xs[2]!, xs[1]! + xs[3]!]);
    else for (let p = 0; p + 1 < xs.length; p += 2) this.path.push([xs[p]!, xs[p + 1]!]);
    this.pathOps++;
    // A path of thousands of points is measured as its box so far (points are not kept).
    if (this.path.length > 64) this.path = boxOf(this.path);
  }

  /** Tj, TJ, ', ": the bytes shown, and as many of a Type 3 font's glyphs run. */
  private showText(): void {
    const { cost, textInOperands } = this;
    cost.textBytes += textInOperands;
    // A byte a glyph: Type 3 fonts are simple fonts.
    const glyph = textInOperands && this.font ? this.calls.glyph(this.font, this.fontSize, this.ctm) : null;
    if (glyph) {
      cost.operators += glyph.operators * textInOperands;
      cost.pageAreas += glyph.pageAreas * textInOperands;
      cost.textBytes += glyph.textBytes * textInOperands;
      cost.formCalls += glyph.formCalls * textInOperands;
      this.check();
    }
  }
}

/** The share of the page a unit square drawn under `ctm` covers (its box), at most 1. */
export function unitSquareArea(ctm: Matrix, pageArea: number): number {
  return boxArea([0, 1, 0, 1].map((_, i) => [i & 1, i >> 1] as const), ctm, pageArea);
}

function boxArea(points: (readonly [number, number])[], ctm: Matrix, pageArea: number): number {
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [x, y] of points) {
    const [tx, ty] = [x * ctm[0] + y * ctm[2] + ctm[4], x * ctm[1] + y * ctm[3] + ctm[5]];
    x0 = Math.min(x0, tx);
    y0 = Math.min(y0, ty);
    x1 = Math.max(x1, tx);
    y1 = Math.max(y1, ty);
  }
  return x1 >= x0 ? Math.min(1, ((x1 - x0) * (y1 - y0)) / pageArea) : 0;
}

function boxOf(points: [number, number][]): [number, number][] {
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [x, y] of points) (x0 = Math.min(x0, x), (y0 = Math.min(y0, y)), (x1 = Math.max(x1, x)), (y1 = Math.max(y1, y)));
  return [
    [x0, y0],
    [x1, y1],
    [x0, y1],
    [x1, y0],
  ];
}

function latin1(b: Uint8Array, from: number, to: number): string {
  let s = '';
  for (let i = from; i < to && i < from + 64; i++) s += String.fromCharCode(b[i]!);
  return s;
}
