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

