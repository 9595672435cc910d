import { describe, expect, it } from 'vitest';
import { chartInlines } from '../src/convert/word/read/docx/chart';
import { CHART_XML_MAX, readChart } from '../src/convert/office/chart/read';
import { chartMarks, chartSvg, thinned } from '../src/convert/office/chart/draw';
import { niceScale } from '../src/convert/office/chart/axis';
import { loadMupdf } from '../src/pdf/mupdf';
import { bundledFonts } from '../src/fonts/bundled';
import { renderWordDocument } from '../src/convert/word/layout/render';
import type { WordDocument } from '../src/convert/word/model/index';

const NS = 'xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"';
const strCache = (vals: string[]) => `<c:strRef><c:strCache><c:ptCount val="${vals.length}"/>${vals.map((v, i) => `<c:pt idx="${i}"><c:v>${v}</c:v></c:pt>`).join('')}</c:strCache></c:strRef>`;
const numCache = (vals: number[]) => `<c:numRef><c:numCache><c:ptCount val="${vals.length}"/>${vals.map((v, i) => `<c:pt idx="${i}"><c:v>${v}</c:v></c:pt>`).join('')}</c:numCache></c:numRef>`;
const CATS = ['North', 'South', 'East'];
const ser = (name: string, vals: number[], color?: string) =>
  `<c:ser><c:tx>${strCache([name])}</c:tx>${color ? `<c:spPr><a:solidFill><a:srgbClr val="${color}"/></a:solidFill></c:spPr>` : ''}<c:cat>${strCache(CATS)}</c:cat><c:val>${numCache(vals)}</c:val></c:ser>`;
const chart = (plot: string, legend = 'b') =>
  `<?xml version="1.0"?><c:chartSpace ${NS}><c:chart><c:title><c:tx><c:rich><a:p><a:r><a:t>Sales by region</a:t></a:r></a:p></c:rich></c:tx></c:title>` +
  `<c:autoTitleDeleted val="0"/><c:plotArea>${plot}</c:plotArea><c:legend><c:legendPos val="${legend}"/></c:legend></c:chart></c:chartSpace>`;

const COLUMN = chart(`<c:barChart><c:barDir val="col"/><c:grouping val="clustered"/>${ser('Apples', [10, 20, 30], '112233')}${ser('Pears', [5, 15, 25])}</c:barChart>`);

/** The bars of an SVG: paths with 4 corners (the background is a <rect>, legend keys are tiny). */
function bars(svg: string): { w: number; h: number; fill: string }[] {
  return [...svg.matchAll(/<path d="M([^"]+)Z" fill="#(\w+)"/g)]
    .map((m) => {
      const pts = m[1]!.split('L').map((p) => p.split(',').map(Number));
      const xs = pts.map((p) => p[0]!), ys = pts.map((p) => p[1]!);
      return { n: pts.length, w: Math.max(...xs) - Math.min(...xs), h: Math.max(...ys) - Math.min(...ys), fill: m[2]! };
    })
    .filter((b) => b.n === 4 && b.w > 6)
    .map(({ w, h, fill }) => ({ w, h, fill }));
}

