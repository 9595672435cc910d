/**
 * A part read as it inflates (sheet-stream.ts streamedList): cut between its list's items whatever
 * the pieces, characters split across pieces decoded whole, each run parsed with the part's
 * namespace declarations (r:id stays r:id), several item names, and what lies round the list kept.
 */
import { describe, expect, it } from 'vitest';
import { strToU8 } from 'fflate';
import { streamedList } from '../src/convert/sheet/read/xlsx/sheet-stream';
import { attr, textOf, type XmlElement } from '../src/codecs/xml';

/** The part in pieces of `size` bytes. */
const inPieces = (xml: string, size: number) => ({
  pieces(onPiece: (piece: Uint8Array) => void) {
    const bytes = strToU8(xml);
    for (let i = 0; i < bytes.length; i += size) onPiece(bytes.subarray(i, i + size));
  },
});

const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const part =
  `<?xml version="1.0"?><xdr:wsDr xmlns:xdr="urn:xdr" xmlns:rr="${REL}"><xdr:twoCellAnchor><xdr:pic rr:embed="rId7"/><xdr:t>Привет, мир 😀</xdr:t></xdr:twoCellAnchor>` +
  '<xdr:oneCellAnchor><xdr:t>второй</xdr:t></xdr:oneCellAnchor><xdr:absoluteAnchor><xdr:t>third</xdr:t></xdr:absoluteAnchor></xdr:wsDr>';

describe('streamedList', () => {
  for (const size of [1, 3, 7, 64, 100_000]) {
    it(`hands over every item whole in pieces of ${size} bytes, text and r:id as written`, () => {
      const seen: XmlElement[] = [];
      const rest = streamedList(inPieces(part, size), 'wsDr', ['twoCellAnchor', 'oneCellAnchor', 'absoluteAnchor'], (el) => seen.push(el));
      expect(seen.map((el) => el.name)).toEqual(['twoCellAnchor', 'oneCellAnchor', 'absoluteAnchor']);
      const texts = seen.map((el) => textOf(el.children.find((c): c is XmlElement => typeof c !== 'string' && c.name === 't')));
      expect(texts).toEqual(['Привет, мир 😀', 'второй', 'third']);
      const pic = seen[0]!.children.find((c): c is XmlElement => typeof c !== 'string' && c.name === 'pic');
      expect(attr(pic, 'r:embed')).toBe('rId7');
      // The list is the root: nothing is left round it.
      expect(rest).toBeUndefined();
    });
  }

  it('keeps what lies before and after the list as the part\'s root', () => {
    const sheet = '<worksheet xmlns="urn:main"><cols><col min="1"/></cols><sheetData><row r="1"/><row r="2"/></sheetData><pageSetup paperSize="9"/></worksheet>';
    const rows: string[] = [];
    const root = streamedList(inPieces(sheet, 5), 'sheetData', 'row', (el) => rows.push(attr(el, 'r')!));
    expect(rows).toEqual(['1', '2']);
    expect(root!.children.map((c) => (typeof c === 'string' ? c : c.name))).toEqual(['cols', 'pageSetup']);
  });
});
