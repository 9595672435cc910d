/**
 * The ODS reader's shapes and comments: a custom shape drawn as the preset its enhanced geometry
 * names, in its graphic style's fill and stroke, with its styled text; a line with its arrowhead
 * and its direction; a group's members; and annotations listed after the sheet when the page style
 * prints comments, the shown one drawn in its box where svg:x and svg:y put it.
 */
import { describe, expect, it } from 'vitest';
import { strToU8 } from 'fflate';
import { readOds } from '../src/convert/sheet/read/ods/index';
import { NOTE_FILL } from '../src/convert/sheet/read/note-drawings';
import type { SheetDrawing } from '../src/convert/sheet/model';

const NS =
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" ' +
  'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" ' +
  'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:dc="http://purl.org/dc/elements/1.1/" office:version="1.3"';

const STYLES =
  '<style:default-style style:family="graphic"><style:graphic-properties svg:stroke-color="#3465a4" draw:fill-color="#729fcf"/><style:text-properties style:use-window-font-color="true" fo:font-size="12pt"/></style:default-style>' +
  '<style:style style:name="gr1" style:family="graphic"><style:graphic-properties draw:stroke="solid" svg:stroke-width="1pt" svg:stroke-color="#ff0000" draw:fill="solid" draw:fill-color="#ffff00" draw:textarea-vertical-align="middle"/></style:style>' +
  '<style:style style:name="gr2" style:family="graphic"><style:graphic-properties draw:stroke="solid" svg:stroke-width="2pt" svg:stroke-color="#00aa00" draw:marker-end="Arrow" draw:fill="none"/></style:style>' +
  '<style:style style:name="P1" style:family="paragraph"><style:paragraph-properties fo:text-align="end"/></style:style>' +
  '<style:style style:name="T1" style:family="text"><style:text-properties fo:font-size="14pt" fo:font-weight="bold" fo:color="#0000ff"/></style:style>' +
  '<style:style style:name="ta1" style:family="table" style:master-page-name="Notes"/>';

const SHAPES =
  '<draw:custom-shape draw:style-name="gr1" svg:x="10pt" svg:y="5pt" svg:width="144pt" svg:height="72pt"><text:p text:style-name="P1"><text:span text:style-name="T1">Total</text:span> rows</text:p>' +
  '<draw:enhanced-geometry draw:type="ooxml-ellipse"/></draw:custom-shape>' +
  '<draw:line draw:style-name="gr2" svg:x1="100pt" svg:y1="80pt" svg:x2="20pt" svg:y2="120pt"><text:p/></draw:line>' +
  '<draw:g><draw:custom-shape draw:style-name="gr1" svg:x="0pt" svg:y="200pt" svg:width="50pt" svg:height="20pt"><draw:enhanced-geometry draw:type="isosceles-triangle"/></draw:custom-shape>' +
  '<draw:custom-shape draw:style-name="gr1" svg:x="60pt" svg:y="200pt" svg:width="50pt" svg:height="20pt"><draw:enhanced-geometry draw:type="rectangle"/></draw:custom-shape></draw:g>';

const note = (shown: boolean, text: string, x: number) =>
  `<office:annotation office:display="${shown}" svg:x="${x}pt" svg:y="2pt" svg:width="90pt" svg:height="40pt"><dc:creator>Ann</dc:creator><dc:date>2026-01-01T00:00:00</dc:date><text:p>Ann:</text:p><text:p>${text}</text:p></office:annotation>`;

/** A flat ODS: A1 holding the shapes, B1 a shown comment, D3 a hidden one; `print` the page style's style:print. */
function fods(print: string, size = 'fo:page-width="8.5in" fo:page-height="11in"'): Uint8Array {
  const masters = `<office:automatic-styles><style:page-layout style:name="pm1"><style:page-layout-properties ${size} style:print="${print}"/></style:page-layout></office:automatic-styles><office:master-styles><style:master-page style:name="Notes" style:page-layout-name="pm1"/></office:master-styles>`;
  const rows =
    `<table:table-row><table:table-cell office:value-type="string"><text:p>A1</text:p>${SHAPES}</table:table-cell><table:table-cell office:value-type="float" office:value="1">${note(true, 'Shown on B1', 120)}<text:p>1</text:p></table:table-cell></table:table-row>` +
    '<table:table-row><table:table-cell/></table:table-row>' +
    `<table:table-row><table:table-cell/><table:table-cell/><table:table-cell/><table:table-cell office:value-type="float" office:value="3">${note(false, 'Hidden on D3', 300)}<text:p>3</text:p></table:table-cell></table:table-row>`;
  return strToU8(`<office:document ${NS}><office:styles>${STYLES}</office:styles>${masters}<office:body><office:spreadsheet><table:table table:name="S1" table:style-name="ta1">${rows}</table:table></office:spreadsheet></office:body></office:document>`);
}

