/** A sheet's header and footer codes as the sections a page prints (src/convert/sheet/header-footer.ts). */
import { describe, expect, it } from 'vitest';
import { headerSections } from '../src/convert/sheet/header-footer';

const fields = { page: 3, pages: 12, sheet: 'Budget', file: 'plan.xlsx', date: '12/2/2026', time: '5:04 AM' };

describe('header and footer codes', () => {
  it('splits the left, centre and right sections and fills in the fields', () => {
    expect(headerSections('&LPage &P of &N&C&A&R&F, &D &T', fields)).toEqual({
      left: [{ text: 'Page 3 of 12' }],
      center: [{ text: 'Budget' }],
      right: [{ text: 'plan.xlsx, 12/2/2026 5:04 AM' }],
    });
    // Without a section code the text is centred; && is an ampersand.
    expect(headerSections('R&&D', fields)).toEqual({ left: [], center: [{ text: 'R&D' }], right: [] });
  });

  it('changes fonts, styles, sizes and colours within a section', () => {
    const s = headerSections('&L&"Arial,Bold"&14Title&"-,Regular"&10 sub&C&Bbold&B plain&R&KFF0000red&Uunder', fields);
    expect(s.left).toEqual([
      { text: 'Title', font: 'Arial', bold: true, italic: false, size: 14 },
      { text: ' sub', font: 'Arial', bold: false, italic: false, size: 10 },
    ]);
    expect(s.center).toEqual([{ text: 'bold', bold: true }, { text: ' plain', bold: false }]);
    expect(s.right).toEqual([{ text: 'red', color: 'FF0000' }, { text: 'under', color: 'FF0000', underline: true }]);
  });

  it('prints nothing for pictures and codes it does not know, and survives a code cut short', () => {
    expect(headerSections('&G&Zx&', fields)).toEqual({ left: [], center: [{ text: 'x' }], right: [] });
    expect(headerSections('&"Arial', fields).center).toEqual([]);
  });
});
