/**
 * PowerPoint's built-in table styles, as the a:tblStyle XML PowerPoint itself writes into a deck's
 * ppt/tableStyles.xml. A table may name one of these by id while the deck's tableStyles.xml lacks it
 * (writers other than PowerPoint leave the list empty): the table is then drawn with the definition
 * here, as LibreOffice does with its own copies. More built-ins are added here as data.
 */

/** A border element (a:left, a:insideH...) drawing a solid line of `emu` width in scheme colour `color`. */
const edge = (side: string, emu: number, color: string) => `<a:${side}><a:ln w="${emu}" cmpd="sng"><a:solidFill><a:schemeClr val="${color}"/></a:solidFill></a:ln></a:${side}>`;
const allEdges = (emu: number, color: string) => ['left', 'right', 'top', 'bottom', 'insideH', 'insideV'].map((side) => edge(side, emu, color)).join('');
const solid = (color: string, tint?: number) => `<a:fill><a:solidFill><a:schemeClr val="${color}">${tint ? `<a:tint val="${tint}"/>` : ''}</a:schemeClr></a:solidFill></a:fill>`;
const text = (color: string, bold = false) => `<a:tcTxStyle${bold ? ' b="on"' : ''}><a:fontRef idx="minor"><a:prstClr val="black"/></a:fontRef><a:schemeClr val="${color}"/></a:tcTxStyle>`;

/** "Medium Style 2 – Accent 1" (PowerPoint's default for a new table) and its siblings for the other accents. */
function mediumStyle2(id: string, accent: string): [string, string] {
  const emphasis = (border: string) => `${text('lt1', true)}<a:tcStyle><a:tcBdr>${border}</a:tcBdr>${solid(accent)}</a:tcStyle>`;
  return [id, `<a:tblStyle styleId="${id}">` +
    `<a:wholeTbl>${text('dk1')}<a:tcStyle><a:tcBdr>${allEdges(12_700, 'lt1')}</a:tcBdr>${solid(accent, 20_000)}</a:tcStyle></a:wholeTbl>` +
    `<a:band1H><a:tcStyle><a:tcBdr/>${solid(accent, 40_000)}</a:tcStyle></a:band1H><a:band2H><a:tcStyle><a:tcBdr/></a:tcStyle></a:band2H>` +
    `<a:band1V><a:tcStyle><a:tcBdr/>${solid(accent, 40_000)}</a:tcStyle></a:band1V><a:band2V><a:tcStyle><a:tcBdr/></a:tcStyle></a:band2V>` +
    `<a:lastCol>${emphasis('')}</a:lastCol><a:firstCol>${emphasis('')}</a:firstCol>` +
    `<a:lastRow>${emphasis(edge('top', 38_100, 'lt1'))}</a:lastRow><a:firstRow>${emphasis(edge('bottom', 38_100, 'lt1'))}</a:firstRow>` +
    `</a:tblStyle>`];
}

/** "No Style, Table Grid": text in tx1, a 1 pt tx1 grid, no fill; "No Style, No Grid" the same without the grid. */
const NO_STYLE_TABLE_GRID = '{5940675A-B579-460E-94D1-54222C63F5DA}';
const NO_STYLE_NO_GRID = '{2D5ABB26-0587-4C30-8999-92F81FD0307C}';

/** Built-in styles by id (their a:tblStyle XML). */
export const BUILT_IN_TABLE_STYLES: ReadonlyMap<string, string> = new Map([
  mediumStyle2('{5C22544A-7EE6-4342-B048-85BDC9FD1C3A}', 'accent1'),
  mediumStyle2('{21E4AEA4-8DFA-4A89-87EB-49C32662AFE8}', 'accent2'),
  mediumStyle2('{F5AB1C69-6EDB-4FF4-983F-18BD219EF322}', 'accent3'),
  mediumStyle2('{00A15C55-8517-42AA-B614-E9B94910E393}', 'accent4'),
  mediumStyle2('{7DF18680-E054-41AD-8BC1-D1AEF772440D}', 'accent5'),
  mediumStyle2('{93296810-A885-4BE3-A3E7-6D5BEEA58F35}', 'accent6'),
  mediumStyle2('{073A0DAA-6AF3-43AB-8588-CEC1D06C72B9}', 'dk1'),
  [NO_STYLE_TABLE_GRID, `<a:tblStyle styleId="${NO_STYLE_TABLE_GRID}"><a:wholeTbl>${text('tx1')}<a:tcStyle><a:tcBdr>${allEdges(12_700, 'tx1')}</a:tcBdr><a:fill><a:noFill/></a:fill></a:tcStyle></a:wholeTbl></a:tblStyle>`],
  [NO_STYLE_NO_GRID, `<a:tblStyle styleId="${NO_STYLE_NO_GRID}"><a:wholeTbl>${text('tx1')}<a:tcStyle><a:tcBdr/><a:fill><a:noFill/></a:fill></a:tcStyle></a:wholeTbl></a:tblStyle>`],
]);