const shapesOf = (d: SheetDrawing) => (d.content.kind === 'shapes' ? d.content.shapes : []);

describe('ODS shapes and comments', () => {
  it('reads a custom shape as its preset in its graphic style, its text in its paragraph and span styles', () => {
    const [sheet] = readOds(fods('charts drawings')).sheets;
    const [oval] = sheet!.drawings!;
    expect(oval!.from).toEqual({ col: 0, colOffset: 10, row: 0, rowOffset: 5 });
    expect(oval!.size).toEqual({ width: 144, height: 72 });
    const shape = shapesOf(oval!)[0]!.shape;
    expect(shape).toMatchObject({ geometry: 'ellipse', fill: 'FFFF00', line: { color: 'FF0000', width: 1 }, textAnchor: 'center' });
    const [p] = shape.blocks!;
    expect(p!.align).toBe('right');
    expect(p!.runs).toMatchObject([{ text: 'Total', size: 14, bold: true, color: '0000FF' }, { text: ' rows', size: 12, color: '000000' }]);
  });

  it('reads a line from (x1, y1) to (x2, y2) with its arrowhead, and a group\'s members in one drawing', () => {
    const [sheet] = readOds(fods('charts drawings')).sheets;
    const [, line, group] = sheet!.drawings!;
    expect(line!.from).toMatchObject({ colOffset: 20, rowOffset: 80 });
    expect(line!.size).toEqual({ width: 80, height: 40 });
    // Drawn from the top-right corner down to the bottom-left: flipped across.
    expect(shapesOf(line!)[0]!.shape).toMatchObject({ geometry: 'line', flipH: true, line: { color: '00AA00', width: 2, end: { type: 'triangle' } } });
    expect(shapesOf(line!)[0]!.shape.fill).toBeUndefined();
    expect(shapesOf(group!).map((s) => [s.shape.geometry, s.box.x])).toEqual([['path', 0], ['rect', 60]]);
  });

  it('lists the comments after the sheet when the page style prints them, and draws the shown one in its box', () => {
    const [listed] = readOds(fods('annotations charts drawings')).sheets;
    expect(listed!.print.comments).toBe('atEnd');
    expect(listed!.notes).toEqual([{ row: 0, col: 1, text: 'Ann:\nShown on B1' }, { row: 2, col: 3, text: 'Ann:\nHidden on D3' }]);
    const [quiet] = readOds(fods('charts drawings')).sheets;
    expect(quiet!.notes).toBeUndefined();
    // Shown: drawn, whatever the setting, as LibreOffice prints it; the hidden one is not.
    const boxes = quiet!.drawings!.filter((d) => shapesOf(d).some((s) => s.shape.fill === NOTE_FILL));
    expect(boxes).toHaveLength(1);
    expect(shapesOf(boxes[0]!).flatMap((s) => s.shape.blocks ?? []).flatMap((b) => b.runs.map((r) => r.text))).toEqual(['Ann:', 'Shown on B1']);
  });

  it('prints a page style that gives no size on the default paper upright, whatever its print-orientation, as LibreOffice does', () => {
    const [sheet] = readOds(fods('charts', 'style:print-orientation="landscape"')).sheets;
    expect(sheet!.print.orientation).toBe('portrait');
    const [sized] = readOds(fods('charts', 'fo:page-width="11in" fo:page-height="8.5in" style:print-orientation="landscape"')).sheets;
    expect(sized!.print.orientation).toBe('landscape');
  });
});
