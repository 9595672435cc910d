/** Small XLSX workbooks made from their parts, for the spreadsheet reader's and converter's tests. */
import { strToU8, zipSync } from 'fflate';

export const NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** `parts`: more parts by path (drawings, their relationships, media, charts). */
export function xlsx(sheets: string[], { styles = '', strings = '', names = '', hidden = [] as number[], parts = {} as Record<string, string | Uint8Array> } = {}): Uint8Array {
  const files: Record<string, Uint8Array> = {
    '[Content_Types].xml': strToU8('<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>'),
    '_rels/.rels': strToU8(`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`),
    'xl/workbook.xml': strToU8(`<workbook ${NS}><sheets>${sheets.map((_, i) => `<sheet name="S${i + 1}" sheetId="${i + 1}" r:id="rId${i + 1}"${hidden.includes(i) ? ' state="hidden"' : ''}/>`).join('')}</sheets><definedNames>${names}</definedNames></workbook>`),
    'xl/_rels/workbook.xml.rels': strToU8(
      `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${sheets.map((_, i) => `<Relationship Id="rId${i + 1}" Type="${REL}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`).join('')}` +
        `<Relationship Id="rS" Type="${REL}/styles" Target="styles.xml"/><Relationship Id="rT" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/><Relationship Id="rH" Type="${REL}/theme" Target="theme/theme1.xml"/></Relationships>`,
    ),
    'xl/styles.xml': strToU8(`<styleSheet ${NS}>${styles}</styleSheet>`),
    'xl/sharedStrings.xml': strToU8(`<sst ${NS}>${strings}</sst>`),
    'xl/theme/theme1.xml': strToU8('<a:theme xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:themeElements><a:clrScheme><a:dk1><a:sysClr val="windowText" lastClr="000000"/></a:dk1><a:lt1><a:sysClr val="window" lastClr="FFFFFF"/></a:lt1><a:dk2><a:srgbClr val="44546A"/></a:dk2><a:lt2><a:srgbClr val="E7E6E6"/></a:lt2><a:accent1><a:srgbClr val="4472C4"/></a:accent1></a:clrScheme></a:themeElements></a:theme>'),
  };
  sheets.forEach((body, i) => (files[`xl/worksheets/sheet${i + 1}.xml`] = strToU8(`<worksheet ${NS}>${body}</worksheet>`)));
  for (const [path, part] of Object.entries(parts)) files[path] = typeof part === 'string' ? strToU8(part) : part;
  return zipSync(files);
}

/** A sheet with "Report" in A1, a picture over B3:C6 and a column chart ("Sales by month", January and February) over A11:F30. */
export function chartBook(picture: Uint8Array): Uint8Array {
  const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
  const XDR = 'xmlns:xdr="http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="' + REL + '" xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart"';
  const cell = (c: number, r: number) => `<xdr:col>${c}</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>${r}</xdr:row><xdr:rowOff>0</xdr:rowOff>`;
  const drawing = `<xdr:wsDr ${XDR}>` +
    `<xdr:twoCellAnchor><xdr:from>${cell(1, 2)}</xdr:from><xdr:to>${cell(3, 6)}</xdr:to><xdr:pic><xdr:blipFill><a:blip r:embed="rP"/></xdr:blipFill></xdr:pic></xdr:twoCellAnchor>` +
    `<xdr:twoCellAnchor><xdr:from>${cell(0, 10)}</xdr:from><xdr:to>${cell(6, 30)}</xdr:to><xdr:graphicFrame><a:graphic><a:graphicData><c:chart r:id="rC"/></a:graphicData></a:graphic></xdr:graphicFrame></xdr:twoCellAnchor></xdr:wsDr>`;
  const chart = `<c:chartSpace ${XDR}><c:chart><c:title><c:tx><c:rich><a:p><a:r><a:t>Sales by month</a:t></a:r></a:p></c:rich></c:tx></c:title><c:plotArea><c:barChart><c:barDir val="col"/><c:grouping val="clustered"/>` +
    '<c:ser><c:idx val="0"/><c:tx><c:v>Sales</c:v></c:tx><c:cat><c:strRef><c:strCache><c:ptCount val="2"/><c:pt idx="0"><c:v>January</c:v></c:pt><c:pt idx="1"><c:v>February</c:v></c:pt></c:strCache></c:strRef></c:cat>' +
    '<c:val><c:numRef><c:numCache><c:ptCount val="2"/><c:pt idx="0"><c:v>3</c:v></c:pt><c:pt idx="1"><c:v>5</c:v></c:pt></c:numCache></c:numRef></c:val></c:ser></c:barChart></c:plotArea></c:chart></c:chartSpace>';
  const rels = (target: string, id: string, type: string) => `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="${id}" Type="${REL}/${type}" Target="${target}"/></Relationships>`;
  return xlsx([`<sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>Report</t></is></c></row></sheetData><pageSetup paperSize="9"/><drawing r:id="rD"/>`], {
    styles: '<fonts><font><sz val="10"/><name val="Arial"/></font></fonts><cellXfs><xf/></cellXfs>',
    parts: {
      'xl/worksheets/_rels/sheet1.xml.rels': rels('../drawings/drawing1.xml', 'rD', 'drawing'),
      'xl/drawings/drawing1.xml': drawing,
      'xl/drawings/_rels/drawing1.xml.rels': `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rP" Type="${REL}/image" Target="../media/image1.png"/><Relationship Id="rC" Type="${REL}/chart" Target="../charts/chart1.xml"/></Relationships>`,
      'xl/media/image1.png': picture,
      'xl/charts/chart1.xml': chart,
    },
  });
}
