/**
 * A large worksheet part read as it inflates (zip-directory.ts readZipEntryPieces), so neither its
 * bytes nor its text are ever held whole: the XML is cut between rows, each run of whole rows
 * parsed on its own and its rows handed over, and what lies before and after <sheetData> (column
 * widths, merges, page setup, header and footer, drawing) kept and parsed as the worksheet's
 * settings. A 60 MB sheet part took its 60 MB of bytes and 60 MB of text beside the cells.
 */
import { parseXml, type XmlElement } from '../../../../codecs/xml';

/** Where a worksheet's XML comes from: whole, or in pieces as it inflates. */
export type WorksheetSource = Uint8Array | { pieces(onPiece: (piece: Uint8Array) => void): void };

const SHEET_DATA = /<([\w.-]+:)?sheetData(?:\s[^>]*?)?(\/?)>/;

/** The start of the last row tag in `text` (-1: none), a row's start being where the rows before it are complete. */
function lastRowStart(text: string, tag: string): number {
  for (let at = text.lastIndexOf(tag); at > 0; at = text.lastIndexOf(tag, at - 1)) {
    const next = text.charCodeAt(at + tag.length);
    if (next === 32 || next === 62 || next === 47 || next === 9 || next === 10 || next === 13) return at;
  }
  return -1;
}

/** The worksheet element without its rows; each row handed to `onRow` as its run is parsed. */
export function streamedWorksheet(source: { pieces(onPiece: (piece: Uint8Array) => void): void }, onRow: (row: XmlElement) => void): XmlElement {
  const decoder = new TextDecoder();
  let state: 'head' | 'rows' | 'tail' = 'head';
  let pending = '';
  let head = '';
  let tail = '';
  let rowTag = '<row';
  let dataEnd = '</sheetData>';
  const parseRows = (run: string) => {
    if (run.trim()) parseXml(`<sheetData>${run}</sheetData>`, { depth: 2, element: (el) => (el.name === 'row' ? (onRow(el), false) : true) });
  };
  const feed = (text: string) => {
    pending += text;
    if (state === 'head') {
      const m = SHEET_DATA.exec(pending);
      if (!m) return;
      head = pending.slice(0, m.index);
      [rowTag, dataEnd] = [`<${m[1] ?? ''}row`, `</${m[1] ?? ''}sheetData>`];
      pending = pending.slice(m.index + m[0].length);
      state = m[2] === '/' ? 'tail' : 'rows';
    }
    if (state === 'rows') {
      const end = pending.indexOf(dataEnd);
      if (end >= 0) {
        parseRows(pending.slice(0, end));
        pending = pending.slice(end + dataEnd.length);
        state = 'tail';
      } else {
        const cut = lastRowStart(pending, rowTag);
        if (cut > 0) {
          parseRows(pending.slice(0, cut));
          pending = pending.slice(cut);
        }
      }
    }
    if (state === 'tail') [tail, pending] = [tail + pending, ''];
  };
  source.pieces((piece) => feed(decoder.decode(piece, { stream: true })));
  feed(decoder.decode());
  // A part with no <sheetData> is all settings; rows left unclosed at its end are parsed as they are.
  if (state === 'head') head = pending;
  else if (state === 'rows') parseRows(pending);
  return parseXml(head + tail);
}
