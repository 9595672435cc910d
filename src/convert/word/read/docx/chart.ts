/**
 * Word's picture of a DrawingML chart (word/charts/chartN.xml, read and laid out by office/chart/):
 * the marks rasterised to a PNG (office/chart/png.ts) with the title, the legend and the axis labels
 * as real paragraphs around it, so the chart's words stay text in the PDF.
 */
import type { Block, Inline, Paragraph, RunStyle, Table } from '../../model/index';
import type { ChartMark } from '../../../office/model';
import { readChart } from '../../../office/chart/read';
import { chartMarks, FONT, GRID, legendEntries, TEXT } from '../../../office/chart/draw';
import { shifted } from '../../../office/chart/axis';
import { rasterPng } from '../../../office/chart/png';

const para = (inlines: Inline[], size: number): Paragraph => ({
  kind: 'paragraph',
  props: { align: 'center', spaceBefore: 0, spaceAfter: 0, line: { rule: 'auto', value: 1 }, markStyle: { font: FONT, size } },
  inlines,
});

/**
 * What the DOCX reader emits for a chart: a bordered one-cell table (the chart area) holding the title
 * and legend as text and the plot as a PNG.
 */
export function chartInlines(xml: Uint8Array | string, width: number, height: number, palette?: string[]): Inline[] {
  const d = readChart(xml, palette);
  if (!d || width <= 0 || height <= 0) return [];
  const style = (size: number, color = TEXT): RunStyle => ({ font: FONT, size, color });
  const blocks: Block[] = [];
  let plotH = height - 8;
  if (d.title) {
    blocks.push({ ...para([{ kind: 'text', text: d.title, style: style(14) }], 14), props: { ...para([], 14).props, spaceBefore: 6, spaceAfter: 4 } });
    plotH -= 28;
  }
  const legend: Inline[] = [];
  if (d.legend) {
    legendEntries(d).forEach((e, i) => {
      if (i) legend.push({ kind: 'text', text: '   ', style: style(9) });
      legend.push({ kind: 'text', text: '■ ', style: style(7, e.color) }, { kind: 'text', text: e.name, style: style(9) });
    });
    const lines = Math.ceil(legend.reduce((a, l) => a + (l.kind === 'text' ? l.text.length * 4.6 : 0), 0) / Math.max(1, width - 20));
    plotH -= lines * 11 + 6;
  }
  plotH = Math.max(20, plotH);
  const innerW = width - 8;
  const shapes = chartMarks(d, innerW, plotH, { bare: true });
  // The labels under the plot (categories of a column chart) become a paragraph of centred tabs, so
  // they stay words; the image stops just above them. Other axis labels are lost as text.
  const below = shapes.filter((s): s is Extract<ChartMark, { t: 'text' }> => s.t === 'text' && s.anchor === 'middle');
  const imageH = below.length ? plotH - 14 : plotH;
  // The labels left of the plot (a column chart's values, a bar chart's categories) go into a column
  // of their own beside the image, a paragraph each at its gridline, so they stay words too.
  const beside = shapes.filter((s): s is Extract<ChartMark, { t: 'text' }> => s.t === 'text' && s.anchor === 'end' && s.y <= imageH).sort((a, b) => a.y - b.y);
  const labelW = beside.length ? Math.min(innerW / 3, Math.max(...beside.map((t) => t.x)) + 2) : 0;
  const plot = shapes.filter((s) => s.t !== 'text').map((s) => (labelW ? shifted(s, -labelW) : s));
  const png = rasterPng(plot, innerW - labelW, imageH);
  const image = para([{ kind: 'image', data: png, contentType: 'image/png', width: innerW - labelW, height: imageH }], 9);
  if (beside.length) blocks.push(labelledPlot(beside, labelW, image, innerW - labelW, style(9)));
  else blocks.push(image);
  if (below.length) {
    const labels = para(below.flatMap((t): Inline[] => [{ kind: 'tab', style: style(9) }, { kind: 'text', text: t.text, style: style(9) }]), 9);
    labels.props = { ...labels.props, align: 'left', tabs: below.map((t) => ({ pos: t.x, align: 'center' as const })) };
    blocks.push(labels);
  }
  if (legend.length) blocks.push({ ...para(legend, 9), props: { ...para([], 9).props, spaceBefore: 2, spaceAfter: 4 } });
  const border = { width: 0.75, style: 'single' as const, color: GRID };
  return [{
    kind: 'textbox',
    width,
    height,
    blocks: [{
      kind: 'table',
      grid: [width],
      rows: [{ cells: [{ blocks, gridSpan: 1, borders: { top: border, bottom: border, left: border, right: border }, margins: { top: 0, right: 4, bottom: 0, left: 4 }, width }], height: { rule: 'exact', value: height } }],
    }],
  }];
}

/**
 * The plot image with its side labels in a borderless column left of it: each label a right-aligned
 * paragraph whose baseline is at the label's baseline. Its line is exact and at most 12 pt (the
 * layout sets an exact line's baseline at 0.8 of it), the labels' spacing made up by space after.
 */
export function labelledPlot(labels: Extract<ChartMark, { t: 'text' }>[], labelW: number, image: Paragraph, imageW: number, style: RunStyle): Table {
  const pitch = labels.length > 1 ? (labels[labels.length - 1]!.y - labels[0]!.y) / (labels.length - 1) : 12;
  const line = Math.max(1, Math.min(12, pitch));
  const paragraphs = labels.map((t, i): Paragraph => ({
    kind: 'paragraph',
    props: { align: 'right', spaceBefore: i === 0 ? Math.max(0, t.y - 0.8 * line) : 0, spaceAfter: i < labels.length - 1 ? Math.max(0, pitch - line) : 0, line: { rule: 'exact', value: line }, markStyle: { font: style.font, size: 9 } },
    inlines: [{ kind: 'text', text: t.text, style }],
  }));
  const none = { top: 0, right: 0, bottom: 0, left: 0 };
  return { kind: 'table', grid: [labelW, imageW], rows: [{ cells: [{ blocks: paragraphs, gridSpan: 1, borders: {}, margins: { ...none, right: 2 }, width: labelW }, { blocks: [image], gridSpan: 1, borders: {}, margins: none, width: imageW }] }] };
}

