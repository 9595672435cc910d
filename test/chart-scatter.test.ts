/**
 * XY scatter charts (office/chart/scatter.ts): each point placed by its x value on a value axis,
 * within the axes' fixed bounds and steps, markers alone where the series has no line; read from a
 * DrawingML chart part (c:xVal, c:marker, a:ln noFill, c:scaling, c:majorUnit) and from an ODS
 * chart object's series with their own x values (chart:domain).
 */
import { describe, expect, it } from 'vitest';
import { readChart } from '../src/convert/office/chart/read';
import { chartMarks } from '../src/convert/office/chart/draw';
import type { Chart } from '../src/convert/office/model';
import { parseXml } from '../src/codecs/xml';
import { readOdfChart } from '../src/convert/office/odf/chart';

const NS = 'xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"';
const cache = (values: number[]) => `<c:numRef><c:numCache><c:ptCount val="${values.length}"/>${values.map((v, i) => `<c:pt idx="${i}"><c:v>${v}</c:v></c:pt>`).join('')}</c:numCache></c:numRef>`;
const axis = (id: number, pos: string, min: number, max: number, unit: number) =>
  `<c:valAx><c:axId val="${id}"/><c:scaling><c:orientation val="minMax"/><c:max val="${max}"/><c:min val="${min}"/></c:scaling><c:axPos val="${pos}"/><c:majorUnit val="${unit}"/></c:valAx>`;
const part = `<c:chartSpace ${NS}><c:chart><c:autoTitleDeleted val="1"/><c:plotArea><c:scatterChart><c:scatterStyle val="lineMarker"/>` +
  '<c:ser><c:idx val="0"/><c:tx><c:v>Cities</c:v></c:tx><c:spPr><a:ln w="25400"><a:noFill/></a:ln></c:spPr><c:marker><c:symbol val="circle"/><c:size val="6"/><c:spPr><a:solidFill><a:srgbClr val="FF0000"/></a:solidFill></c:spPr></c:marker>' +
  `<c:xVal>${cache([-120, 0, 60, 500])}</c:xVal><c:yVal>${cache([-30, 0, 45, 10])}</c:yVal></c:ser></c:scatterChart>` +
  `${axis(1, 'b', -180, 180, 60)}${axis(2, 'l', -90, 90, 30)}</c:plotArea></c:chart></c:chartSpace>`;

describe('scatter charts', () => {
  it('reads x values, markers without a line, and the axes\' fixed bounds and steps', () => {
    const chart = readChart(part)!;
    expect(chart.kind).toBe('scatter');
    expect(chart.series[0]).toMatchObject({ xValues: [-120, 0, 60, 500], values: [-30, 0, 45, 10], noLine: true, marker: 6, color: 'FF0000' });
    expect(chart.xAxis).toEqual({ min: -180, max: 180, step: 60 });
    expect(chart.yAxis).toEqual({ min: -90, max: 90, step: 30 });
  });

  it('places each marker by its x and y in the plot, draws no line, labels the axes by their steps and cuts points past the bounds', () => {
    const marks = chartMarks(readChart(part)!, 400, 300);
    const markers = marks.filter((m) => m.t === 'poly' && m.fill === 'FF0000');
    // x = 500 lies past the axis's 180: three markers, not four.
    expect(markers).toHaveLength(3);
    const centre = (m: (typeof markers)[number]) => (m.t === 'poly' ? [m.pts.reduce((s, p) => s + p[0], 0) / m.pts.length, m.pts.reduce((s, p) => s + p[1], 0) / m.pts.length] : [0, 0]);
    const [a, b, c] = markers.map(centre) as [number[], number[], number[]];
    // (0, 0) in the middle of the x range and of the y range; x 60 is a third of the way on from it to 180.
    expect(b[0]! - a[0]!).toBeCloseTo((c[0]! - b[0]!) * 2, 0);
    expect(a[1]!).toBeGreaterThan(b[1]!);
    expect(marks.some((m) => m.t === 'line' && m.stroke === 'FF0000')).toBe(false);
    const labels = marks.flatMap((m) => (m.t === 'text' ? [m.text] : []));
    expect(labels).toEqual(expect.arrayContaining(['-180', '-120', '-60', '0', '60', '120', '180', '-90', '-30', '30', '90']));
    expect(labels).not.toContain('-150');
  });

  it('plots a scatter series without x values by position, as a line chart', () => {
    const chart: Chart = { kind: 'scatter', horizontal: false, grouping: 'standard', categories: ['a', 'b'], series: [{ name: 's', values: [1, 2], pointColors: [], color: '00AA00' }], palette: [] };
    expect(chartMarks(chart, 300, 200).some((m) => m.t === 'line' && m.stroke === '00AA00')).toBe(true);
  });

  it('reads an ODS scatter whose series have their own x values (chart:domain) from the table\'s column pairs, with the axes\' bounds', () => {
    const cell = (v: number) => `<table:table-cell office:value-type="float" office:value="${v}"><text:p>${v}</text:p></table:table-cell>`;
    const head = (t: string) => `<table:table-cell office:value-type="string"><text:p>${t}</text:p></table:table-cell>`;
    const row = (cells: string) => `<table:table-row>${cells}</table:table-row>`;
    const xml = '<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:chart="urn:oasis:names:tc:opendocument:xmlns:chart:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0">' +
      '<office:automatic-styles><style:style style:name="ax" style:family="chart"><style:chart-properties chart:minimum="-180" chart:maximum="180" chart:interval-major="60"/></style:style>' +
      '<style:style style:name="s1" style:family="chart"><style:chart-properties chart:symbol-type="automatic"/><style:graphic-properties draw:stroke="none"/></style:style></office:automatic-styles>' +
      '<office:body><office:chart><chart:chart chart:class="chart:scatter"><chart:plot-area><chart:axis chart:dimension="x" chart:style-name="ax"/>' +
      '<chart:series chart:style-name="s1"><chart:domain/></chart:series><chart:series chart:style-name="s1"><chart:domain/></chart:series></chart:plot-area>' +
      `<table:table><table:table-header-rows>${row(head('') + head('x1') + head('Big') + head('x2') + head('Small'))}</table:table-header-rows><table:table-rows>${row(head('1') + cell(10) + cell(1) + cell(-20) + cell(2))}${row(head('2') + cell(30) + cell(3) + cell(-40) + cell(4))}</table:table-rows></table:table>` +
      '</chart:chart></office:chart></office:body></office:document-content>';
    const chart = readOdfChart(parseXml(xml))!;
    expect(chart.series.map((s) => [s.name, s.xValues, s.values, s.noLine, s.marker])).toEqual([['Big', [10, 30], [1, 3], true, 5], ['Small', [-20, -40], [2, 4], true, 5]]);
    expect(chart.xAxis).toEqual({ min: -180, max: 180, step: 60 });
  });
});