describe('DOCX charts', () => {
  it('reads series, categories and the title from the cached values', () => {
    const d = readChart(COLUMN)!;
    expect(d.kind).toBe('bar');
    expect(d.title).toBe('Sales by region');
    expect(d.categories).toEqual(CATS);
    expect(d.series.map((s) => s.name)).toEqual(['Apples', 'Pears']);
    expect(d.series[1]!.values).toEqual([5, 15, 25]);
  });

  it('draws a clustered column chart as SVG with text labels and proportional bars', () => {
    const svg = chartSvg(COLUMN, 360, 216);
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg).toContain('>Sales by region</text>');
    for (const c of CATS) expect(svg).toContain(`>${c}</text>`);
    expect(svg).toContain('>Apples</text>');
    expect(svg).toContain('>Pears</text>');
    expect(svg).toContain('font-family="Carlito"');
    const b = bars(svg);
    expect(b).toHaveLength(6);
    // Explicit colour for the first series, Office's second accent for the unstyled one.
    expect(b.filter((x) => x.fill === '112233')).toHaveLength(3);
    expect(b.filter((x) => x.fill === 'ED7D31')).toHaveLength(3);
    // Heights proportional to the values: height / value is the same for every bar.
    const values = [10, 20, 30, 5, 15, 25];
    const apples = b.filter((x) => x.fill === '112233'), pears = b.filter((x) => x.fill === 'ED7D31');
    const unit = apples[0]!.h / 10;
    [...apples, ...pears].forEach((bar, i) => expect(Math.abs(bar.h - values[i]! * unit)).toBeLessThan(0.5));
    // Round gridline labels: 0 to 30 in steps of 5.
    for (const v of ['0', '10', '20', '30']) expect(svg).toContain(`>${v}</text>`);
  });

  it('stacks bars and lays horizontal bars along x', () => {
    const stacked = chartSvg(chart(`<c:barChart><c:barDir val="bar"/><c:grouping val="stacked"/>${ser('A', [1, 2, 3])}${ser('B', [3, 2, 1])}</c:barChart>`), 360, 216);
    const b = bars(stacked);
    expect(b).toHaveLength(6);
    // Horizontal: the value is the width; every category sums to 4, so each stack has the same length.
    // Bars come category by category: A then B of each.
    const widths = [0, 1, 2].map((i) => b[2 * i]!.w + b[2 * i + 1]!.w);
    expect(b[0]!.w * 3).toBeCloseTo(b[1]!.w, 0);
    expect(Math.max(...widths) - Math.min(...widths)).toBeLessThan(0.5);
  });

  it('draws one slice per pie point with the categories in the legend', () => {
    const svg = chartSvg(chart(`<c:pieChart><c:varyColors val="1"/>${ser('Share', [1, 2, 3])}</c:pieChart>`, 'r'), 300, 200);
    // Legend keys are 4-corner paths; slices have arcs (many points), each in its own accent.
    const slices = [...svg.matchAll(/<path d="M([^"]+)Z" fill="#(\w+)"/g)].filter((m) => m[1]!.split('L').length > 5);
    expect(slices.map((m) => m[2])).toEqual(['4472C4', 'ED7D31', 'A5A5A5']);
    for (const c of CATS) expect(svg).toContain(`>${c}</text>`);
  });

  it('draws lines as polylines with one point per category', () => {
    const svg = chartSvg(chart(`<c:lineChart><c:grouping val="standard"/>${ser('A', [1, 2, 3])}${ser('B', [3, 2, 1])}</c:lineChart>`), 360, 216);
    const lines = [...svg.matchAll(/<polyline points="([^"]+)" fill="none" stroke="#(4472C4|ED7D31)" stroke-width="2.25"/g)];
    expect(lines).toHaveLength(2);
    for (const l of lines) expect(l[1]!.split(' ')).toHaveLength(3);
  });

  it('a million points draw as their envelope: one polyline of at most two points per point of width, the peak kept, labels 6 pt apart', () => {
    const n = 1_000_000;
    const values = Array.from({ length: n }, (_, i) => (i === 654_321 ? 5000 : (i * 7919) % 1000));
    const d = { kind: 'line' as const, horizontal: false, grouping: 'standard' as const, categories: Array.from({ length: n }, (_, i) => String(i + 1)), series: [{ name: 'A', values, pointColors: [] }], palette: [] };
    const marks = chartMarks(d, 360, 216);
    const lines = marks.filter((m) => m.t === 'line' && m.width === 2.25);
    expect(lines).toHaveLength(1);
    const pts = (lines[0] as { pts: [number, number][] }).pts;
    expect(pts.length).toBeLessThanOrEqual(2 * 360);
    expect(pts.length).toBeGreaterThan(300);
    // The one peak of 5000 is the highest point drawn (y grows down).
    const top = Math.min(...pts.map((p) => p[1]));
    expect(pts.filter((p) => p[1] === top)).toHaveLength(1);
    const labels = marks.filter((m) => m.t === 'text').map((m) => (m as { x: number }).x);
    expect(labels.length).toBeLessThan(100);
    // thinned keeps a short chart as it is.
    expect(thinned(d, 2 * n)).toBe(d);
  });

  it('leaves out a chart part too large to read and a point whose index no sheet has', () => {
    const points = Array.from({ length: 120_000 }, (_, i) => i);
    const huge = chart(`<c:lineChart><c:grouping val="standard"/>${ser('A', points)}</c:lineChart>`);
    expect(huge.length).toBeGreaterThan(CHART_XML_MAX);
    expect(readChart(huge)).toBeUndefined();
    const stray = COLUMN.replace('<c:pt idx="2"><c:v>25</c:v>', '<c:pt idx="4294967294"><c:v>25</c:v>');
    expect(readChart(stray)!.series[1]!.values).toEqual([5, 15]);
  });

  it('a pie of a million slices draws at most 720 slices', () => {
    const n = 1_000_000;
    const d = { kind: 'pie' as const, horizontal: false, grouping: 'standard' as const, categories: Array.from({ length: n }, (_, i) => String(i)), series: [{ name: 'A', values: Array.from({ length: n }, () => 1), pointColors: [] }], palette: [] };
    const slices = chartMarks(d, 300, 200, { bare: true }).filter((m) => m.t === 'poly');
    expect(slices.length).toBeLessThanOrEqual(720);
    expect(slices.length).toBeGreaterThan(600);
  });

  it('scales the value axis as Excel does by default: 5% of headroom past the data, then at most ten round steps', () => {
    expect(niceScale(0, 5)).toEqual({ min: 0, max: 6, step: 1 });
    expect(niceScale(0, 100)).toEqual({ min: 0, max: 120, step: 20 });
    expect(niceScale(0, 3.5)).toEqual({ min: 0, max: 4, step: 0.5 });
    expect(niceScale(-2, 8)).toEqual({ min: -4, max: 10, step: 2 });
    // A 100% stacked chart ends at 100.
    expect(niceScale(0, 100, true)).toEqual({ min: 0, max: 100, step: 10 });
  });

  it('gives the DOCX reader a bordered box with the title and legend as text and the plot as PNG', () => {
    const [box] = chartInlines(COLUMN, 360, 216);
    expect(box?.kind).toBe('textbox');
    if (box?.kind !== 'textbox') return;
    const table = box.blocks[0]!;
    expect(table.kind).toBe('table');
    if (table.kind !== 'table') return;
    const paras = table.rows[0]!.cells[0]!.blocks;
    const words = paras.flatMap((p) => (p.kind === 'paragraph' ? p.inlines : [])).map((i) => (i.kind === 'text' ? i.text : '')).join('');
    expect(words).toContain('Sales by region');
    expect(words).toContain('Apples');
    // The plot sits in a borderless table, its value axis labels as words in a column left of the image, top to bottom.
    const plot = paras.find((p) => p.kind === 'table');
    expect(plot?.kind).toBe('table');
    if (plot?.kind !== 'table') return;
    const [labels, image] = plot.rows[0]!.cells;
    const axis = labels!.blocks.map((p) => (p.kind === 'paragraph' ? p.inlines.map((i) => (i.kind === 'text' ? i.text : '')).join('') : ''));
    expect(axis.at(-1)).toBe('0');
    expect(axis.map(Number)).toEqual([...axis.map(Number)].sort((a, b) => b - a));
    const img = image!.blocks.flatMap((p) => (p.kind === 'paragraph' ? p.inlines : [])).find((i) => i.kind === 'image');
    expect(img?.kind === 'image' && img.contentType).toBe('image/png');
    if (img?.kind === 'image') expect([...img.data.slice(1, 4)].map((c) => String.fromCharCode(c)).join('')).toBe('PNG');
  });

  it("the value axis labels sit at their gridlines: 3 pt above each label's baseline the plot draws its line", async () => {
    const [box] = chartInlines(COLUMN, 360, 216);
    if (box?.kind !== 'textbox') throw new Error('no chart box');
    const mupdf = await loadMupdf();
    const page = { width: 612, height: 792, marginTop: 72, marginRight: 72, marginBottom: 72, marginLeft: 72, header: 36, footer: 36 };
    const model: WordDocument = { sections: [{ page, headers: {}, footers: {}, blocks: box.blocks }], notes: new Map(), defaultFont: 'Calibri', defaultSize: 11 };
    const pdf = mupdf.Document.openDocument(renderWordDocument(model, mupdf, bundledFonts), 'application/pdf');
    try {
      const p = pdf.loadPage(0);
      let imageLeft = NaN;
      p.run(new mupdf.Device({ fillImage: (_img, ctm) => void (imageLeft = ctm[4]) }), mupdf.Matrix.identity);
      const baselines: number[] = [];
      p.toStructuredText('').walk({ onChar: (c, origin) => { if (/^[0-9]$/.test(c) && origin[0] < imageLeft) baselines.push(origin[1]); } });
      expect(baselines.length).toBeGreaterThanOrEqual(3);
      const scale = 4;
      const pix = p.toPixmap(mupdf.Matrix.scale(scale, scale), mupdf.ColorSpace.DeviceGray, false);
      const px = pix.getPixels(), stride = pix.getStride();
      const x = Math.round((imageLeft + 30) * scale);
      for (const b of baselines) {
        const y = Math.round((b - 3) * scale);
        const darkest = Math.min(...Array.from({ length: 9 }, (_, k) => px[(y - 4 + k) * stride + x]!));
        expect(darkest).toBeLessThan(235); // a grey gridline, not the white plot
      }
    } finally {
      pdf.destroy();
    }
  });
});
